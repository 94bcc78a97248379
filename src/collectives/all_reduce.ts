import type { CollectiveDef } from './_types.ts'

/** all_reduce: every rank ends with the reduction of all buffers (reduce-scatter then all-gather). */
export const allReduce: CollectiveDef = {
  name: 'all_reduce',
  reduction: true,
  rooted: false,
  sizeIsTotal: false,
  bus: '2(n-1)/n',
  ringSteps: (n) => 2 * (n - 1),
  native: true,
}
