/**
 * What a rendered chart shows, read from vega's scene graph (the same view `renderSvg` draws):
 * every text's box and every mark item's box, in chart pixels. Tests read it to check that no
 * two labels overprint and that every band the legend names is drawn where it can be seen.
 */
import type { TopLevelSpec } from 'vega-lite'
import { installTextMetrics } from './_metrics.ts'
import { CHART_FONT } from './_render.ts'

/** A box in chart pixels (x1 < x2, y1 < y2). */
export interface Box {
  x1: number
  y1: number
  x2: number
  y2: number
}

/** One drawn item: its mark type and role, its box, its text (text marks) and its datum. */
export interface SceneItem {
  marktype: string
  role: string
  box: Box
  text?: string
  datum?: Record<string, unknown>
  /** The plot area it is drawn in (its group's box): a mark outside it is clipped or stray. */
  frame: Box
  opacity: number
}

type VegaItem = {
  x?: number
  y?: number
  width?: number
  height?: number
  bounds?: Box
  text?: string | string[]
  datum?: Record<string, unknown>
  items?: VegaMark[]
  opacity?: number
  fillOpacity?: number
  strokeOpacity?: number
}
type VegaMark = { marktype: string; role: string; items: VegaItem[] }

/** Every item of a spec's scene graph with absolute boxes (items of zero size left out). */
export async function sceneOf(spec: TopLevelSpec): Promise<SceneItem[]> {
  await installTextMetrics()
  const vl = await import('vega-lite')
  const vega = await import('vega')
  const withFont = { ...spec, config: { font: CHART_FONT, ...(spec.config ?? {}) } } as TopLevelSpec
  const view = new vega.View(vega.parse(vl.compile(withFont).spec), { renderer: 'none' })
  try {
    await view.runAsync()
    const out: SceneItem[] = []
    const walk = (mark: VegaMark, dx: number, dy: number, frame: Box): void => {
      for (const it of mark.items ?? []) {
        const b = it.bounds
        if (b && Number.isFinite(b.x1) && b.x2 > b.x1 - 1e-9 && b.y2 > b.y1 - 1e-9) {
          const text = Array.isArray(it.text) ? it.text.join(' ') : it.text === undefined ? undefined : String(it.text)
          out.push({
            marktype: mark.marktype,
            role: mark.role,
            box: { x1: b.x1 + dx, y1: b.y1 + dy, x2: b.x2 + dx, y2: b.y2 + dy },
            ...(text !== undefined ? { text } : {}),
            ...(it.datum ? { datum: it.datum } : {}),
            frame,
            opacity: (it.opacity ?? 1) * Math.max(it.fillOpacity ?? 1, it.strokeOpacity ?? 0),
          })
        }
        if (mark.marktype === 'group' && it.items) {
          const gx = dx + (it.x ?? 0)
          const gy = dy + (it.y ?? 0)
          const inner = { x1: gx, y1: gy, x2: gx + (it.width ?? 0), y2: gy + (it.height ?? 0) }
          for (const m of it.items) walk(m, gx, gy, inner)
        }
      }
    }
    const root = (view.scenegraph() as unknown as { root: VegaMark }).root
    walk(root, 0, 0, { x1: 0, y1: 0, x2: view.width(), y2: view.height() })
    return out
  } finally {
    view.finalize()
  }
}

/** The overlap of two boxes in pixels² (0 when they only touch). */
export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1)
  return w > 0 && h > 0 ? w * h : 0
}

/**
 * Pairs of drawn, non-empty texts whose boxes overlap by more than `tolerance` pixels². A label
 * vega hid (opacity 0: an axis' labelOverlap or labelBound removed it) is not drawn, so it clashes with nothing.
 */
export function overlappingTexts(items: readonly SceneItem[], tolerance = 1): [SceneItem, SceneItem][] {
  const texts = items.filter((i) => i.marktype === 'text' && (i.text ?? '').trim() !== '' && i.opacity > 0)
  const out: [SceneItem, SceneItem][] = []
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i] as SceneItem
      const b = texts[j] as SceneItem
      if (overlapArea(a.box, b.box) > tolerance) out.push([a, b])
    }
  return out
}
