/**
 * import → export/show on real nccl-tests logs: through the installed bin (a real process,
 * stdin included) for the first import and export, in-process (the same main) for the rest.
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { bin, cli, FIXTURES, snapshot, tmp } from '../helpers.ts'

const NCCL = join(FIXTURES, 'nccl-tests')
const A100 = join(NCCL, 'a100-sxm4-8gpu-single-process-g8-v2.13.txt')
const ALLTOALL = join(NCCL, 'rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings.txt')
/** CSV without quoted fields (gpucomm's row CSV has none for these logs) → records by header. */
function parseCsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text
    .trim()
    .split('\n')
    .map((l) => l.split(','))
  assert.ok(head && lines.every((l) => l.length === head.length), 'unexpected quoting in the CSV')
  return lines.map((l) => Object.fromEntries(head.map((h, i) => [h, l[i] ?? ''])))
}
const jsonl = (s: string): Row[] =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row)

// Each test writes its own sets: three at a time.
suite('import, export, show', { concurrency: 3 }, () => {
  test('import the a100 log, export jsonl: the acceptance row is there, in base units', async () => {
    const dir = join(tmp(), 'set')
    const imp = await bin(['import', A100, '--out', dir])
    assert.equal(imp.code, 0, imp.stderr)
    assert.match(imp.stdout, /imported 240 rows from 1 file\(s\) \(nccl-tests-text\)/)
    const exp = await bin(['export', dir, '--format', 'jsonl'])
    assert.equal(exp.code, 0, exp.stderr)
    const rows = jsonl(exp.stdout)
    assert.equal(rows.length, 240)
    const want = {
      bench: 'nccl.all_reduce',
      sizeBytes: 8,
      metric: 'time',
      placement: 'out-of-place',
      unit: 's',
      value: 4.012e-5,
      ranks: 8,
    }
    assert.ok(
      rows.some((r) => Object.entries(want).every(([k, v]) => r[k as keyof Row] === v)),
      'no row matches the acceptance row',
    )
    assert.deepEqual(rows[0]?.source, { file: 'raw/000-a100-sxm4-8gpu-single-process-g8-v2.13.txt', line: 17 })
    assert.equal(
      readFileSync(join(dir, 'raw', '000-a100-sxm4-8gpu-single-process-g8-v2.13.txt'), 'utf8'),
      readFileSync(A100, 'utf8'),
    )
    const csv = await bin(['export', dir, '--format', 'csv'])
    assert.equal(csv.code, 0, csv.stderr)
    const recs = parseCsv(csv.stdout)
    assert.ok(Object.keys(recs[0] ?? {}).includes('time_us') && Object.keys(recs[0] ?? {}).includes('busbw_GBps'))
    const at = (size: string, metric: string, placement: string): Record<string, string> | undefined =>
      recs.find((r) => r.sizeBytes === size && r.metric === metric && r.placement === placement)
    assert.equal(at('8', 'time', 'out-of-place')?.time_us, '40.12')
    assert.equal(at('4294967296', 'busbw', 'out-of-place')?.busbw_GBps, '232.44')
    assert.equal(at('4294967296', 'busbw', 'out-of-place')?.time_us, '')
    assert.equal(at('2147483648', 'time', 'in-place')?.time_us, '16349')
  })

  test('import refuses a non-empty directory without --append (exit 2, nothing changed); --append adds', async () => {
    const dir = join(tmp(), 'set')
    assert.equal((await cli(['import', A100, '--out', dir])).code, 0)
    const before = snapshot(dir)
    const again = await cli(['import', ALLTOALL, '--out', dir])
    assert.equal(again.code, 2)
    assert.match(again.stderr, /not empty.*--append/)
    assert.equal(again.stderr.trim().split('\n').length, 1)
    assert.deepEqual(snapshot(dir), before)
    assert.deepEqual(readdirSync(join(dir, 'raw')), ['000-a100-sxm4-8gpu-single-process-g8-v2.13.txt'])
    const add = await cli(['import', ALLTOALL, '--out', dir, '--append'])
    assert.equal(add.code, 0, add.stderr)
    const rows = jsonl((await cli(['export', dir])).stdout)
    assert.equal(rows.length, 240 + 168)
    assert.deepEqual([...new Set(rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.all_reduce 8', 'nccl.alltoall 16'])
    assert.equal(rows.at(-1)?.source.file, 'raw/001-rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings.txt')
  })

  test('"-" reads stdin; a truncated log imports its complete rows and the CLI reports incomplete', async () => {
    const text = `${readFileSync(A100, 'utf8').split('\n').slice(0, 30).join('\n')}\n  1048576  262144  float  sum  -1  52.61  19.9`
    const dir = join(tmp(), 'set')
    const r = await bin(['import', '-', '--out', dir], { input: text })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /imported 112 rows/)
    assert.match(r.stderr, /^-:31: warn: incomplete: /m)
    assert.match(r.stderr, /partial-row/)
    const rows = jsonl((await bin(['export', dir])).stdout)
    assert.equal(rows.length, 14 * 8)
    assert.equal(rows.at(-1)?.sizeBytes, 65536)
    assert.equal(rows[0]?.source.file, 'raw/000-stdin.txt')
  })

  test('show prints a table people can read, and warns about a corrupted part or samples.jsonl line (its count and line; exit 0)', async () => {
    const dir = join(tmp(), 'set')
    assert.equal((await cli(['import', A100, '--out', dir])).code, 0)
    const show = await cli(['show', dir, '--all'])
    assert.equal(show.code, 0, show.stderr)
    const lines = show.stdout.split('\n')
    assert.match(lines[0] ?? '', /result set .* \(import, .*\), 240 rows/)
    const cells = (l: string): string[] => l.trim().split(/\s{2,}/)
    const find = (needle: RegExp): string[] | undefined => lines.map(cells).find((c) => needle.test(c.join('|')))
    assert.deepEqual(find(/^nccl\.all_reduce\|time\|8 ranks\|8 B\|out-of-place\|/), [
      'nccl.all_reduce',
      'time',
      '8 ranks',
      '8 B',
      'out-of-place',
      '1',
      '40.12 µs',
    ])
    assert.ok(find(/^nccl\.all_reduce\|busbw\|8 ranks\|4 GiB\|out-of-place\|1\|232\.4/), show.stdout.slice(0, 2000))
    // The same rows as a schema-1 set (samples.jsonl), with line 6 torn.
    const exported = (await cli(['export', dir])).stdout
    const part = join(dir, 'samples', 'part-000001.parquet')
    writeFileSync(part, 'PAR1 torn')
    const broken = await cli(['show', dir])
    assert.equal(broken.code, 0)
    assert.match(
      broken.stderr,
      /^gpucomm: warning: .*part-000001\.parquet: unreadable part skipped, the other rows used \(/,
    )
    rmSync(join(dir, 'samples'), { recursive: true })
    // A schema-1 set has no commit record of parts (a listed part that is gone is warned about).
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    delete manifest.parts
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest))
    const good = exported.split('\n')
    good.splice(5, 1, '{"bench":"nccl.all_reduce","metric":"time","unit":"s","val')
    writeFileSync(join(dir, 'samples.jsonl'), good.join('\n'))
    const bad = await cli(['show', dir])
    assert.equal(bad.code, 0)
    assert.match(
      bad.stderr,
      /^gpucomm: warning: .*samples\.jsonl: 1 corrupt line skipped, the other rows used \(line 6: not valid JSON/,
    )
    assert.equal(bad.stderr.trim().split('\n').length, 1)
    assert.match(bad.stdout, /239 rows/)
  })

  test('export --format parquet: one file another engine reads, the same rows as JSON lines, SIMULATED labelled', async () => {
    const dir = join(tmp(), 'set')
    assert.equal((await cli(['import', A100, '--out', dir])).code, 0)
    assert.equal((await cli(['import', ALLTOALL, '--out', dir, '--append'])).code, 0)
    const out = join(tmp(), 'rows.parquet')
    const r = await cli(['export', dir, '--format', 'parquet', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const db = await DuckDBInstance.create(':memory:')
    const conn = await db.connect()
    const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson()
    const got = await read(`SELECT bench, metric, value, sizeBytes, ranks, "file", line FROM read_parquet('${out}')`)
    const want = jsonl((await cli(['export', dir])).stdout)
    assert.equal(got.length, 240 + 168)
    assert.deepEqual(
      got.map((g) => [g.bench, g.metric, g.value, g.sizeBytes, g.ranks, g.file, g.line]),
      want.map((w) => [w.bench, w.metric, w.value, w.sizeBytes, w.ranks, w.source.file, w.source.line]),
    )
    assert.deepEqual(
      await read(`SELECT count(*) AS n FROM read_parquet('${out}') WHERE simulated`).catch(() => 'no column'),
      'no column',
    )
    const again = await cli(['export', dir, '--format', 'parquet', '--out', out])
    assert.equal(again.code, 2)
    assert.match(again.stderr, /already exists/)
    const sim = join(tmp(), 'sim.parquet')
    const s = await cli(['sim', '--preset', 'seed-vm', '--format', 'p2p'])
    const simText = join(tmp(), 'sim.txt')
    writeFileSync(simText, s.stdout)
    const simDir = join(tmp(), 'simset')
    assert.equal((await cli(['import', simText, '--out', simDir])).code, 0)
    assert.equal((await cli(['export', simDir, '--format', 'parquet', '--out', sim])).code, 0)
    const flags = await read(`SELECT DISTINCT simulated FROM read_parquet('${sim}')`)
    assert.deepEqual(flags, [{ simulated: true }])
    conn.closeSync()
    db.closeSync()
  })
})
