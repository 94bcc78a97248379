import type { CollectiveDef } from './_types.ts'

/** scatter: a slice of the root's buffer to every rank. */
export const scatter: CollectiveDef = {
  name: 'scatter',
  reduction: false,
  rooted: true,
  sizeIsTotal: true,
  bus: '(n-1)/n',
}
