/**
 * What every chart shares beyond the frame: one colour per series name (a grouping, a link
 * class) in every chart of every set, legend labels wrapped instead of cut, and a size axis
 * whose every tick carries a label.
 */

/** Tableau 10: distinct at a glance and for the common colour-vision deficiencies. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
]

/** Names that always get the same slot (groupings and link classes users compare most). */
const FIXED: Record<string, number> = {
  tp8: 0,
  tp4: 1,
  tp2: 2,
  '8 ranks': 0,
  '4 ranks': 1,
  '2 ranks': 2,
  PHB: 0,
  NODE: 1,
  SYS: 2,
  PIX: 3,
  PXB: 4,
  'same GPU': 9,
}

/** The colour of a series name: fixed for the common ones, else a stable hash of the name. */
export function colorOf(label: string): string {
  // "PHB (56 pairs)" and "PHB" are the same series: the count in parentheses is not part of the name.
  const name = label.replace(/ \([^)]*\)$/, '')
  const base = name.split(' ')[0] as string
  const slot = FIXED[name] ?? FIXED[base]
  if (slot !== undefined) return PALETTE[slot] as string
  let h = 2166136261
  for (const ch of base) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619)
  return PALETTE[(h >>> 0) % PALETTE.length] as string
}

/** A colour scale over these names, each in its own colour (the same in every chart). */
export const colorScale = (names: readonly string[]): { domain: string[]; range: string[] } => {
  const domain = [...new Set(names)]
  return { domain, range: domain.map(colorOf) }
}

/** Breaks a label into lines of at most `width` characters at spaces. */
export function wrap(text: string, width = 36): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.join('\n')
}

/** A legend that shows wrapped labels on several lines (see `wrap`). */
export const WRAPPED_LEGEND = { labelExpr: "split(datum.label, '\\n')", labelLimit: 640, titleLimit: 640 } as const

const LABEL =
  "datum.value >= 1073741824 ? datum.value / 1073741824 + ' GiB' : datum.value >= 1048576 ? " +
  "datum.value / 1048576 + ' MiB' : datum.value >= 1024 ? datum.value / 1024 + ' KiB' : " +
  "datum.value + ' B'"

/**
 * A log₂ message-size x axis over these sizes, ticks at powers of two spaced so that every
 * tick has room for its label (B / KiB / MiB / GiB).
 */
export function sizeAxisFor(sizes: readonly number[]) {
  const pos = sizes.filter((s) => s > 0)
  const lo = pos.length ? Math.floor(Math.log2(Math.min(...pos))) : 0
  const hi = Math.max(lo + 1, pos.length ? Math.ceil(Math.log2(Math.max(...pos))) : 1)
  // At most 8 ticks: steps of 2, 4, 8, … in the exponent.
  let step = 1
  while ((hi - lo) / step > 7) step++
  const values: number[] = []
  for (let e = lo; e <= hi; e += step) values.push(2 ** e)
  return {
    field: 'size',
    type: 'quantitative' as const,
    scale: { type: 'log' as const, base: 2, domain: [2 ** lo, 2 ** hi] },
    title: 'message size',
    axis: { values, labelExpr: LABEL, labelOverlap: false, labelFlush: true },
  }
}
