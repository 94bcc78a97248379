/** Human text of an Analysis and a Comparison (the CLI prints these without --json). */
import { simPrefix } from '../model/index.ts'
import { renderTable } from '../text/index.ts'
import { formatBytes, formatRate, formatSeconds } from '../units/index.ts'
import type { Analysis, Comparison, DecodeModel, Fit, GroupingStat } from './_types.ts'
import { combinedNote } from './compare/_compare-format.ts'
import { FEW_LAUNCHES } from './fit/_bootstrap.ts'
import type { Fleet } from './fleet/_fleet.ts'
import { fleetHeading, launchLines, outlierLines, scalingTable } from './fleet/_fleet-text.ts'
import { alphaCiText, subjectOf } from './verdict/_verdict.ts'

const s = formatSeconds
const ci = (c: [number | null, number | null]): string =>
  `[${c[0] === null ? '-∞' : s(c[0])}, ${c[1] === null ? '∞' : s(c[1])}]`
const head = (set: { simulated: boolean; simScale?: number }, what: string, id: string, dir: string): string =>
  `${simPrefix(set)}${what} of result set ${id} (${dir})\n`

function fitLine(f: Fit): string[] {
  return [
    subjectOf(f),
    f.mechanism.id,
    f.linkClass ?? '-',
    s(f.alpha),
    f.alphaCi[0] === f.alphaCi[1] ? alphaCiText(f) : ci(f.alphaCi),
    f.beta === null ? '-' : formatRate(f.beta),
    String(f.segments.length),
    f.bands.join(' ') || '-',
  ]
}

/** Verdicts with pairs alike (same bench, P2P mode, class and bands) folded into one line. */
function foldedVerdicts(a: Analysis): string[] {
  const seen = new Map<string, { text: string; more: number }>()
  for (const f of a.fits) {
    const k =
      f.src !== undefined
        ? `${f.bench}|${f.p2p}|${f.peerAccess}|${f.linkClass}|${f.src === f.dst}|${f.mechanism.text}|` +
          `${f.bands.join()}|${f.conflicts.length}|${JSON.stringify(f.env)}|${JSON.stringify(f.hostAxis)}`
        : `${f.bench}|${f.group}|${f.ranks}|${f.grouping}|${JSON.stringify(f.env)}|${JSON.stringify(f.hostAxis)}`
    const e = seen.get(k)
    if (e) e.more++
    else seen.set(k, { text: f.verdict, more: 0 })
  }
  return [...seen.values()].map((e) => `- ${e.text}${e.more ? ` (and ${e.more} more alike)` : ''}`)
}

/**
 * Said once under the fits table when a fit's α CI comes from 2–5 launches: that interval is
 * only roughly calibrated. Measured on the simulator (seed-vm, 50 sets, bench/_alpha-study.ts):
 * same-GPU pairs 76 % at 2 launches, 84 % at 3, 92 % at 4, 91 % at 5, 94.5 % at 6.
 */
export function fewLaunchesNote(fits: readonly Pick<Fit, 'launches'>[]): string | null {
  const few = [...new Set(fits.map((f) => f.launches ?? 0).filter((n) => n >= 2 && n < FEW_LAUNCHES))]
  if (few.length === 0) return null
  const n = few.sort((x, y) => x - y).join(', ')
  return (
    `α CI from ${n} launches is approximate: on the simulator such intervals held the true α ` +
    `in 76 % (2 launches) to 92 % (4) of same-GPU pairs, not 95 %; ${FEW_LAUNCHES} or more launches for a calibrated one`
  )
}

/** The `analyze` text: fits table, verdicts (alike pairs folded), classes, outliers and notes. */
export function renderAnalysis(a: Analysis): string {
  let out = head(a, 'analysis', a.id, a.dir)
  out += `\nα–β fits (time = α + size/β; α 95% bootstrap CI; topology: ${a.topology.note})\n`
  out += renderTable(['subject', 'mechanism', 'link', 'α (floor)', 'α CI', 'β', 'segs', 'bands'], a.fits.map(fitLine))
  const few = fewLaunchesNote(a.fits)
  if (few) out += `${few}\n`
  return out + verdictSections(a)
}

/** The parts of the `analyze` text after the fits: verdicts (alike pairs folded), classes, fleet, notes, warnings. */
export function verdictSections(a: Analysis): string {
  let out = `\nVerdicts\n${foldedVerdicts(a).join('\n')}\n`
  const other = a.verdicts.filter((v) => v.kind === 'class' || v.kind === 'outlier')
  if (other.length) out += `\nBy link class\n${other.map((v) => `- ${v.subject}: ${v.text}`).join('\n')}\n`
  if (a.fleet) out += fleetText(a.fleet)
  if (a.notes.length) out += `\nNotes\n${a.notes.map((n) => `- ${n}`).join('\n')}\n`
  if (a.warnings.length) out += `\nWarnings\n${a.warnings.map((w) => `- ${w}`).join('\n')}\n`
  return out
}

/** The fleet part: outliers with their mechanism, scaling against NCCL's model, notes. */
function fleetText(f: Fleet): string {
  let out = `\n${fleetHeading(f)}${f.pairs.length ? ' (node × node bandwidth: gpucomm plot DIR --kind node-heatmap)' : ''}\n`
  out += launchLines(f)
    .map((l) => `- ${l}\n`)
    .join('')
  out += `Outliers\n${outlierLines(f)
    .map((l) => `- ${l}`)
    .join('\n')}\n`
  const t = scalingTable(f)
  if (t.rows.length)
    out += `\nScaling: all_reduce against NCCL's model (gap = measured / model − 1)\n${renderTable(t.header, t.rows)}`
  if (f.notes.length) out += f.notes.map((n) => `- ${n}\n`).join('')
  return out
}

const cell = (g: GroupingStat | undefined): string => (g ? `${s(g.median)} ${ci(g.ci)} n=${g.n}` : '-')

export function decodeText(d: DecodeModel): string {
  const m = d.model
  let out =
    `\nDecode model: ${m.name} (${m.layers} layers, hidden ${m.hidden}, ` +
    `${m.dtypeBytes} B/elem, batch ${m.batch}, ${m.allreducesPerLayer} all-reduces/layer)\n`
  out += `payload ${formatBytes(d.payloadBytes)} per all-reduce, ${d.allreducesPerStep} all-reduces per step\n`
  out += renderTable(
    ['plan', 'grouping', 'all-reduce', 'from', 'send/recv', 'comm/step', 'tok/s ceiling'],
    d.plans.map((p) => [
      p.plan,
      p.grouping ?? '-',
      p.allreduceTime === null ? '-' : s(p.allreduceTime),
      p.allreduceFrom,
      p.sendRecvs ? `${p.sendRecvs}× ${p.sendRecvTime === null ? '?' : s(p.sendRecvTime)}` : '-',
      p.commTime === null ? '-' : s(p.commTime),
      p.tokPerSec === null ? '-' : p.tokPerSec.toFixed(0),
    ]),
  )
  const r = d.p2pReadings
  if (r) {
    out += `\nFrom the p2p floor α = ${s(r.alpha)} (${r.readings.length === 1 ? 'one reading' : 'two readings'}; docs/REFERENCE.md, decode model):\n`
    for (const x of r.readings)
      out +=
        `- ${x.reading}: ${x.formula}: TP8 ${s(x.tp8.allreduce)} → ${s(x.tp8.step)}/step, ` +
        `${x.tp8.tokPerSec.toFixed(0)} tok/s; TP4 ${s(x.tp4.allreduce)} → ${s(x.tp4.step)}/step, ` +
        `${x.tp4.tokPerSec.toFixed(0)} tok/s\n`
    out += `- the data supports: ${r.supported} (${r.why})\n`
  }
  return out + d.notes.map((n) => `- ${n}\n`).join('')
}

/** The `compare` text: one table per bench (median ± CI per value of the axis) and its conclusions, then the decode model. */
export function renderComparison(c: Comparison): string {
  let out = head(c, `comparison by ${c.by}`, c.id, c.dir)
  const note = combinedNote(c)
  if (note) out += `${note}\n`
  for (const b of c.benches) {
    out += `\n${b.bench} (time per call; median [95% CI])\n`
    const lines = b.sizes.map((z) => [
      formatBytes(z.sizeBytes),
      ...b.groupings.map((g) => cell(z.groupings.find((x) => x.grouping === g))),
      z.ratio === null ? '-' : `${z.ratio.toFixed(2)}×`,
      z.winner ?? '-',
      z.p === null ? '-' : z.p.toPrecision(2),
    ])
    out += renderTable(['size', ...b.groupings, 'ratio', 'winner', 'p'], lines)
    if (b.conclusions.length) out += `\n${b.conclusions.map((x) => `${x.text}\n`).join('')}`
  }
  if (c.decode) out += decodeText(c.decode)
  if (c.warnings.length) out += `\nWarnings\n${c.warnings.map((w) => `- ${w}`).join('\n')}\n`
  return out
}
