/** The decision as text: the step as measured, term by term, then the options ranked. */
import type { Decision } from './_decide.ts'
import type { StepPrediction } from './_step.ts'

const ms = (s: number): string => `${(s * 1e3).toFixed(1)} ms`
const tps = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1))

function pad(rows: string[][]): string[] {
  const w = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(w[i] as number)))
      .join('  ')
      .trimEnd(),
  )
}

const termsLine = (p: StepPrediction): string =>
  `${p.terms.map((t) => `${t.name} ${ms(t.seconds)}`).join(' + ')} = ${ms(p.step)}`

/** Renders a decision. */
export function renderDecision(d: Decision): string {
  const out: string[] = []
  const sim = d.simulated ? 'SIMULATED set: ' : ''
  out.push(
    `Decision: ${d.model.name} on ${d.gpu.name} (${d.gpuFrom}), batch ${d.batch}, context ${d.context}${d.dcp > 1 ? `, DCP ${d.dcp}` : ''}${d.mtp ? `, MTP ${d.mtp.accepted} of ${d.mtp.drafts} tokens per step` : ''}`,
  )
  const base = d.options.find((o) => o.name.startsWith('as measured'))
  if (base?.prediction) {
    out.push(`${sim}the step as measured: ${termsLine(base.prediction)} → ${tps(base.prediction.tokPerSec)} tok/s`)
    for (const t of base.prediction.terms) out.push(`  ${t.name}: ${t.from}`)
  }
  out.push('')
  const rows = [['option', 'tok/s', 'interval', 'step', 'comm', 'what changes']]
  for (const o of d.options) {
    const p = o.prediction
    const iv = o.interval ? `[${tps(o.interval.lo)}, ${tps(o.interval.hi)}]` : p ? 'no interval' : ''
    rows.push([o.name, p ? tps(p.tokPerSec) : 'n/a', iv, p ? ms(p.step) : '', p ? ms(p.comm) : '', o.change])
  }
  out.push(...pad(rows))
  out.push('', 'Each option rests on:')
  for (const o of d.options) out.push(`- ${o.name}: ${o.restsOn}${o.interval ? ` (interval: ${o.interval.how})` : ''}`)
  if (d.observed) {
    const ob = d.observed
    out.push(
      '',
      `Observed ${tps(ob.tokPerSec)} tok/s at batch ${d.batch}: a ${ms(ob.step)} step, of which the modelled communication is ${(ob.commShare * 100).toFixed(0)} %; with communication free: at most ${tps(ob.commFree)} tok/s (Amdahl).`,
    )
    for (const s of ob.scaled)
      out.push(`- ${s.name}: ${tps(s.tokPerSec)} tok/s (the observation × the modelled step ratio)`)
  }
  out.push('', ...d.notes.map((n) => `note: ${n}`))
  return `${out.join('\n')}\n`
}
