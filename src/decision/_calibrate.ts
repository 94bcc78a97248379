/**
 * The step model's two free constants, fitted by least squares to the published rows marked
 * `calibration` (the GLM-5 rows at concurrency 1 and 64 of _published.ts): memory efficiency
 * (the fraction of the datasheet bandwidth a step's reads reach) and a fixed cost per layer.
 * Every other row validates the fit (docs/serving-validation.md).
 */
import { gpuById } from './_gpus.ts'
import { lineNet, withCustomAllReduce } from './_interconnect.ts'
import { stepModelById } from './_models.ts'
import type { PublishedRow } from './_published.ts'
import { PUBLISHED_NETS, PUBLISHED_ROWS } from './_published.ts'
import type { Efficiency, Interconnect } from './_step.ts'
import { predictStep } from './_step.ts'

/** The interconnect a published row ran on. */
export function rowNet(r: PublishedRow): Interconnect {
  const l = PUBLISHED_NETS[r.net]
  if (!l) throw new Error(`published row ${r.id}: no net ${r.net}`)
  const nccl = lineNet(l)
  return r.allReduce === 'one-shot' ? withCustomAllReduce(nccl, l.p2pBw) : nccl
}

/** The pieces of a row's step at efficiency 1 and no per-layer cost: memory seconds, layer passes, collectives. */
function parts(r: PublishedRow): { mem: number; layers: number; comm: number } {
  const m = stepModelById(r.model)
  const g = gpuById(r.gpu)
  if (!m || !g) throw new Error(`published row ${r.id}: unknown model or GPU`)
  const p = predictStep(m, g, r.plan, rowNet(r), { memory: 1, perLayer: 1, from: '' })
  const sum = (n: string[]) => p.terms.filter((t) => n.includes(t.name)).reduce((s, t) => s + t.seconds, 0)
  return { mem: sum(['weights', 'kv']), layers: sum(['per-layer']), comm: p.comm }
}

/** Least-squares fit of step − comm = mem/e + layers·o over the rows (relative residuals). */
export function calibrate(rows: readonly PublishedRow[]): Efficiency {
  let [saa, sab, sbb, sac, sbc] = [0, 0, 0, 0, 0]
  for (const r of rows) {
    const { mem, layers, comm } = parts(r)
    const step = r.plan.batch / r.measured
    // Weighted by 1/step so each row counts by its relative error.
    const [a, b, c] = [mem / step, layers / step, (step - comm) / step]
    saa += a * a
    sab += a * b
    sbb += b * b
    sac += a * c
    sbc += b * c
  }
  const det = saa * sbb - sab * sab
  const inv = (sac * sbb - sab * sbc) / det
  const perLayer = (saa * sbc - sab * sac) / det
  const ids = rows.map((r) => r.id).join(', ')
  return {
    memory: 1 / inv,
    perLayer,
    from: `fitted to published rows ${ids} (docs/serving-validation.md)`,
  }
}

/** The constants every prediction uses. */
export const EFFICIENCY: Efficiency = calibrate(PUBLISHED_ROWS.filter((r) => r.role === 'calibration'))
