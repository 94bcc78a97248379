/**
 * Import of a generated 200 MB nccl-tests corpus (8 files, made from the real fixture runs,
 * in the OS temp dir) by `gpucomm import` as a real child process: wall and CPU time, peak
 * RSS, rows and the bytes of its samples on disk. The reference is parsing the same files
 * with nothing kept or written (bench/_parse-only.mjs, a child process too, its CPU time
 * beside the import's); `wc -l` is shown beside it. Both run the compiled dist/ (built first
 * when it is stale), as an installed gpucomm does. The two take turns, `RUNS` times each, and
 * the ratio is of their medians: one run of either side varies by ±20 % here. Budgets:
 * import ≤ 2 × parse-only; samples on disk ≤ 1 × the input bytes.
 * Run alone with `npx tsx bench/import.bench.ts [MB]`.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeCorpus } from './_corpus.ts'
import type { Metric, Timed } from './_util.ts'
import { median, mib, middle, ROOT, round, samplesBytes, timedCommand, timedNode } from './_util.ts'
import { ensureCompiled } from './startup.bench.ts'

/** Runs of each side (parse-only, import), taking turns. */
const RUNS = 3

/** Runs the import bench over a corpus of `mb` megabytes. */
export async function importBench(mb = 200): Promise<Metric[]> {
  const corpus = writeCorpus(mb * 1e6, 8)
  const out = join(corpus.dir, 'set')
  try {
    const wc: number[] = []
    for (let i = 0; i < 5; i++) wc.push(await timedCommand('wc', ['-l', ...corpus.paths]))
    // The CLI as installed runs the compiled dist/ (npm's prepare builds it), and so does the reference.
    const compiled = await ensureCompiled()
    if (!compiled) throw new Error('import bench: dist/ could not be built (npm run build)')
    const parses: Timed[] = []
    const imports: Timed[] = []
    for (let i = 0; i < RUNS; i++) {
      parses.push(await timedNode(join(ROOT, 'bench', '_parse-only.mjs'), corpus.paths))
      rmSync(out, { recursive: true, force: true })
      imports.push(await timedNode(join(ROOT, 'bin', 'gpucomm.js'), ['import', ...corpus.paths, '--out', out]))
    }
    const parsed = middle(parses)
    const t = middle(imports)
    const parseS = parsed.wallS
    const rows = Number(/imported (\d+) rows/.exec(t.stdout)?.[1] ?? NaN)
    const samples = samplesBytes(out)
    const ratio = t.wallS / parseS
    const each = imports.map((m, i) => round(m.wallS / (parses[i] as Timed).wallS)).join(', ')
    const MB = corpus.bytes / 1e6
    return [
      {
        metric: `import ${MB.toFixed(0)} MB nccl-tests corpus (8 files): wall`,
        value: round(t.wallS),
        unit: 's',
        budget: '≤ 2 × parse-only',
        holds: ratio <= 2,
        note:
          `median of ${RUNS}: ${round(ratio)} × parse-only (${round(parseS)} s, ${parsed.stdout.trim()} rows; ` +
          `run by run ${each} ×), ${round(t.wallS / median(wc), 4)} × wc -l`,
      },
      {
        metric: 'import: samples on disk',
        value: round(samples / 1e6),
        unit: 'MB',
        budget: '≤ 1 × input',
        holds: samples <= corpus.bytes,
        note: `${round(samples / corpus.bytes)} × the ${MB.toFixed(0)} MB input, ${rows} rows`,
      },
      {
        metric: 'import: CPU time',
        value: round(t.cpuS ?? NaN),
        unit: 's',
        note: `${round((t.cpuS ?? NaN) / (parsed.cpuS ?? NaN))} × parse-only's ${round(parsed.cpuS ?? NaN)} s`,
      },
      { metric: 'import: peak RSS', value: mib(t.maxRssBytes ?? NaN), unit: 'MiB' },
      { metric: 'import: log throughput', value: round(MB / t.wallS), unit: 'MB/s' },
      { metric: 'wc -l over the same files (median of 5)', value: round(median(wc)), unit: 's' },
    ]
  } finally {
    rmSync(corpus.dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) console.table(await importBench(Number(process.argv[2] ?? 200)))
