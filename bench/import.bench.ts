/**
 * Import of a generated 200 MB nccl-tests corpus (8 files, made from the real fixture runs,
 * in the OS temp dir) by `gpucomm import` as a real child process: wall and CPU time, peak
 * RSS, rows and the size of samples.jsonl. The reference is `wc -l` over the same files
 * (median of 5 runs, page cache warm). Budget: import ≤ 10 × `wc -l`.
 * Run alone with `npx tsx bench/import.bench.ts [MB]`.
 */
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { writeCorpus } from './_corpus.ts'
import type { Metric } from './_util.ts'
import { median, mib, ROOT, round, timedCommand, timedNode } from './_util.ts'

/** Runs the import bench over a corpus of `mb` megabytes. */
export async function importBench(mb = 200): Promise<Metric[]> {
  const corpus = writeCorpus(mb * 1e6, 8)
  const out = join(corpus.dir, 'set')
  try {
    const wc: number[] = []
    for (let i = 0; i < 5; i++) wc.push(await timedCommand('wc', ['-l', ...corpus.paths]))
    const t = await timedNode(join(ROOT, 'bin', 'gpucomm.js'), ['import', ...corpus.paths, '--out', out])
    const rows = Number(/imported (\d+) rows/.exec(t.stdout)?.[1] ?? NaN)
    const samples = statSync(join(out, 'samples.jsonl')).size
    const ratio = t.wallS / median(wc)
    const MB = corpus.bytes / 1e6
    return [
      {
        metric: `import ${MB.toFixed(0)} MB nccl-tests corpus (8 files): wall`,
        value: round(t.wallS),
        unit: 's',
        budget: '≤ 10 × wc -l',
        holds: ratio <= 10,
        note: `${round(ratio, 4)} × wc -l`,
      },
      { metric: 'import: CPU time', value: round(t.cpuS ?? NaN), unit: 's' },
      { metric: 'import: peak RSS', value: mib(t.maxRssBytes ?? NaN), unit: 'MiB' },
      {
        metric: 'import: log throughput',
        value: round(MB / t.wallS),
        unit: 'MB/s',
        note: `${rows} rows, samples.jsonl ${(samples / 1e6).toFixed(0)} MB`,
      },
      { metric: 'wc -l over the same files (median of 5)', value: round(median(wc)), unit: 's' },
    ]
  } finally {
    rmSync(corpus.dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) console.table(await importBench(Number(process.argv[2] ?? 200)))
