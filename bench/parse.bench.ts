/**
 * Parser throughput and streaming import. Run with `npm run bench:parse` (add `-- --mb 200`
 * for a bigger log).
 *
 * 1. Generates (into the OS temp dir, never committed) an nccl-tests log of ≥ 50 MB by
 *    repeating the real runs of test/fixtures/nccl-tests (banners, rank lines, MPI noise,
 *    failures, a log tail), and times the nccl-tests text parser on it.
 * 2. Times every other parser of the registry on a large input made by repeating its own
 *    fixtures (JSON documents cannot be concatenated, so those are timed on one document).
 * 3. Imports the log at two sizes through `importFiles`, each in a fresh process, and
 *    reports time and peak RSS: streaming means the peak does not grow with the input.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resourceUsage } from 'node:process'
import { execa } from 'execa'
import { Bench } from 'tinybench'
import type { Parser } from '../src/parsers/index.ts'
import { PARSERS } from '../src/parsers/index.ts'
import { fixtures, repeatTo } from './_corpus.ts'
import type { Metric } from './_util.ts'
import { ROOT, round, samplesBytes } from './_util.ts'

const mb = (bytes: number): number => bytes / 1e6
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`

/** Parses `lines` once with `p`; returns the number of rows. */
function parseLines(p: Parser, lines: readonly string[]): number {
  let rows = 0
  const lp = p.open({ file: 'bench' }, () => void rows++)
  for (let i = 0; i < lines.length; i++) lp.line(lines[i] as string, i + 1)
  lp.end()
  return rows
}

async function throughput(all: ReturnType<typeof fixtures>, log: string, quiet: boolean): Promise<Metric[]> {
  const bench = new Bench({ name: 'parse', iterations: 3, time: 0, warmup: true, warmupIterations: 1, throws: true })
  const sizes = new Map<string, { bytes: number; rows: number; input: string }>()
  const cpu = new Map<string, number>()
  for (const p of PARSERS) {
    const own = all.filter((f) => f.parser?.id === p.id)
    if (own.length === 0) continue
    const json = own.every((f) => f.text.trimStart().startsWith('{'))
    const text =
      p.id === 'nccl-tests-text'
        ? log
        : json
          ? own.reduce((a, b) => (b.text.length > a.text.length ? b : a)).text
          : repeatTo(
              own.map((f) => f.text),
              16e6,
            )
    const lines = text.split('\n')
    const rows = parseLines(p, lines)
    sizes.set(p.id, {
      bytes: Buffer.byteLength(text),
      rows,
      input:
        p.id === 'nccl-tests-text' ? 'generated log' : json ? 'largest fixture' : `${own.length} fixtures repeated`,
    })
    const c0 = process.cpuUsage()
    parseLines(p, lines)
    const cu = process.cpuUsage(c0)
    cpu.set(p.id, (cu.user + cu.system) / 1e6)
    bench.add(p.id, () => void parseLines(p, lines))
  }
  await bench.run()
  const table = bench.tasks.map((t) => {
    const s = sizes.get(t.name) as { bytes: number; rows: number; input: string }
    const mean = ((t.result as { latency?: { mean: number } }).latency?.mean ?? NaN) / 1000
    return {
      parser: t.name,
      input: s.input,
      MB: Number(mb(s.bytes).toFixed(2)),
      rows: s.rows,
      'mean s': Number(mean.toPrecision(3)),
      'MB/s': Number((mb(s.bytes) / mean).toFixed(1)),
      'MB/s by CPU time': Number((mb(s.bytes) / (cpu.get(t.name) ?? NaN)).toFixed(1)),
    }
  })
  if (!quiet) {
    console.log('\nParse throughput (lines already split; parser work only). "MB/s" is wall time over tinybench')
    console.log(
      'iterations; "by CPU time" is one more pass timed with process.cpuUsage (closer to the truth on a busy machine).',
    )
    console.table(table)
  }
  return table.map((r) => ({
    metric: `parse ${r.parser} (${r.input}, ${r.MB} MB)`,
    value: round(r['MB/s']),
    unit: 'MB/s',
    note: `${r['MB/s by CPU time']} MB/s by CPU time`,
  }))
}

/** Child mode: import one file and print time, rows and peak RSS as JSON. */
async function importChild(file: string, out: string): Promise<void> {
  const { importFiles } = await import('../src/importer/index.ts')
  const t0 = performance.now()
  const s = await importFiles([{ path: file }], { out, command: ['bench'] })
  const ms = performance.now() - t0
  const u = resourceUsage()
  process.stdout.write(
    JSON.stringify({ ms, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rows: s.rows, maxRss: u.maxRSS * 1024 }),
  )
}

async function importRuns(logPath: string, log: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpucomm-bench-'))
  const table = []
  try {
    for (const frac of [0.25, 1]) {
      const path = frac === 1 ? logPath : join(dir, 'quarter.log')
      if (frac !== 1) writeFileSync(path, log.slice(0, log.lastIndexOf('\n', Math.floor(log.length * frac)) + 1))
      const out = join(dir, `set-${frac}`)
      const r = await execa(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'bench', 'parse.bench.ts'), '--import-child', path, out],
        { cwd: ROOT },
      )
      const j = JSON.parse(r.stdout) as { ms: number; cpuMs: number; rows: number; maxRss: number }
      const bytes = statSync(path).size
      table.push({
        log: `${mb(bytes).toFixed(0)} MB`,
        rows: j.rows,
        samples: `${mb(samplesBytes(out)).toFixed(1)} MB`,
        seconds: Number((j.ms / 1000).toFixed(2)),
        'CPU s': Number((j.cpuMs / 1000).toFixed(2)),
        'log MB/s': Number((mb(bytes) / (j.ms / 1000)).toFixed(1)),
        'peak RSS': mib(j.maxRss),
      })
      rmSync(out, { recursive: true, force: true })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log('\nImport through importFiles (fresh process each; raw copy + sha256 + Parquet parts written)')
  console.table(table)
}

/**
 * Parser throughput over a generated nccl-tests log of `target` bytes (≥ 50 MB) and the
 * other parsers' repeated fixtures; with `withImport`, also the two-size streaming import.
 */
export async function parseBench(target = 64e6, withImport = true, quiet = false): Promise<Metric[]> {
  const all = fixtures()
  const runs = all.filter((f) => f.parser?.id === 'nccl-tests-text').map((f) => f.text)
  const log = repeatTo(runs, Math.max(50e6, target))
  const logPath = join(mkdtempSync(join(tmpdir(), 'gpucomm-bench-log-')), 'generated-nccl-tests-big.log')
  writeFileSync(logPath, log)
  if (!quiet)
    console.log(
      `generated ${mb(Buffer.byteLength(log)).toFixed(1)} MB nccl-tests log from ${runs.length} real runs, repeated: ${logPath}`,
    )
  try {
    const metrics = await throughput(all, log, quiet)
    if (withImport) await importRuns(logPath, log)
    return metrics
  } finally {
    rmSync(join(logPath, '..'), { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args[0] === '--import-child') return importChild(args[1] as string, args[2] as string)
  const at = args.indexOf('--mb')
  await parseBench(Math.max(50, Number(at >= 0 ? args[at + 1] : 64) || 64) * 1e6)
}

if (process.argv[1] === import.meta.filename) await main()
