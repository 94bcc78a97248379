/**
 * What a diff's tests found, over all cells together: the false-discovery-rate control of
 * the tested cells, the data errors (`wrong` counts) put on the cells they concern, and the
 * statement of what the tests can say at all (expected false positives, unreachable α).
 */
import type { RowGroup } from '../cells/index.ts'
import type { Metric } from '../model/index.ts'
import { uTestMinP } from '../stats/index.ts'
import { benjaminiHochberg, PRIMARY_METRICS, uTestMinN } from './_gate.ts'
import type { DiffCell, DiffTesting } from './_types.ts'

/** Sets each tested cell's Benjamini–Hochberg q over all tested cells (in place). */
export function withFdr(cells: DiffCell[]): void {
  const tested = cells.filter((c) => c.tested)
  const q = benjaminiHochberg(tested.map((c) => c.p))
  tested.forEach((c, i) => void (c.q = q[i] as number))
}

/** One side's data-check failures in a `wrong` cell: "B: 12 wrong elements in 2 of 6 trials". */
function wrongLine(name: string, g: RowGroup | undefined): string | undefined {
  if (!g) return undefined
  const bad = g.values.filter((v) => v !== 0)
  if (bad.length === 0) return undefined
  const sum = bad.reduce((s, v) => s + v, 0)
  return `${name}: ${sum} wrong element${sum === 1 ? '' : 's'} in ${bad.length} of ${g.values.length} trials`
}

/**
 * Data errors of the `wrong` cells, as lines "KEY: B: 12 wrong elements in 2 of 6 trials";
 * each is also put on the cells of the same measurement (time, algbw, busbw) as `errors`.
 */
export function attachErrors(
  cells: DiffCell[],
  wrong: readonly { key: string; a: RowGroup | undefined; b: RowGroup | undefined }[],
): string[] {
  const lines: string[] = []
  const byKey = new Map<string, string[]>()
  for (const w of wrong) {
    const errs = [wrongLine('A', w.a), wrongLine('B', w.b)].filter((e): e is string => e !== undefined)
    if (errs.length === 0) continue
    for (const e of errs) lines.push(`${w.key}: ${e}`)
    byKey.set(w.key.replace(' metric=wrong', ''), errs)
  }
  if (byKey.size > 0)
    for (const c of cells) {
      const errs = byKey.get(c.key.replace(` metric=${c.metric}`, ''))
      if (errs) c.errors.push(...errs)
    }
  return lines
}

/** The statement of what the tests can say, made once before any cell. */
export function testingOf(cells: readonly DiffCell[], alpha: number, chosen?: readonly Metric[]): DiffTesting {
  const tested = cells.filter((c) => c.tested)
  const unreachable = new Map<string, { sizes: string; cells: number; minP: number }>()
  for (const c of tested) {
    if (c.reachable) continue
    const sizes = `${c.a.n}+${c.b.n}`
    const u = unreachable.get(sizes) ?? { sizes, cells: 0, minP: uTestMinP(c.a.n, c.b.n) }
    u.cells++
    unreachable.set(sizes, u)
  }
  const metrics = [...new Set(tested.map((c) => c.metric))]
  return {
    metrics: metrics.length > 0 ? metrics : [...(chosen ?? PRIMARY_METRICS)],
    cells: tested.length,
    expectedFalsePositives: tested.filter((c) => c.reachable).length * alpha,
    unreachable: [...unreachable.values()].sort((x, y) => y.cells - x.cells),
    minSamples: uTestMinN(alpha),
  }
}
