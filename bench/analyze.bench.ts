/**
 * `gpucomm analyze DIR --json` over a generated result set of 1,000,000 samples (seeded
 * log-normal p2p latencies and bandwidths, 56 pairs × 10 sizes, 5 launches; written with
 * the resultset Appender into the OS temp dir), as a real child process: wall and CPU
 * time, peak RSS. Budget: peak RSS under 1 GB. Run alone with `npx tsx bench/analyze.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Row } from '../src/model/index.ts'
import { Appender, newManifest, writeManifest } from '../src/resultset/index.ts'
import { genRows } from '../test/diff-gen.ts'
import type { Metric } from './_util.ts'
import { mib, ROOT, round, timedNode } from './_util.ts'

/** Writes a generated set of about `samples` rows (seed 1 unless given, `shift` as in GenSpec) in parts; returns the row count. */
export async function writeGeneratedSet(
  dir: string,
  samples: number,
  gen: { seed?: number; shift?: number } = {},
): Promise<number> {
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: false, command: ['generated-set', 'bench'] }))
  const app = await Appender.open(dir)
  let batch: Row[] = []
  let n = 0
  const spec = {
    seed: gen.seed ?? 1,
    pairs: 56,
    sizes: 10,
    n: Math.ceil(samples / 1120),
    launches: 5,
    shift: gen.shift ?? 0,
  }
  for (const r of genRows(spec)) {
    batch.push(r)
    n++
    if (batch.length === 1 << 18) {
      await app.append(batch)
      batch = []
    }
  }
  await app.append(batch)
  app.close()
  return n
}

/** Runs the analyze bench. */
export async function analyzeBench(samples = 1_000_000): Promise<Metric[]> {
  const dir = join(mkdtempSync(join(tmpdir(), 'gpucomm-bench-')), 'set')
  try {
    const n = await writeGeneratedSet(dir, samples)
    const t = await timedNode(join(ROOT, 'bin', 'gpucomm.js'), ['analyze', dir, '--json'])
    const fits = (JSON.parse(t.stdout) as { fits: unknown[] }).fits.length
    const rss = t.maxRssBytes ?? NaN
    return [
      {
        metric: `analyze --json over ${n.toLocaleString('en')} samples: peak RSS`,
        value: mib(rss),
        unit: 'MiB',
        budget: '< 1 GB',
        holds: rss < 1e9,
        note: `${round(rss / n)} B per sample`,
      },
      {
        metric: 'analyze: wall',
        value: round(t.wallS),
        unit: 's',
        note: `CPU ${round(t.cpuS ?? NaN)} s, ${fits} fits`,
      },
    ]
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) console.table(await analyzeBench(Number(process.argv[2] ?? 1_000_000)))
