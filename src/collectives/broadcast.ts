import type { CollectiveDef } from './_types.ts'

/** broadcast: the root's buffer to every rank. */
export const broadcast: CollectiveDef = {
  name: 'broadcast',
  reduction: false,
  rooted: true,
  sizeIsTotal: false,
  bus: '1',
  ringSteps: (n) => n - 1,
  native: true,
}
