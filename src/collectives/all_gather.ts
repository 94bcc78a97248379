import type { CollectiveDef } from './_types.ts'

/** all_gather: every rank ends with every rank's buffer. */
export const allGather: CollectiveDef = {
  name: 'all_gather',
  reduction: false,
  rooted: false,
  sizeIsTotal: true,
  bus: '(n-1)/n',
  ringSteps: (n) => n - 1,
  native: true,
}
