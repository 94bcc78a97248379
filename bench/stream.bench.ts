/**
 * The commands that read a whole set, at scale (issue 17): one generated set of about
 * `samples` rows (test/diff-gen.ts as bench/scale.bench.ts builds it: 56 pairs × 10 sizes,
 * p2p latency and bw_uni rows, 5 launches) written as Parquet parts into the OS temp dir,
 * then each command as a real child process, one after another: export (JSON lines, CSV,
 * Parquet, each to a file), show, compare (by trial), plot --kind latency (which analyzes)
 * and report (analyze, compare, charts). The generated pairs carry no grouping, so
 * `plot --kind groups` and `busbw` have nothing to draw here. Budget: peak RSS ≤ 1 GiB each,
 * as for analyze and diff. A command that fails is a row saying so; the others still run.
 * Run alone with `npx tsx bench/stream.bench.ts [samples] [--bin PATH] [--only a,b]`
 * (`--bin`: another checkout's bin/gpucomm.js, to measure it on the same set).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Metric } from './_util.ts'
import { mib, ROOT, round, timedNode } from './_util.ts'
import { writeGeneratedSet } from './analyze.bench.ts'

const GiB = 2 ** 30

/** Each command's name and its arguments, given the set and a scratch directory for its output. */
const COMMANDS: [string, (set: string, out: string) => string[]][] = [
  ['show', (s) => ['show', s]],
  ['compare --by trial', (s) => ['compare', s, '--by', 'trial', '--format', 'json']],
  ['export parquet', (s, o) => ['export', s, '--format', 'parquet', '--out', join(o, 'rows.parquet')]],
  ['export jsonl', (s, o) => ['export', s, '--format', 'jsonl', '--out', join(o, 'rows.jsonl')]],
  ['export csv', (s, o) => ['export', s, '--format', 'csv', '--out', join(o, 'rows.csv')]],
  ['plot --kind latency', (s, o) => ['plot', s, '--kind', 'latency', '--out', o]],
  ['report', (s, o) => ['report', s, '--out', join(o, 'report.html')]],
]

/** Runs the stream bench. */
export async function streamBench(
  samples = 10_000_000,
  bin = join(ROOT, 'bin', 'gpucomm.js'),
  only?: readonly string[],
): Promise<Metric[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'gpucomm-stream-'))
  const set = join(tmp, 'set')
  try {
    const n = await writeGeneratedSet(set, samples)
    const count = n.toLocaleString('en')
    const out: Metric[] = []
    for (const [name, args] of COMMANDS) {
      if (only && !only.some((o) => name.startsWith(o))) continue
      const scratch = mkdtempSync(join(tmp, 'out-'))
      try {
        const t = await timedNode(bin, args(set, scratch), { stdout: 'ignore' })
        out.push({
          metric: `${name} over ${count} samples: peak RSS`,
          value: mib(t.maxRssBytes ?? NaN),
          unit: 'MiB',
          budget: '≤ 1 GiB',
          holds: (t.maxRssBytes ?? Infinity) <= GiB,
          note: `wall ${round(t.wallS)} s, CPU ${round(t.cpuS ?? NaN)} s`,
        })
      } catch (e) {
        const why = ((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split('\n').slice(-1)[0]
        out.push({
          metric: `${name} over ${count} samples`,
          value: NaN,
          unit: '',
          holds: false,
          note: `failed: ${why}`,
        })
      } finally {
        rmSync(scratch, { recursive: true, force: true })
      }
      // Each result as it comes: a long run stopped half way still says what it measured.
      console.error(JSON.stringify(out.at(-1)))
    }
    return out
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) {
  const arg = (flag: string): string | undefined => {
    const i = process.argv.indexOf(flag)
    return i < 0 ? undefined : process.argv[i + 1]
  }
  const samples = Number(process.argv[2]?.startsWith('--') ? undefined : process.argv[2]) || 10_000_000
  console.table(await streamBench(samples, arg('--bin') ?? undefined, arg('--only')?.split(',')))
}
