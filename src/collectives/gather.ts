import type { CollectiveDef } from './_types.ts'

/** gather: every rank's buffer to the root. */
export const gather: CollectiveDef = {
  name: 'gather',
  reduction: false,
  rooted: true,
  sizeIsTotal: true,
  bus: '(n-1)/n',
}
