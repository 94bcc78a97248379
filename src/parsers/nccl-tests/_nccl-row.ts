/**
 * One nccl-tests data row, split into its preamble (size, count, type, redop, root) and
 * its placement blocks (time, algbw, busbw, wrong|error; plus four i_* cells with -I).
 * Never relies on column positions (they moved between versions and with -I; see the logs
 * under test/fixtures/nccl-tests): tokens only.
 */
import { REDOPS } from './_nccl-collective.ts'
import { isCellShaped, isInt, isUInt, isWord } from './_nccl-tokens.ts'

/** What the table header (or the first clean row) says about the columns. */
export interface Layout {
  hasRedop: boolean
  hasRoot: boolean
  /** `#wrong` counts (v2.13+) or the `error`/`res` maximum deviation (older). */
  wrongKind: 'count' | 'deviation' | 'unknown'
  /** Four i_min/i_max/i_p99/i_cv% cells after each wrong cell (-I, v2.19.2+). */
  perIter: boolean
}

/** One placement's cells, as printed. */
export interface Block {
  time: string
  algbw: string
  busbw: string
  wrong: string
}

/** A parsed row; `blocks[0]` is out-of-place, `blocks[1]` in-place (unless `inPlaceOnly`). */
export interface ParsedRow {
  size: number
  count: number
  type: string
  redop?: string
  root?: number
  blocks: Block[]
  /** Text glued after the last complete block (an error line printed mid-row). */
  glued?: string
  /** 1-3 trailing cells of a block cut short (truncated log). */
  partial: boolean
  /** Trace/replay mode (2.17.3+): the out-of-place block is printed blank, `blocks[0]` is in-place. */
  inPlaceOnly?: boolean
  /** The layout this row was read with, and whether its token count matched it exactly. */
  layout: Layout
  exact: boolean
}

const isCell = isCellShaped
const isDate = (t: string): boolean => t.length === 10 && t[4] === '-' && t[7] === '-'

/**
 * Reads a row from whitespace tokens, or returns undefined when the tokens are not a row
 * (they must start with two unsigned integers and a dtype word).
 */
export function parseRow(t: readonly string[], known: Layout | undefined): ParsedRow | undefined {
  if (t.length < 4) return undefined
  const t0 = t[0] as string
  const t1 = t[1] as string
  const type = t[2] as string
  if (!isUInt(t0) || !isUInt(t1) || !isWord(type) || REDOPS.has(type)) return undefined
  const layout = known ?? guessLayout(t)
  let i = 3
  let redop: string | undefined
  let root: number | undefined
  if (layout.hasRedop) {
    const r = t[i]
    if (r === undefined || !REDOPS.has(r)) return undefined
    redop = r
    i++
  }
  if (layout.hasRoot) {
    const r = t[i]
    if (r === undefined || !isInt(r)) return undefined
    root = Number(r)
    i++
  }
  const row: ParsedRow = { size: Number(t0), count: Number(t1), type, blocks: [], partial: false, layout, exact: false }
  if (redop !== undefined) row.redop = redop
  if (root !== undefined) row.root = root
  readBlocks(t, i, row)
  return row
}

function readBlocks(t: readonly string[], start: number, row: ParsedRow): void {
  const width = row.layout.perIter ? 8 : 4
  let i = start
  while (row.blocks.length < 2 && i < t.length) {
    let k = 0
    while (k < width && i + k < t.length && isCell(t[i + k] as string)) k++
    if (k < width) {
      if (i + k >= t.length) row.partial = k > 0
      else if (!isDate(t[i] as string)) row.glued = t.slice(i + k).join(' ')
      return
    }
    row.blocks.push({
      time: t[i] as string,
      algbw: t[i + 1] as string,
      busbw: t[i + 2] as string,
      wrong: t[i + 3] as string,
    })
    i += width
  }
  if (i < t.length && !isDate(t[i] as string)) row.glued = t.slice(i).join(' ')
  row.exact = row.blocks.length === 2 && (i === t.length || (i + 2 === t.length && isDate(t[i] as string)))
}

/**
 * Columns of a headerless row from its tokens: a redop word after the type, then a root
 * integer when the remaining cell count says so (9 = root + 2×4, 17 = root + 2×8).
 */
export function guessLayout(t: readonly string[]): Layout {
  const hasRedop = REDOPS.has(t[3] as string)
  const i = hasRedop ? 4 : 3
  const rest = t.length - i
  const ti = t[i] ?? ''
  let hasRoot: boolean
  if (rest === 9 || rest === 17) hasRoot = isInt(ti)
  else if (rest === 8 || rest === 16) hasRoot = false
  else hasRoot = hasRedop && isInt(ti)
  const perIter = rest - (hasRoot ? 1 : 0) === 16
  const w = t[i + (hasRoot ? 1 : 0) + 3]
  const wrongKind = w === undefined || w === 'N/A' ? 'unknown' : isUInt(w) ? 'count' : 'deviation'
  return { hasRedop, hasRoot, wrongKind, perIter }
}

/** Columns from the header's column-name line (`size count type redop root time ... #wrong`). */
export function layoutFromHeader(cols: readonly string[]): Layout {
  const has = (c: string): boolean => cols.includes(c)
  return {
    hasRedop: has('redop') || has('op'),
    hasRoot: has('root'),
    wrongKind: has('#wrong') ? 'count' : has('error') || has('res') ? 'deviation' : 'unknown',
    perIter: has('i_min'),
  }
}

/** The blank out-of-place block of trace/replay mode: 32 blanks between the row's preamble and its cells. */
const BLANK_BLOCK = /\S {24,}\S/

/**
 * Marks a one-block row as trace/replay mode (2.17.3+) when its text `s` shows the blank
 * out-of-place block; its one block is then in-place. Returns whether it did.
 */
export function markTraceRow(row: ParsedRow, s: string): boolean {
  if (row.blocks.length !== 1 || row.partial || row.glued !== undefined || !BLANK_BLOCK.test(s)) return false
  row.inPlaceOnly = true
  return true
}

/**
 * Completes a row that an error line broke off, when tokens `t` are exactly its missing
 * cells (the row continued on the next line). Returns whether they were.
 */
export function continueRow(row: ParsedRow, t: readonly string[]): boolean {
  const width = row.layout.perIter ? 8 : 4
  if (t.length !== (2 - row.blocks.length) * width || !t.every(isCellShaped)) return false
  for (let i = 0; i < t.length; i += width) {
    row.blocks.push({
      time: t[i] as string,
      algbw: t[i + 1] as string,
      busbw: t[i + 2] as string,
      wrong: t[i + 3] as string,
    })
  }
  return true
}
