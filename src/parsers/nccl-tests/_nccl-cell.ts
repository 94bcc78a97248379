/** One cell of an nccl-tests table row (time, algbw, busbw or #wrong) as a result row. */
import type { Row } from '../../model/index.ts'
import type { ParsedRow } from './_nccl-row.ts'
import { scaledDecimal } from './_nccl-tokens.ts'

/** Where a cell sits: its table row, bench, ranks, placement, source line and trial. */
export interface CellPlace {
  row: ParsedRow
  bench: string
  ranks: number | null
  placement: 'out-of-place' | 'in-place'
  source: Row['source']
  trial: number
  /** The requested size, where it differs from the printed one. */
  requested: number | undefined
}

/** The row of a cell printed as `tok` (×10^exp to base units), or undefined when it is not a usable number. */
export function cellRow(
  at: CellPlace,
  tok: string,
  metric: Row['metric'],
  unit: Row['unit'],
  exp: number,
): Row | undefined {
  const value = scaledDecimal(tok, exp)
  if (!Number.isFinite(value)) return undefined
  const r: Row = {
    bench: at.bench,
    metric,
    unit,
    value,
    sizeBytes: at.row.size,
    ranks: at.ranks,
    src: null,
    dst: null,
    placement: at.placement,
    p2p: null,
    timer: 'cpu',
    trial: at.trial,
    source: at.source,
    dtype: at.row.type,
  }
  if (at.requested !== undefined) r.requestedBytes = at.requested
  if (at.row.redop !== undefined && at.row.redop !== 'none') r.redop = at.row.redop
  if (at.row.root !== undefined && at.row.root >= 0) r.root = at.row.root
  return r
}
