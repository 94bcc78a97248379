import type { CollectiveDef } from './_types.ts'

/** sendrecv: each rank sends to the next and receives from the previous (one step). */
export const sendrecv: CollectiveDef = {
  name: 'sendrecv',
  reduction: false,
  rooted: false,
  sizeIsTotal: false,
  bus: '1',
  ringSteps: (n) => (n > 1 ? 1 : 0),
  native: true,
}
