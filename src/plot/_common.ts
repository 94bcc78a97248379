import type { TopLevelSpec } from 'vega-lite'

/** Inputs every chart shares. */
export interface ChartContext {
  /** Labels every title SIMULATED when the data came from the simulator. */
  simulated: boolean
  /** Short name of the result set or host, shown in the subtitle. */
  subject?: string
}

/** The chart title, always saying SIMULATED for simulated data. */
export function chartTitle(text: string, ctx: ChartContext): { text: string; subtitle?: string } {
  const t = ctx.simulated ? `SIMULATED: ${text}` : text
  return ctx.subject ? { text: t, subtitle: ctx.subject } : { text: t }
}

/** Common top-level settings (schema, background, font sizes). */
export function base(width = 560, height = 340): Partial<TopLevelSpec> & { $schema: string } {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    width,
    height,
    config: {
      axis: { labelFontSize: 11, titleFontSize: 12 },
      legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 320 },
      title: { fontSize: 15, subtitleFontSize: 11 },
    },
  } as Partial<TopLevelSpec> & { $schema: string }
}

/** Rounds for specs (golden files stay stable): 4 significant digits. */
export const r4 = (v: number): number => (v === 0 || !Number.isFinite(v) ? v : Number(v.toPrecision(4)))

/** A series' P2P state for chart keys: `bounce` (P2P off, staged by the bench itself) apart from the driver's `disabled`. */
export const p2pState = (f: { p2p: 'enabled' | 'disabled' | null; staging?: 'bounce' }): string | null =>
  f.staging ?? f.p2p
