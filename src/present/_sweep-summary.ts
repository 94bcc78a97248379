import type { Manifest, Row } from '../model/index.ts'
import type { NoEffectFlag } from '../nccl-log/index.ts'
import { medianOf, sortSample } from '../stats/index.ts'
import { formatBytes, formatRate, formatSeconds } from '../units/index.ts'

/** Counts of point outcomes, e.g. "12 ok, 1 hung". */
export function outcomeCounts(m: Manifest): string {
  const c: Record<string, number> = {}
  for (const o of Object.values(m.outcomes ?? {})) c[o.status] = (c[o.status] ?? 0) + 1
  return (
    Object.entries(c)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ') || 'no points'
  )
}

/**
 * A short text summary of a sweep's result set: outcomes, the p2p latency and bandwidth
 * across pairs, and each collective's small-message time and large-message bus bandwidth
 * per grouping (TP8 beside TP4), then env axes that made no visible difference.
 */
export function summarizeSweep(m: Manifest, rows: readonly Row[], noEffect: readonly NoEffectFlag[] = []): string[] {
  const total = Object.keys(m.outcomes ?? {}).length
  const lines = [
    `${m.simulated ? 'SIMULATED ' : ''}sweep (${m.instrument?.name ?? '?'}` +
      `${m.instrument?.version ? `, ${m.instrument.version}` : ''}): ${total} points: ` +
      `${outcomeCounts(m)}`,
  ]
  lines.push(...p2pLines(rows), ...collectiveLines(rows))
  for (const f of noEffect)
    lines.push(`no visible effect: ${f.axis}=${f.values.join(',')} on ${f.bench} ${f.grouping} (${f.detail})`)
  const adaptive = adaptiveLine(m)
  if (adaptive) lines.push(adaptive)
  return lines
}

/** --target-ci: how many trials the configurations took and how many met the target. */
function adaptiveLine(m: Manifest): string | undefined {
  const x = m.extra?.sweep as
    | { spec?: { adaptive?: { targetCiPct: number } }; adaptive?: Record<string, { trials: number; reached: boolean }> }
    | undefined
  const target = x?.spec?.adaptive?.targetCiPct
  const per = Object.values(x?.adaptive ?? {})
  if (target === undefined || per.length === 0) return undefined
  const trials = per.reduce((a, c) => a + c.trials, 0)
  const reached = per.filter((c) => c.reached).length
  return (
    `adaptive (±${target} % median CI): ${trials} launches over ${per.length} configurations (` +
    `${(trials / per.length).toFixed(1)} each); target met by ${reached} of ${per.length}`
  )
}

function p2pLines(rows: readonly Row[]): string[] {
  const cross = rows.filter(
    (r) => r.src !== null && r.dst !== null && r.src !== r.dst && r.p2p !== 'disabled' && (r.copy ?? 'ce') === 'ce',
  )
  const out: string[] = []
  const lat = cross.filter((r) => r.bench === 'p2p.latency' && r.timer !== 'cpu')
  const smallest = Math.min(...lat.map((r) => r.sizeBytes ?? 0))
  const latAt = lat.filter((r) => (r.sizeBytes ?? 0) === smallest)
  if (latAt.length) {
    const per = pairMedians(latAt)
    out.push(
      `p2p latency (${per.length} pairs${smallest ? `, ${formatBytes(smallest)}` : ''}): median ` +
        `${formatSeconds(medianOf(sortSample(per)))} (pairs range ` +
        `${formatSeconds(Math.min(...per))} – ${formatSeconds(Math.max(...per))})`,
    )
  }
  const bw = cross.filter((r) => r.bench === 'p2p.bw_uni')
  const largest = Math.max(...bw.map((r) => r.sizeBytes ?? 0))
  const bwAt = bw.filter((r) => (r.sizeBytes ?? 0) === largest)
  if (bwAt.length) {
    const per = pairMedians(bwAt)
    out.push(
      `p2p unidirectional bandwidth (${per.length} pairs): median ` +
        `${formatRate(medianOf(sortSample(per)))} (pairs range ${formatRate(Math.min(...per))} – ` +
        `${formatRate(Math.max(...per))})`,
    )
  }
  return out
}

function pairMedians(rows: readonly Row[]): number[] {
  const by = new Map<string, number[]>()
  for (const r of rows) by.set(`${r.src}>${r.dst}`, [...(by.get(`${r.src}>${r.dst}`) ?? []), r.value])
  return [...by.values()].map((v) => medianOf(sortSample(v)))
}

function collectiveLines(rows: readonly Row[]): string[] {
  const coll = rows.filter(
    (r) =>
      r.bench.startsWith('nccl.') && r.grouping !== undefined && r.placement !== 'in-place' && r.sizeBytes !== null,
  )
  const out: string[] = []
  for (const bench of [...new Set(coll.map((r) => r.bench))]) {
    const b = coll.filter((r) => r.bench === bench)
    const groupings = [...new Set(b.map((r) => r.grouping as string))]
    const sizes = b.map((r) => r.sizeBytes as number)
    const lo = Math.min(...sizes)
    const hi = Math.max(...sizes)
    const at = (g: string, size: number, metric: string): number[] =>
      b.filter((r) => r.grouping === g && r.sizeBytes === size && r.metric === metric).map((r) => r.value)
    const t = groupings.map((g) => ({ g, v: at(g, lo, 'time') })).filter((x) => x.v.length)
    if (t.length)
      out.push(
        `${bench} time at ${formatBytes(lo)}: ` +
          `${t.map((x) => `${x.g} ${formatSeconds(medianOf(sortSample(x.v)))}`).join(' · ')}`,
      )
    const bw = groupings.map((g) => ({ g, v: at(g, hi, 'busbw') })).filter((x) => x.v.length)
    if (bw.length)
      out.push(
        `${bench} busbw at ${formatBytes(hi)}: ` +
          `${bw.map((x) => `${x.g} ${formatRate(medianOf(sortSample(x.v)))}`).join(' · ')}`,
      )
  }
  return out
}
