/**
 * Result sets at scale (issue 17). Two generated sets of about `samples` rows each (seeded
 * log-normal p2p samples from test/diff-gen.ts: 56 pairs × 10 sizes, 5 launches, the second
 * 2 % slower) are written as Parquet parts into the OS temp dir. Then each of these runs as
 * a real child process, side by side: `gpucomm diff A B` (budget: peak RSS ≤ 1 GiB),
 * `gpucomm analyze A --json` (budgets: peak RSS ≤ 1 GiB, wall ≤ 3 × the bare query), and the
 * bare engine query, a per-cell median over A's parts (bench/_median-query.mjs); the query and
 * analyze take turns three times and the ratio is of their medians. The CLI
 * runs compiled (dist/ is built first when it is stale), as an installed gpucomm does.
 * Run alone with `npx tsx bench/scale.bench.ts [samples] [--no-analyze] [--no-diff]` (without
 * diff, only the first set is written).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Metric, Timed } from './_util.ts'
import { mib, middle, ROOT, round, samplesBytes, timedNode } from './_util.ts'
import { writeGeneratedSet } from './analyze.bench.ts'
import { ensureCompiled } from './startup.bench.ts'

const GiB = 2 ** 30
/** Turns of the bare query and analyze (one run of either moves by ±20 % here). */
const RUNS = 3

/** Runs the scale bench. */
export async function scaleBench(samples = 10_000_000, withAnalyze = true, withDiff = true): Promise<Metric[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'gpucomm-scale-'))
  const [a, b] = [join(tmp, 'a'), join(tmp, 'b')]
  const bin = join(ROOT, 'bin', 'gpucomm.js')
  try {
    const t0 = performance.now()
    const n = await writeGeneratedSet(a, samples)
    if (withDiff) await writeGeneratedSet(b, samples, { seed: 2, shift: 0.02 })
    const writeS = (performance.now() - t0) / 1000
    const count = n.toLocaleString('en')
    // The CLI as installed runs the compiled dist/ (npm's prepare builds it), not tsx.
    const compiled = await ensureCompiled()
    // The bare query and analyze take turns, RUNS times each; each side's median run counts.
    const queries: Timed[] = []
    const analyses: Timed[] = []
    for (let i = 0; i < (withAnalyze ? RUNS : 1); i++) {
      queries.push(await timedNode(join(ROOT, 'bench', '_median-query.mjs'), [a]))
      if (withAnalyze) analyses.push(await timedNode(bin, ['analyze', a, '--json'], { stdout: 'ignore' }))
    }
    const q = middle(queries)
    const out: Metric[] = [
      {
        metric: `${withDiff ? 'two generated sets' : 'a generated set'} of ${count} samples: written as parts`,
        value: round(writeS),
        unit: 's',
        note: `${round(samplesBytes(a) / n)} B per sample on disk`,
      },
      {
        metric: `bare engine per-cell median over ${count} samples: wall`,
        value: round(q.wallS),
        unit: 's',
        note: `${q.stdout.trim()} cells, CPU ${round(q.cpuS ?? NaN)} s, peak RSS ${mib(q.maxRssBytes ?? NaN)} MiB`,
      },
    ]
    if (withDiff) {
      const d = await timedNode(bin, ['diff', a, b, '--format', 'json'], { stdout: 'ignore' })
      out.push({
        metric: `diff over two sets of ${count} samples: peak RSS`,
        value: mib(d.maxRssBytes ?? NaN),
        unit: 'MiB',
        budget: '≤ 1 GiB',
        holds: (d.maxRssBytes ?? Infinity) <= GiB,
        note: `wall ${round(d.wallS)} s, CPU ${round(d.cpuS ?? NaN)} s`,
      })
    }
    if (withAnalyze) {
      const t = middle(analyses)
      const ratio = t.wallS / q.wallS
      const rss = Math.max(...analyses.map((x) => x.maxRssBytes ?? Infinity))
      const each = analyses.map((x, i) => round(x.wallS / (queries[i] as Timed).wallS)).join(', ')
      out.push(
        {
          metric: `analyze --json over ${count} samples: peak RSS`,
          value: mib(rss),
          unit: 'MiB',
          budget: '≤ 1 GiB',
          holds: rss <= GiB,
          note: `the largest of ${RUNS} runs`,
        },
        {
          metric: 'analyze: wall vs the bare engine query',
          value: round(ratio),
          unit: '×',
          budget: '≤ 3 ×',
          holds: ratio <= 3,
          note:
            `median of ${RUNS}: ${round(t.wallS)} s, CPU ${round(t.cpuS ?? NaN)} s ` +
            `(${round((t.cpuS ?? NaN) / (q.cpuS ?? NaN))} × the query's CPU; run by run ${each} ×); ` +
            `${compiled ? 'compiled dist/' : 'tsx: dist/ stale'}`,
        },
      )
    }
    return out
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename)
  console.table(
    await scaleBench(
      Number(process.argv[2] ?? 10_000_000),
      !process.argv.includes('--no-analyze'),
      !process.argv.includes('--no-diff'),
    ),
  )
