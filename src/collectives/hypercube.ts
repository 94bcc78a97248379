import type { CollectiveDef } from './_types.ts'

/** hypercube: nccl-tests' exchange along hypercube dimensions; size is count × type size × (n-1). */
export const hypercube: CollectiveDef = {
  name: 'hypercube',
  reduction: false,
  rooted: false,
  sizeIsTotal: false,
  bus: '1',
  textOnly: true,
}
