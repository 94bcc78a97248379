/**
 * Text widths for chart layout from the font the PNG is drawn with. Without a canvas, vega
 * estimates a text as 0.8 em per character; DejaVu Sans averages ~0.55-0.6 em, so every axis,
 * legend and title reserve was too wide and the label boxes were not the drawn ones. This
 * installs vega's `textMetrics.width` from the font file's own advance widths (bold face for
 * bold text), and leaves vega's estimate in place when no font is found.
 */
import { existsSync } from 'node:fs'
import { findFontFiles } from './_fonts.ts'
import { type FontMetrics, lineWidthEm, readFontMetrics } from './_ttf.ts'

/** The faces text is measured with: the regular one and, when found, its bold one. */
export interface ChartFaces {
  regular: FontMetrics
  bold?: FontMetrics
  files: string[]
}

/** Reads the faces of the first font findFontFiles picks (the one resvg draws with); null without one. */
export function chartFaces(dirs?: readonly string[]): ChartFaces | null {
  const regularFile = findFontFiles(dirs)[0]
  if (!regularFile) return null
  let regular: FontMetrics
  try {
    regular = readFontMetrics(regularFile)
  } catch {
    return null
  }
  const boldFile = regularFile.replace(/\.(ttf|otf)$/i, '-Bold.$1')
  let bold: FontMetrics | undefined
  try {
    if (existsSync(boldFile)) bold = readFontMetrics(boldFile)
  } catch {
    bold = undefined
  }
  return { regular, ...(bold ? { bold } : {}), files: bold ? [regularFile, boldFile] : [regularFile] }
}

/** The text item fields vega's width function reads. */
export interface TextItem {
  fontSize?: number | string
  fontWeight?: number | string
  limit?: number
}

function isBold(weight: TextItem['fontWeight']): boolean {
  if (weight === undefined || weight === null) return false
  const n = Number(weight)
  return Number.isFinite(n) ? n >= 600 : /bold|black|heavy/i.test(String(weight))
}

/**
 * A vega `textMetrics.width` over `faces`: the width in pixels of one line as drawn. A text with a
 * `limit` is drawn truncated to fit it, so its width is at most the limit (vega's truncation
 * calls this same function on prefixes, so the cap keeps its search exact).
 */
export function widthFunction(faces: ChartFaces): WidthFunction {
  return (item, text) => {
    const size = item.fontSize != null ? +item.fontSize || 0 : 11
    const line = text == null ? '' : String(text).trim()
    if (size <= 0 || line === '') return 0
    const face = isBold(item.fontWeight) ? (faces.bold ?? faces.regular) : faces.regular
    const w = lineWidthEm(face, line) * size
    const limit = Number(item.limit)
    return limit > 0 ? Math.min(w, limit) : w
  }
}

/** A vega text width function: (text item, line) → pixels. */
export type WidthFunction = (item: TextItem, text: unknown) => number

/**
 * The text measure charts lay out with: the widths of the font found in `dirs` (the system font
 * folders by default), or vega's own estimate (0.8 em per character) when no font is found.
 */
export async function textWidthFor(dirs?: readonly string[]): Promise<WidthFunction> {
  const faces = chartFaces(dirs)
  if (faces) return widthFunction(faces)
  const vega = await import('vega')
  return (vega as unknown as { textMetrics: { estimateWidth: WidthFunction } }).textMetrics.estimateWidth
}

let installed: Promise<boolean> | undefined

/**
 * Installs the font's widths as vega's text measure (once per process). Resolves true when the
 * font's metrics are in use, false when vega keeps its own estimate (no font found).
 */
export function installTextMetrics(): Promise<boolean> {
  installed ??= (async () => {
    const vega = await import('vega')
    const metrics = (vega as unknown as { textMetrics: { width: WidthFunction; estimateWidth: WidthFunction } })
      .textMetrics
    metrics.width = await textWidthFor()
    return metrics.width !== metrics.estimateWidth
  })()
  return installed
}
