/**
 * SIMULATED, every preset × 3 seeds (issue 32): one band, one source. The band the report's
 * summary states for a floor (its words "within the published band LABEL (RANGE" or
 * "… from the edge of the published band LABEL (RANGE") is the band the latency chart of the
 * same fits draws, with the same numbers, and a chart draws at most one band per line: a chart
 * that shades another band than the text names (bare-metal TP8: text 24.1–26.2 µs, chart
 * ~45 µs) fails here. In-process: simulate, parse, analyze, build specs, no CLI.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { TopologyView } from '../../src/analysis/index.ts'
import { viewOfReport } from '../../src/analysis/index.ts'
import type { NamedChart } from '../../src/output/index.ts'
import { latencyCharts } from '../../src/output/index.ts'
import { summaryLines } from '../../src/output/report/_summary.ts'
import { presetNames, writeSimTopology } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'
import { parseRange, simSeed } from './sim-seed.ts'

const SEEDS = [1, 2, 3]

interface Drawn {
  label: string
  lo: number
  hi: number
}

/** A chart's bands as drawn (legend label without its line breaks, µs → s) and its line names. */
function drawnOf(c: NamedChart): { bands: Drawn[]; series: Set<string> } {
  const spec = JSON.stringify(c.spec)
  const bands = new Map<string, Drawn>()
  for (const m of spec.matchAll(/\{"band":"((?:[^"\\]|\\.)*)","lo":([\d.e+-]+)(?:,"hi":([\d.e+-]+))?\}/g)) {
    const label = JSON.parse(`"${m[1]}"`).replace(/\n/g, ' ')
    bands.set(label, { label, lo: Number(m[2]) * 1e-6, hi: Number(m[3] ?? m[2]) * 1e-6 })
  }
  const series = new Set([...spec.matchAll(/"series":"([^"]*)"/g)].map((m) => m[1] as string))
  return { bands: [...bands.values()], series }
}

/** The chart a summary line speaks of: the collective's, or the p2p chart holding its link class (P2P on first). */
function chartOf(line: string, charts: readonly NamedChart[]): NamedChart | undefined {
  const coll = /^(nccl\.\w+) on \d+ GPUs/.exec(line)
  if (coll) return charts.find((c) => c.name === `latency-${coll[1]?.replace(/\W+/g, '-')}`)
  const cls = /each \((\S+) pairs,/.exec(line)?.[1]
  const holds = (c: NamedChart): boolean => [...drawnOf(c).series].some((s) => s.startsWith(`${cls} (`))
  const p2p = charts.filter((c) => c.name.startsWith('latency-p2p-latency') && holds(c))
  return p2p.find((c) => c.name.includes('-p2p-enabled')) ?? p2p[0]
}

test(`SIMULATED: every preset × ${SEEDS.length} seeds, the summary's band is the band its chart draws`, async () => {
  let checked = 0
  for (const preset of presetNames()) {
    const report = await writeSimTopology(join(tmp('gpucomm-band-source-'), 'topology'), preset)
    const topology = viewOfReport(report, `SIMULATED ${preset} topology`) as TopologyView
    for (const seed of SEEDS) {
      const { rows, analysis } = simSeed(preset, seed, topology, [8, 512, 32768])
      const charts = latencyCharts(rows, analysis, { simulated: true })
      for (const c of charts) {
        const { bands, series } = drawnOf(c)
        // One band per line at most (the one its floor is stated against), never more.
        assert.ok(bands.length <= series.size, `${preset} seed ${seed} ${c.name}: ${bands.length} bands`)
      }
      for (const line of summaryLines(analysis, undefined, undefined)) {
        const m = /; (?:within|[+−]<?[\d.]+% from the edge of) the published band (.*?) \((\d[^,;)]*?)[,;)]/.exec(line)
        if (!m) continue
        const where = `${preset} seed ${seed}: ${line}`
        const chart = chartOf(line, charts)
        assert.ok(chart, `no chart for ${where}`)
        const [lo, hi] = parseRange(m[2] as string)
        const drawn = drawnOf(chart).bands.find((b) => b.label.startsWith(`${m[1]} (`))
        const names = drawnOf(chart).bands.map((b) => b.label)
        assert.ok(drawn, `${chart.name} draws [${names.join(' | ')}], not the stated band: ${where}`)
        // The printed range has 3–4 significant digits.
        assert.ok(
          Math.abs(drawn.lo / lo - 1) < 5e-3 && Math.abs(drawn.hi / hi - 1) < 5e-3,
          `${drawn.lo}–${drawn.hi} vs ${where}`,
        )
        checked++
      }
    }
  }
  console.log(`# ${checked} stated bands checked`)
  assert.ok(checked >= presetNames().length * SEEDS.length, String(checked))
})
