/**
 * Format detection for nccl-tests text: strong markers (banner, version line, header,
 * footer) first, then a count of row-shaped lines for log tails that have none.
 */
import { parseRow } from './_nccl-row.ts'
import { stripPrefix, tokenize } from './_nccl-tokens.ts'

/** Confidence in [0, 1] that `head` is nccl-tests text output. */
export function detectNcclText(head: string): number {
  if (head.trimStart().startsWith('{')) return 0
  if (head.includes('# nccl-tests version') || head.includes('# Collective test starting:')) return 0.95
  if (head.includes('nThread ') && head.includes(' nGpus ') && head.includes('minBytes')) return 0.95
  if (head.includes('out-of-place') && head.includes('in-place') && head.includes('algbw')) return 0.9
  if (head.includes('# Out of bounds values') || head.includes('# Avg bus bandwidth')) return 0.85
  const rows = rowShapedLines(head, 3)
  return rows >= 3 ? 0.7 : rows >= 1 ? 0.55 : 0
}

/** Number of lines (up to `enough`) that parse as complete nccl-tests result rows. */
function rowShapedLines(head: string, enough: number): number {
  const tok: string[] = []
  let found = 0
  let start = 0
  let lines = 0
  while (start < head.length && lines++ < 2000) {
    let end = head.indexOf('\n', start)
    if (end < 0) end = head.length
    const { text } = stripPrefix(head.slice(start, end))
    const row = parseRow(tokenize(text, tok), undefined)
    if (row && row.blocks.length === 2) found++
    if (found >= enough) break
    start = end + 1
  }
  return found
}
