import type { CollectiveDef } from './_types.ts'

/** alltoallv (nccl-tests 2.18.5+): alltoall with per-peer counts; size is the largest per-rank buffer. */
export const alltoallv: CollectiveDef = {
  name: 'alltoallv',
  reduction: false,
  rooted: false,
  sizeIsTotal: false,
  bus: '(n-1)/n',
  textOnly: true,
}
