import type { CollectiveDef } from './_types.ts'

/** reduce_scatter: each rank ends with its slice of the reduction. */
export const reduceScatter: CollectiveDef = {
  name: 'reduce_scatter',
  reduction: true,
  rooted: false,
  sizeIsTotal: true,
  bus: '(n-1)/n',
  ringSteps: (n) => n - 1,
  native: true,
}
