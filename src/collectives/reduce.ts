import type { CollectiveDef } from './_types.ts'

/** reduce: the root ends with the reduction of all buffers. */
export const reduce: CollectiveDef = { name: 'reduce', reduction: true, rooted: true, sizeIsTotal: false, bus: '1' }
