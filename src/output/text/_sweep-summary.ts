import type { Manifest, Row } from '../../model/index.ts'
import { rowArm, simPrefix } from '../../model/index.ts'
import type { NoEffectFlag } from '../../nccl-log/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import { formatBytes, formatRate, formatSeconds } from '../../units/index.ts'

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

/** The question a sweep answers and the answer (numbers and mechanism), from the analysis of the set. */
export interface SweepHeadline {
  question: string
  answer: string[]
  /** One line per class of fits: its floor against the published band it is stated against. */
  bands?: string[]
}

/** At most this many band lines close a sweep; the rest are in `gpucomm analyze` and the report. */
const BAND_LINES = 12

/**
 * A sweep's closing summary, answer first: the outcome of its points; the question and its
 * answer (the analysis' sentences when given, else the small-copy latency across pairs and the
 * collectives' groupings compared); then the measurements themselves (p2p latency and
 * bandwidth across pairs, each collective's small-message time and large-message bus bandwidth
 * per grouping), env axes that made no visible difference, and the adaptive trials.
 */
export function summarizeSweep(
  m: Manifest,
  rows: readonly Row[],
  noEffect: readonly NoEffectFlag[] = [],
  headline?: SweepHeadline,
): string[] {
  const total = Object.keys(m.outcomes ?? {}).length
  const head =
    `${simPrefix(m)}sweep (${m.instrument?.name ?? '?'}` +
    `${m.instrument?.version ? `, ${m.instrument.version}` : ''}): ${total} points: ` +
    `${outcomeCounts(m)}`
  const p2p = perArm(rows, p2pLines)
  const coll = perArm(rows, collectiveLines)
  const answer = headline ?? {
    question: 'What does moving data between these GPUs cost?',
    answer: [p2p[0], groupingSentence(rows)].filter((x): x is string => x !== undefined),
  }
  const details = [...p2p, ...coll]
  for (const f of noEffect)
    details.push(`no visible effect: ${f.axis}=${f.values.join(',')} on ${f.bench} ${f.grouping} (${f.detail})`)
  const adaptive = adaptiveLine(m)
  if (adaptive) details.push(adaptive)
  const lines = [head]
  if (answer.answer.length) lines.push(answer.question, ...answer.answer.map((l) => `  ${l}`))
  if (details.length) lines.push('Measured:', ...details.map((l) => `  ${l}`))
  const bands = headline?.bands ?? []
  if (bands.length) {
    lines.push('Floors against the published bands:', ...bands.slice(0, BAND_LINES).map((l) => `  ${l}`))
    if (bands.length > BAND_LINES)
      lines.push(`  … ${bands.length - BAND_LINES} more classes: gpucomm analyze of the result set, and the report`)
  }
  return lines
}

/** `lines` of each arm on its own, each line saying its arm: a median over arms is a value no arm has. */
function perArm(rows: readonly Row[], lines: (rows: readonly Row[]) => string[]): string[] {
  const arms = new Map<string, Row[]>()
  for (const r of rows) {
    const a = rowArm(r)
    const list = arms.get(a)
    if (list) list.push(r)
    else arms.set(a, [r])
  }
  if (arms.size <= 1) return lines(rows)
  return [...arms].flatMap(([arm, rs]) => lines(rs).map((l) => `[${arm || 'no env or host axis'}] ${l}`))
}

/** The groupings of the first collective compared at its smallest size: "nccl.all_reduce at 8 B: tp4 1.91× faster than tp8 (20.02 µs vs 38.26 µs)". */
function groupingSentence(rows: readonly Row[]): string | undefined {
  const t = collectiveTimes(rows)[0]
  if (!t || t.times.length < 2) return undefined
  const sorted = [...t.times].sort((x, y) => x.s - y.s)
  const best = sorted[0] as { g: string; s: number }
  const worst = sorted[sorted.length - 1] as { g: string; s: number }
  return (
    `${t.bench} at ${formatBytes(t.size)}: ${best.g} ${(worst.s / best.s).toFixed(2)}× faster than ${worst.g} ` +
    `(${formatSeconds(best.s)} vs ${formatSeconds(worst.s)})`
  )
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

/** Per collective: the median time per grouping at its smallest size, the median busbw at its largest. */
interface CollectiveAtEnds {
  bench: string
  size: number
  times: { g: string; s: number }[]
  bwSize: number
  bws: { g: string; bps: number }[]
}

function collectiveTimes(rows: readonly Row[]): CollectiveAtEnds[] {
  const coll = rows.filter(
    (r) =>
      r.bench.startsWith('nccl.') && r.grouping !== undefined && r.placement !== 'in-place' && r.sizeBytes !== null,
  )
  return [...new Set(coll.map((r) => r.bench))].map((bench) => {
    const b = coll.filter((r) => r.bench === bench)
    const groupings = [...new Set(b.map((r) => r.grouping as string))]
    const sizes = b.map((r) => r.sizeBytes as number)
    const lo = Math.min(...sizes)
    const hi = Math.max(...sizes)
    const at = (g: string, size: number, metric: string): number[] =>
      b.filter((r) => r.grouping === g && r.sizeBytes === size && r.metric === metric).map((r) => r.value)
    const med = (v: number[]): number => medianOf(sortSample(v))
    return {
      bench,
      size: lo,
      times: groupings
        .map((g) => ({ g, v: at(g, lo, 'time') }))
        .filter((x) => x.v.length)
        .map((x) => ({ g: x.g, s: med(x.v) })),
      bwSize: hi,
      bws: groupings
        .map((g) => ({ g, v: at(g, hi, 'busbw') }))
        .filter((x) => x.v.length)
        .map((x) => ({ g: x.g, bps: med(x.v) })),
    }
  })
}

function collectiveLines(rows: readonly Row[]): string[] {
  const out: string[] = []
  for (const c of collectiveTimes(rows)) {
    if (c.times.length)
      out.push(
        `${c.bench} time at ${formatBytes(c.size)}: ${c.times.map((x) => `${x.g} ${formatSeconds(x.s)}`).join(' · ')}`,
      )
    if (c.bws.length)
      out.push(
        `${c.bench} busbw at ${formatBytes(c.bwSize)}: ${c.bws.map((x) => `${x.g} ${formatRate(x.bps)}`).join(' · ')}`,
      )
  }
  return out
}
