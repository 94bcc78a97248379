import type { CollectiveDef } from './_types.ts'

/** alltoall: every rank sends a slice to every other; nccl-tests has no in-place check for it. */
export const alltoall: CollectiveDef = {
  name: 'alltoall',
  reduction: false,
  rooted: false,
  sizeIsTotal: true,
  bus: '(n-1)/n',
  inPlaceUnchecked: true,
  ringSteps: (n) => n - 1,
  native: true,
}
