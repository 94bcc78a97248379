import type { Row } from './types.ts'

/**
 * A row's arm: its NCCL env and host-axis values ("NCCL_P2P_DISABLE=1 cstates=shallow"), "" for
 * none. Arms are conditions a sweep varies on purpose: a median over arms is a value no arm has.
 */
export const rowArm = (r: Pick<Row, 'env' | 'hostAxis'>): string =>
  [...Object.entries(r.env ?? {}), ...Object.entries(r.hostAxis ?? {})].map(([k, v]) => `${k}=${v}`).join(' ')
