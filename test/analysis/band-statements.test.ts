/**
 * SIMULATED, every preset × 10 seeds (issue 30 item 8): no band statement contradicts its
 * number. The words of each verdict's band clause ("within", "… from the edge of (within
 * tolerance)", "× the top of", "× below") and of the report summary's floor lines ("within the
 * published band", "… from the edge of the published band", "outside the published bands
 * (nearest …, ±x%)") are read back from the text and held against the floor and the band's
 * published numbers by plain arithmetic. In-process: simulate, parse, analyze, no CLI.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Fit, TopologyView } from '../../src/analysis/index.ts'
import { bandById, viewOfReport } from '../../src/analysis/index.ts'
import { summaryLines } from '../../src/output/report/_summary.ts'
import { presetNames, writeSimTopology } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'
import { parseRange, parseSeconds, simSeed } from './sim-seed.ts'

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1)
const TOL = 0.1
/** Printed numbers have 3–4 significant digits: an edge may print equal to the value. */
const SLACK = 1e-3

/** The verdict's words for each band compared at the floor, against the floor and the band's numbers. */
function checkVerdict(f: Fit, where: string): number {
  let n = 0
  for (const c of f.cited) {
    if (c.compared !== 'floor α') continue
    const b = bandById(c.id)
    assert.ok(b, c.id)
    const at = f.verdict.indexOf(`'${c.label}' (${c.range}`)
    if (at < 0) continue // not shown (an outside match when another band holds the floor)
    const head = f.verdict.slice(0, at)
    const words = head.slice(Math.max(head.lastIndexOf('; ') + 2, head.lastIndexOf('bands: ') + 7))
    const v = f.alpha
    const what = `${where} ${f.src ?? f.group}→${f.dst ?? ''} ${f.bench} p2p=${f.p2p} ${v} vs ${b.low}–${b.high}: '${words}'`
    if (/^(nearest published: |NCCL's model: )?within $/.test(words)) assert.ok(v >= b.low && v <= b.high, what)
    else if (/from the edge of \(within tolerance\) $/.test(words)) {
      assert.ok(v < b.low || v > b.high, what)
      assert.ok(v >= b.low * (1 - TOL) - 1e-15 && v <= b.high * (1 + TOL) + 1e-15, what)
      assert.ok(words.includes(v > b.high ? '+' : '−'), what)
      assert.doesNotMatch(words, /[+−]0(\.0+)? %/, what)
    } else if (/× the top of $/.test(words)) assert.ok(v > b.high, what)
    else if (/× below $/.test(words)) assert.ok(v < b.low, what)
    else if (/from the edge \(its CI reaches\) of $/.test(words)) assert.ok(v < b.low || v > b.high, what)
    else assert.fail(`unrecognised band words: ${what}`)
    n++
  }
  return n
}

/** The summary's floor lines: the stated number against the stated band. */
function checkSummary(lines: readonly string[], where: string): number {
  let n = 0
  for (const l of lines) {
    const m = /(?:cost (\S+ \S+) each|starts at (\S+ \S+) \(floor α\))/.exec(l)
    if (!m || /compared at its/.test(l)) continue
    const v = parseSeconds((m[1] ?? m[2]) as string)
    const inside = /; within the published band .*? \((\d[^,;)]*?)(?:[,;)])/.exec(l)
    const edge = /; ([+−])(<?[\d.]+)% from the edge of the published band .*? \((\d[^,;)]*?)[,;)]/.exec(l)
    const out = /; outside the published bands \(nearest: .*?, (\d[^,;)]*?), ([+−]?)(<?[\d.]+)%/.exec(l)
    const what = `${where}: ${l}`
    if (inside) {
      const [lo, hi] = parseRange(inside[1] as string)
      assert.ok(v >= lo * (1 - SLACK) && v <= hi * (1 + SLACK), what)
    } else if (edge) {
      const [lo, hi] = parseRange(edge[3] as string)
      assert.ok(v <= lo * (1 + SLACK) || v >= hi * (1 - SLACK), what)
      assert.ok(v >= lo * (1 - TOL - SLACK) && v <= hi * (1 + TOL + SLACK), what)
      assert.equal(edge[1], v > hi ? '+' : '−', what)
    } else if (out) {
      const [lo, hi] = parseRange(out[1] as string)
      assert.ok(v < lo * (1 - TOL + SLACK) || v > hi * (1 + TOL - SLACK), what)
      assert.equal(out[2], v > hi ? '+' : '−', what)
      assert.notEqual(Number(out[3]), 0, what)
    } else continue
    n++
  }
  return n
}

test(`SIMULATED: every preset × ${SEEDS.length} seeds, no band statement (verdicts, report summary) contradicts its number`, async () => {
  let verdicts = 0
  let summaries = 0
  for (const preset of presetNames()) {
    const report = await writeSimTopology(join(tmp('gpucomm-band-words-'), 'topology'), preset)
    const topology = viewOfReport(report, `SIMULATED ${preset} topology`) as TopologyView
    for (const seed of SEEDS) {
      const a = simSeed(preset, seed, topology).analysis
      for (const f of a.fits) verdicts += checkVerdict(f, `${preset} seed ${seed}`)
      summaries += checkSummary(summaryLines(a, undefined, undefined), `${preset} seed ${seed}`)
    }
  }
  // Enough statements were read back for the property to mean something.
  assert.ok(verdicts > 1000, String(verdicts))
  assert.ok(summaries >= presetNames().length * SEEDS.length, String(summaries))
})
