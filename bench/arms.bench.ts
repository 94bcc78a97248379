/**
 * Independent arms and like-with-like `compare` on the simulator (issue 31), in process:
 * - analyze's α 95 % CI coverage over 50 independent SIMULATED sets (bench/_alpha-study.ts),
 *   same-GPU and cross-GPU pairs, budget ≥ 93 % each;
 * - `compare --by host-axis` on the seed-vm preset (cstates=default vs shallow, 6 launches a
 *   side, p2p_bench latency): the band interval is not zero-width;
 * - a null compare: two identical groupings, a launch-level effect of 2 % (each launch's times
 *   × exp(0.02 z)) and 0.5 % iteration noise, 6 launches × 20 iterations × 4 sizes a side:
 *   "X is … faster" is printed in ≤ 5 % of 1,000 compares, and each size's winner column
 *   is filled in ≤ 5 % of sizes.
 * Run alone with `npx tsx bench/arms.bench.ts`.
 */
import { compareSet } from '../src/analysis/index.ts'
import type { Row } from '../src/model/index.ts'
import { makeRow } from '../src/model/index.ts'
import { detectParser, parseText } from '../src/parsers/index.ts'
import { mulberry32, normals } from '../src/random/index.ts'
import type { ReadSet } from '../src/resultset/index.ts'
import { simulate } from '../src/sim/index.ts'
import { alphaStudy } from './_alpha-study.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

export const setOf = (rows: Row[]): ReadSet =>
  ({ dir: 'mem', manifest: { id: 'mem', simulated: true }, diagnostics: [], rows }) as unknown as ReadSet

/** p2p_bench latency of GPUs 0-1 on seed-vm, each launch under one host-axis arm (the sweep's interleaving). */
function hostAxisRows(seed: number): Row[] {
  const rows: Row[] = []
  for (let trial = 1; trial <= 6; trial++)
    for (const cstates of ['default', 'shallow']) {
      const text = simulate({
        preset: 'seed-vm',
        format: 'p2p-bench',
        gpus: [0, 1],
        pairs: 'cross',
        sizes: [8],
        bwSizes: [],
        iters: 20,
        copies: ['ce'],
        p2pModes: ['enabled'],
        seed,
        trial,
        host: { cstates },
      })
      const parser = detectParser(text)
      if (!parser) throw new Error('no parser for simulated p2p_bench')
      for (const r of parseText(parser, text, { file: `t${trial}-${cstates}.txt` }).rows)
        rows.push({ ...r, trial, hostAxis: { cstates } })
    }
  return rows
}

/** Two identical groupings with a launch-level effect of `launchSigma` (log scale). */
export function nullRows(seed: number, launchSigma: number): Row[] {
  const z = normals(mulberry32(seed))
  const rows: Row[] = []
  for (const grouping of ['a', 'b'])
    for (let trial = 1; trial <= 6; trial++) {
      const launch = Math.exp(launchSigma * z())
      for (const sizeBytes of [8, 64, 512, 4096])
        for (let i = 0; i < 20; i++)
          rows.push(
            makeRow({
              bench: 'nccl.all_reduce',
              metric: 'time',
              unit: 's',
              value: 10e-6 * launch * Math.exp(0.005 * z()),
              sizeBytes,
              grouping,
              group: '0-3',
              ranks: 4,
              trial,
              point: `${grouping}~t${trial}`,
              source: { file: 'mem', line: 1 },
            }),
          )
    }
  return rows
}

export function armsBench(sets = 50, nulls = 1000): Metric[] {
  const out: Metric[] = []
  const a = alphaStudy('seed-vm', sets, 40_000)
  for (const [k, c] of [
    ['same-GPU', a.same],
    ['cross-GPU', a.cross],
  ] as const) {
    const rate = c.covered / c.fits
    out.push({
      metric: `analyze seed-vm: α 95 % CI holds the true α, ${k} pairs (${sets} sets, 6 launches)`,
      value: round(rate * 100),
      unit: '%',
      budget: '≥ 93 %',
      holds: rate >= 0.93,
      note: `${c.covered} of ${c.fits} fits; ${a.zeroWidth} zero-width`,
    })
  }
  const host = compareSet(setOf(hostAxisRows(7)), { by: 'host-axis' }).benches.find((b) => b.bench === 'p2p.latency')
  const k = host?.conclusions[0]
  const width = k && k.ci[0] !== null && k.ci[1] !== null ? k.ci[1] - k.ci[0] : 0
  out.push({
    metric: 'compare --by host-axis, seed-vm (cstates default vs shallow): width of the ratio 95 % CI',
    value: round(width, 3),
    unit: '×',
    budget: '> 0',
    holds: width > 0,
    note: k?.text ?? 'no conclusion',
  })
  let winners = 0
  let cells = 0
  let cellWinners = 0
  for (let s = 0; s < nulls; s++) {
    const b = compareSet(setOf(nullRows(90_000 + s, 0.02))).benches[0]
    if (b?.conclusions.some((c) => c.clear)) winners++
    for (const z of b?.sizes ?? []) {
      cells++
      if (z.winner !== null) cellWinners++
    }
  }
  out.push({
    metric: `compare null (identical groupings, launch-level effect 2 %): "X is … faster" printed`,
    value: round((100 * winners) / nulls),
    unit: '% of compares',
    budget: '≤ 5 %',
    holds: winners / nulls <= 0.05,
    note: `${winners} of ${nulls} (Welch t 95 % on launch values: nominal 5 %)`,
  })
  out.push({
    metric: 'compare null: per-size winner column filled (Mann-Whitney p < 0.05 on launch values)',
    value: round((100 * cellWinners) / cells),
    unit: '% of sizes',
    budget: '≤ 5 %',
    holds: cellWinners / cells <= 0.05,
    note: `${cellWinners} of ${cells} sizes (exact U at 6 vs 6: 4.1 % a size)`,
  })
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) for (const m of armsBench()) console.log(JSON.stringify(m))
