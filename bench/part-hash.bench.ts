/**
 * What checking each part's sha256 costs a reader (`npm run bench -- --only part-hash`; issue
 * #35 item 3). A generated set of SAMPLES rows in parts is streamed whole (streamRows, as
 * export and show read) three ways: as written (each part's bytes hashed against the sha256
 * its manifest committed, then its columns described), with the sha256 alone timed over the
 * same files, and as a set older than the record (no sha256: each part decoded whole once to
 * prove it reads, the check such sets get). Times are tinybench's median of 3.
 * loadSamples (the engine's grouped view, what analyze and compare read) is timed too.
 * Budget: the hashing is ≤ 10 % of either read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Bench } from 'tinybench'
import { listParts, loadSamples, partBytes, streamRows } from '../src/resultset/index.ts'
import { sha256 } from '../src/resultset/parquet/_commit.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'
import { writeGeneratedSet } from './analyze.bench.ts'

const median = (b: Bench, name: string): number =>
  (b.tasks.find((t) => t.name === name)?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ??
  Number.NaN

export async function partHashBench(samples = 2_000_000): Promise<Metric[]> {
  const root = mkdtempSync(join(tmpdir(), 'gpucomm-part-hash-'))
  try {
    const set = join(root, 'set')
    const old = join(root, 'old')
    const rows = await writeGeneratedSet(set, samples)
    await writeGeneratedSet(old, samples)
    const m = JSON.parse(readFileSync(join(old, 'manifest.json'), 'utf8'))
    delete m.parts
    writeFileSync(join(old, 'manifest.json'), JSON.stringify(m))
    const parts = listParts(set)
    const bench = new Bench({ name: 'part-hash', iterations: 3, time: 0, warmup: true, warmupIterations: 1 })
    bench.add('read, sha256 checked', async () => void (await streamRows(set, () => {}, { note: false })))
    bench.add('sha256 of every part alone', () => {
      for (const p of parts) sha256(readFileSync(p))
    })
    bench.add('engine load, sha256 checked', async () => void (await loadSamples(set)))
    bench.add('read, no sha256 (decoded whole)', async () => void (await streamRows(old, () => {}, { note: false })))
    await bench.run()
    const read = median(bench, 'read, sha256 checked')
    const hash = median(bench, 'sha256 of every part alone')
    const unrecorded = median(bench, 'read, no sha256 (decoded whole)')
    const load = median(bench, 'engine load, sha256 checked')
    const share = hash / read
    const what = `${rows} rows in ${parts.length} parts, ${round(partBytes(set) / 1e6)} MB`
    return [
      { metric: 'part-hash: stream a set whose parts have a sha256', value: round(read), unit: 'ms', note: what },
      {
        metric: 'part-hash: the sha256 of its parts, share of that read',
        value: round(share * 100),
        unit: '%',
        budget: '≤ 10 %',
        holds: share <= 0.1,
        note: `${round(hash)} ms of hashing`,
      },
      {
        metric: 'part-hash: the sha256 of its parts, share of an engine load (loadSamples, as analyze reads)',
        value: round((hash / load) * 100),
        unit: '%',
        budget: '≤ 10 %',
        holds: hash / load <= 0.1,
        note: `load ${round(load)} ms`,
      },
      {
        metric: 'part-hash: stream the same rows without a sha256 (each part decoded whole first)',
        value: round(unrecorded),
        unit: 'ms',
        note: `${round(unrecorded / read)}× the read with a sha256`,
      },
    ]
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) console.table(await partHashBench(Number(process.argv[2] ?? 2_000_000)))
