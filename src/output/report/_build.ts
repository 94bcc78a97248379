import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Comparison } from '../../analysis/index.ts'
import { analyze, compare, resolveModel } from '../../analysis/index.ts'
import type { DiffResult, DigestClasses } from '../../diff/index.ts'
import { diffTables, testingLines } from '../../diff/index.ts'
import type { Manifest } from '../../model/index.ts'
import { simPrefix } from '../../model/index.ts'
import type { ReadSet } from '../../resultset/index.ts'
import { loadSamples, rowCount } from '../../resultset/index.ts'
import { formatBytes } from '../../units/index.ts'
import type { NamedChart } from '../charts/index.ts'
import * as plot from '../charts/index.ts'
import { fleetSection } from './_fleet-section.ts'
import { floorSection, orDash, toReportChart } from './_floors.ts'
import type { Html, ReportPage, Section } from './_html.ts'
import { details, html, list, paragraphs, renderHtml, table } from './_html.ts'
import { busbwChartsOf, chartContext, linkClassesOf } from './_plot.ts'
import { summaryLines } from './_summary.ts'

/** Options of writeReport. */
export interface ReportOptions {
  out: string
  baseline?: string
  allowSim?: boolean
  /** Decode-model preset for the grouping section (default glm-5). */
  model?: string
  /** Called as each step of REPORT_STEPS starts (progress; the diff step only with a baseline). */
  onStage?: (name: string, index: number, total: number) => void
}

/** The steps of writing a report, in order. */
export const REPORT_STEPS = [
  'reading the set',
  'analysis',
  'groupings compared',
  'diff against the baseline',
  'charts',
  'writing the page',
] as const

/** Reports the start of a step to `onStage`, numbered among the steps this report takes. */
function stepper(opts: Omit<ReportOptions, 'out'>): (name: (typeof REPORT_STEPS)[number]) => void {
  const steps = REPORT_STEPS.filter((x) => opts.baseline || x !== 'diff against the baseline')
  return (name) => opts.onStage?.(name, steps.indexOf(name), steps.length)
}

const s = orDash

async function topologySection(dir: string): Promise<Section | undefined> {
  const capture = join(dir, 'topology')
  if (!existsSync(capture)) return undefined
  const { collectTopology } = await import('../../topology/index.ts')
  const t = await collectTopology({ from: capture })
  const findings = t.findings.map((f) => `[${f.id}] ${f.message}${f.reference ? ` (${f.reference})` : ''}`)
  const advice = t.groupings.slice(0, 4).map((g) => `${g.groups.map((x) => `{${x.join(',')}}`).join(' ')}: ${g.reason}`)
  return {
    id: 'topology',
    title: 'Topology verdict',
    body: html`${list(findings)}${advice.length ? html`<h3>Grouping advice</h3>${list(advice)}` : ''}`,
  }
}

function groupingSection(c: Comparison, charts: NamedChart[]): Section | undefined {
  const parts = [...groupingTables(c), ...(c.decode ? decodeParts(c.decode) : [])]
  return parts.length
    ? {
        id: 'groupings',
        title: 'Groupings compared',
        body: html`${parts}${c.warnings.length ? details(`${c.warnings.length} warnings`, list(c.warnings)) : ''}`,
        charts: charts.map(toReportChart),
      }
    : undefined
}

/** Per bench with more than one grouping: the median per size and grouping, the winner and the ratio (collapsed). */
function groupingTables(c: Comparison): Html[] {
  return c.benches
    .filter((x) => x.groupings.length > 1)
    .map((b) => {
      const rows = b.sizes.map((z) => [
        formatBytes(z.sizeBytes),
        ...b.groupings.map((g) => s(z.groupings.find((x) => x.grouping === g)?.median)),
        z.winner ?? '–',
        z.ratio ? `${z.ratio.toFixed(2)}×` : '–',
      ])
      return html`<h3>${b.bench}</h3>${details(
        `${b.bench}: median per size and grouping, ${rows.length} sizes`,
        table(['size', ...b.groupings, 'winner', 'ratio'], rows),
      )}`
    })
}

/** The decode model: its all-reduces per step, the plans' communication per step, the p2p readings, its notes. */
function decodeParts(d: NonNullable<Comparison['decode']>): Html[] {
  const parts: Html[] = [
    html`<h3>Decode model: ${d.model.name}</h3>`,
    paragraphs([
      `${d.allreducesPerStep} all-reduces per step of ${formatBytes(d.payloadBytes)} each (` +
        `${d.model.layers} layers × ${d.model.allreducesPerLayer}, batch ${d.model.batch}, hidden ` +
        `${d.model.hidden}, ${d.model.dtypeBytes} B/element; ${d.model.source}).`,
    ]),
    table(
      ['plan', 'grouping', 'all-reduce', 'from', 'pipeline send/recv', 'comm per step', 'comm-only tok/s ceiling'],
      d.plans.map((p) => [
        p.plan,
        p.grouping ?? '–',
        s(p.allreduceTime),
        p.allreduceFrom,
        `${p.sendRecvs} × ${s(p.sendRecvTime)}`,
        s(p.commTime),
        p.tokPerSec ? p.tokPerSec.toFixed(0) : '–',
      ]),
    ),
  ]
  if (d.p2pReadings)
    parts.push(
      paragraphs([
        `From the p2p floor ${s(d.p2pReadings.alpha)}: the data supports the ` +
          `${d.p2pReadings.supported} reading. ${d.p2pReadings.why}`,
      ]),
      table(
        ['reading', 'formula', 'TP8 step', 'TP4 step'],
        d.p2pReadings.readings.map((r) => [r.reading, r.formula, s(r.tp8.step), s(r.tp4.step)]),
      ),
    )
  parts.push(paragraphs(d.notes))
  return parts
}

function diffSection(d: DiffResult, charts: NamedChart[]): Section {
  // The diff's own tables (one per bench and metric, human units), as `gpucomm diff` prints them.
  // Collapsed: the answer is in the summary and the chart; thousands of rows follow on request.
  const tables = diffTables(d).map((t) =>
    details(`${t.heading}: ${t.lines.length} rows`, html`<h3>${t.heading}</h3>${table(t.header, t.lines)}`),
  )
  const only =
    d.onlyA.length + d.onlyB.length
      ? paragraphs([`${d.onlyA.length} cells only in the baseline, ${d.onlyB.length} only in this set.`])
      : undefined
  return {
    id: 'diff',
    title: `Change against the baseline ${d.a.dir}`,
    body: html`${paragraphs([`A = the baseline, B = this set. ${testingLines(d)[0]}`])}${tables}${only}`,
    charts: charts.map(toReportChart),
  }
}

function provenanceSection(m: Manifest, set: ReadSet): Section {
  const facts: [string, unknown][] = [
    ['result set', m.id],
    ['created', m.created],
    ['origin', m.origin],
    ['simulated', m.simulated],
    ['rows', rowCount(set)],
    ['instrument', m.instrument ? `${m.instrument.name} ${m.instrument.version ?? ''}` : '–'],
    ['gpucomm', m.gpucommVersion],
    ['command', m.command.join(' ')],
  ]
  for (const [k, v] of Object.entries(m.host ?? {}))
    facts.push([`host.${k}`, typeof v === 'string' ? v : JSON.stringify(v)])
  const sources = (m.sources ?? []).map((f) => [f.path, f.format, f.sha256.slice(0, 16), f.rows])
  return {
    id: 'provenance',
    title: 'Provenance',
    body: html`${table(['fact', 'value'], facts)}${
      sources.length ? table(['source', 'format', 'sha256 (16)', 'rows'], sources) : ''
    }${set.diagnostics.length ? list(set.diagnostics.map((d) => d.message)) : ''}`,
  }
}

/** Without a baseline, the charts that answer first: the p2p latency floors (P2P on first) and the groupings. */
function leadCharts(floors: NamedChart[], groups: NamedChart[]): NamedChart[] {
  const p2p = floors.filter((x) => x.name.startsWith('latency-p2p-latency'))
  const first = p2p.find((x) => x.name.includes('p2p-enabled')) ?? p2p[0] ?? floors[0]
  return [first, groups.find((x) => x.kind === 'groups')].filter((x): x is NamedChart => x !== undefined)
}

/** Builds the report page of a result set (and, with a baseline, the diff against it). */
export async function buildReport(dir: string, opts: Omit<ReportOptions, 'out'> = {}): Promise<ReportPage> {
  // Rows replayed from 12 bytes each (loadSamples): memory holds the values, not row objects.
  stepper(opts)('reading the set')
  return reportPage(await loadSamples(dir), opts)
}

/** The report page of a set read one way or another (rows in memory, or replayed). */
export async function reportPage(set: ReadSet, opts: Omit<ReportOptions, 'out'> = {}): Promise<ReportPage> {
  const dir = set.dir
  const ctx = chartContext(set)
  const step = stepper(opts)
  step('analysis')
  const a = await analyze(set)
  const model = resolveModel(opts.model ?? 'glm-5')
  step('groupings compared')
  const c = await compare(set, { by: 'grouping', ...(model ? { model } : {}) })
  let d: DiffResult | undefined
  let classes: DigestClasses = {}
  if (opts.baseline) {
    step('diff against the baseline')
    const { diffSets } = await import('../../diff/index.ts')
    const base = await loadSamples(opts.baseline)
    d = diffSets(base, set, { allowSim: opts.allowSim ?? false })
    classes = await linkClassesOf(base, set)
  }
  step('charts')
  const floorCharts = [...plot.latencyCharts(set.rows, a, ctx), ...plot.heatmapCharts(a, ctx)]
  const groupCharts = [...plot.groupsCharts(c, ctx), ...(await busbwChartsOf(set, ctx))]
  const changeCharts = d ? plot.diffCharts(d, { ...ctx, simulated: d.simulated }, classes) : []
  // The charts that answer the question open the report beside the summary: the change against
  // the baseline when there is one; otherwise the p2p floors and the groupings compared.
  const lead = d ? changeCharts : leadCharts(floorCharts, groupCharts)
  const rest = (cs: NamedChart[]): NamedChart[] => cs.filter((x) => !lead.includes(x))
  const sections: Section[] = []
  const summary = summaryLines(a, c, d, classes)
  if (summary.length)
    sections.push({
      id: 'summary',
      title: 'Summary',
      body: html`<ol class="summary">${summary.map((l) => html`<li>${l}</li>`)}</ol>`,
      charts: lead.map(toReportChart),
    })
  const topo = await topologySection(dir)
  if (topo) sections.push(topo)
  if (a.fleet) sections.push(fleetSection(a.fleet, ctx))
  sections.push(floorSection(a, rest(floorCharts)))
  const g = groupingSection(c, rest(groupCharts))
  if (g) sections.push(g)
  if (d) sections.push(diffSection(d, rest(changeCharts)))
  sections.push(provenanceSection(set.manifest, set))
  const host = set.manifest.host?.hostname
  return {
    title: `${simPrefix(set.manifest)}gpucomm report: ` + `${host ? `${host}, ` : ''}result set ${set.manifest.id}`,
    simulated: set.manifest.simulated,
    generated: new Date().toISOString(),
    sections,
  }
}

/** Writes the self-contained HTML report of a result set; returns its path. */
export async function writeReport(dir: string, opts: ReportOptions): Promise<string> {
  const page = await buildReport(dir, opts)
  stepper(opts)('writing the page')
  // Temp file, then rename: a link at the page's path is replaced, never written through.
  const tmp = `${opts.out}.${process.pid}.tmp`
  writeFileSync(tmp, renderHtml(page), { flag: 'wx' })
  renameSync(tmp, opts.out)
  return opts.out
}
