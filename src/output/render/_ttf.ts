/**
 * Advance widths from a TrueType/OpenType font file: the `cmap` table maps a code point to a
 * glyph, `hmtx` gives each glyph's advance, `head` the units per em. Enough to measure a line of
 * text the way the rasterizer lays it out (kerning and shaping left out).
 */
import { readFileSync } from 'node:fs'

/** A font's advance widths, in em (1 = the font size). */
export interface FontMetrics {
  /** The advance of one code point in em (the missing glyph's advance when the font lacks it). */
  advance(codePoint: number): number
  unitsPerEm: number
}

type Tables = Map<string, { offset: number; length: number }>

function tablesOf(b: Buffer): Tables {
  const tables: Tables = new Map()
  const n = b.readUInt16BE(4)
  for (let i = 0; i < n; i++) {
    const r = 12 + 16 * i
    tables.set(b.toString('latin1', r, r + 4), { offset: b.readUInt32BE(r + 8), length: b.readUInt32BE(r + 12) })
  }
  return tables
}

function need(tables: Tables, tag: string, file: string): number {
  const t = tables.get(tag)
  if (!t) throw new Error(`${file}: no '${tag}' table`)
  return t.offset
}

/** cmap format 4 (BMP, segments) into `out`. */
function cmap4(b: Buffer, at: number, out: Map<number, number>): void {
  const segX2 = b.readUInt16BE(at + 6)
  const ends = at + 14
  const starts = ends + segX2 + 2
  const deltas = starts + segX2
  const ranges = deltas + segX2
  for (let s = 0; s < segX2; s += 2) {
    const end = b.readUInt16BE(ends + s)
    const start = b.readUInt16BE(starts + s)
    const delta = b.readInt16BE(deltas + s)
    const rangeOffset = b.readUInt16BE(ranges + s)
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let g: number
      if (rangeOffset === 0) g = (c + delta) & 0xffff
      else {
        const p = ranges + s + rangeOffset + 2 * (c - start)
        g = b.readUInt16BE(p)
        if (g !== 0) g = (g + delta) & 0xffff
      }
      if (g !== 0 && !out.has(c)) out.set(c, g)
    }
  }
}

/** cmap format 12 (all planes, groups) into `out`. */
function cmap12(b: Buffer, at: number, out: Map<number, number>): void {
  const groups = b.readUInt32BE(at + 12)
  for (let i = 0; i < groups; i++) {
    const g = at + 16 + 12 * i
    const start = b.readUInt32BE(g)
    const end = Math.min(b.readUInt32BE(g + 4), start + 0x10000)
    const glyph = b.readUInt32BE(g + 8)
    for (let c = start; c <= end; c++) if (!out.has(c)) out.set(c, glyph + c - start)
  }
}

/** The Unicode code point → glyph map (format 12 preferred, then format 4). */
function codeMap(b: Buffer, cmapAt: number): Map<number, number> {
  const out = new Map<number, number>()
  const n = b.readUInt16BE(cmapAt + 2)
  const subs: { format: number; at: number }[] = []
  for (let i = 0; i < n; i++) {
    const r = cmapAt + 4 + 8 * i
    const platform = b.readUInt16BE(r)
    const encoding = b.readUInt16BE(r + 2)
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))
    const at = cmapAt + b.readUInt32BE(r + 4)
    if (unicode) subs.push({ format: b.readUInt16BE(at), at })
  }
  for (const s of subs.filter((x) => x.format === 12)) cmap12(b, s.at, out)
  for (const s of subs.filter((x) => x.format === 4)) cmap4(b, s.at, out)
  return out
}

/** Reads a font file's advance widths; throws on a file that is not a TrueType/OpenType font. */
export function readFontMetrics(file: string): FontMetrics {
  const b = readFileSync(file)
  const tag = b.toString('latin1', 0, 4)
  if (tag !== '\0\x01\0\0' && tag !== 'OTTO' && tag !== 'true') throw new Error(`${file}: not a TrueType/OpenType font`)
  const tables = tablesOf(b)
  const unitsPerEm = b.readUInt16BE(need(tables, 'head', file) + 18)
  const hMetrics = b.readUInt16BE(need(tables, 'hhea', file) + 34)
  const hmtx = need(tables, 'hmtx', file)
  const glyphOf = codeMap(b, need(tables, 'cmap', file))
  const advanceOfGlyph = (g: number): number => b.readUInt16BE(hmtx + 4 * Math.min(g, hMetrics - 1))
  const cache = new Map<number, number>()
  return {
    unitsPerEm,
    advance(cp: number): number {
      let w = cache.get(cp)
      if (w === undefined) {
        w = advanceOfGlyph(glyphOf.get(cp) ?? 0) / unitsPerEm
        cache.set(cp, w)
      }
      return w
    },
  }
}

/** The width of one line of text in em: the sum of its code points' advances. */
export function lineWidthEm(m: FontMetrics, text: string): number {
  let w = 0
  for (const ch of text) w += m.advance(ch.codePointAt(0) as number)
  return w
}
