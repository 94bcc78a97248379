/**
 * Parser fuzzing at scale (`npm run bench -- --only fuzz`): 100,000 mutated inputs per parser
 * (engine: test/fuzz.ts; npm test runs 10,000), lines grown to 20,000 columns or 1 MB.
 * Budgets: 0 throws or invalid rows or unbounded metas; no input over 1 s; peak RSS growth
 * under 256 MB per MB of the largest input.
 */
import { performance } from 'node:perf_hooks'
import { PARSERS } from '../src/parsers/index.ts'
import { makeCase, runCase } from '../test/fuzz.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

const SCALE = { maxColumns: 20_000, maxLineChars: 1024 * 1024 }

export async function fuzzBench(cases = 100_000): Promise<Metric[]> {
  const rss0 = process.memoryUsage().rss
  let failures = 0
  let slowestMs = 0
  let slowestAt = ''
  const perParser: Metric[] = []
  let largest = 0
  let total = 0
  const t0 = performance.now()
  for (const [pi, p] of PARSERS.entries()) {
    let mine = 0
    let mineAt = 0
    const p0 = performance.now()
    for (let c = 0; c < cases; c++) {
      const k = makeCase(pi, c, SCALE)
      try {
        const cost = runCase(p, k.lines, k.trial)
        largest = Math.max(largest, cost.bytes)
        if (cost.ms > slowestMs) [slowestMs, slowestAt] = [cost.ms, `${p.id} seed ${k.seed}`]
        if (cost.ms > mine) [mine, mineAt] = [cost.ms, k.seed]
      } catch (e) {
        if (failures++ < 5) process.stderr.write(`fuzz: ${p.id} seed ${k.seed} (${k.name}): ${(e as Error).message}\n`)
      }
      total++
    }
    perParser.push({
      metric: `fuzz: slowest ${p.id} input`,
      value: round(mine),
      unit: 'ms',
      note: `seed ${mineAt}; ${cases} inputs in ${round((performance.now() - p0) / 1000)} s`,
    })
  }
  const wallS = (performance.now() - t0) / 1000
  const peakMB = (process.resourceUsage().maxRSS * 1024 - rss0) / 1e6
  const perMB = peakMB / Math.max(largest / 1e6, 1e-6)
  return [
    { metric: 'fuzz: inputs', value: total, unit: 'cases', note: `${cases} per parser, ${round(wallS)} s` },
    { metric: 'fuzz: failures', value: failures, unit: 'cases', budget: '0', holds: failures === 0 },
    {
      metric: 'fuzz: slowest input',
      value: round(slowestMs),
      unit: 'ms',
      budget: '≤ 1000 ms',
      holds: slowestMs <= 1000,
      note: slowestAt,
    },
    {
      metric: 'fuzz: peak RSS growth per MB of the largest input',
      value: round(perMB),
      unit: 'MB/MB',
      budget: '≤ 256',
      holds: perMB <= 256,
      note: `largest input ${round(largest / 1e6)} MB, growth ${round(peakMB)} MB`,
    },
    ...perParser,
  ]
}

if (process.argv[1] === import.meta.filename) console.table(await fuzzBench(Number(process.argv[2] ?? 100_000)))
