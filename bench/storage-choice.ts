/**
 * The measurement behind the samples format (BENCHMARKS.md, "Samples on disk"): Parquet
 * parts (written by src/resultset/parquet/_parquet.ts since issue 17's last round; DuckDB's COPY
 * before) read by DuckDB (`@duckdb/node-api`), versus `apache-arrow` writing IPC files, on
 * generated rows: bytes on disk, write time, and a per-cell median query over the stored
 * rows. Two inputs: rows parsed from a generated nccl-tests corpus (MB of input given) and
 * generated p2p samples (`test/diff-gen.ts`). Arrow is not a dependency: install it for this
 * run only (`npm install --no-save apache-arrow@21.2.0`), then
 * `npx tsx bench/storage-choice.ts [MB] [samples]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Row } from '../src/model/index.ts'
import { openDuck } from '../src/resultset/_duck.ts'
import { writeRowsPart } from '../src/resultset/parquet/_parquet.ts'
import { genRows } from '../test/diff-gen.ts'
import { writeCorpus } from './_corpus.ts'
import { round } from './_util.ts'

const PART = 1 << 18
const ARROW_TYPES: Record<string, string> = {
  str: 'VARCHAR',
  json: 'VARCHAR',
  num: 'DOUBLE',
  int: 'INTEGER',
  bool: 'BOOLEAN',
}

/** Rows of a generated nccl-tests corpus of `mb` MB (and its input bytes). */
async function corpusRows(mb: number): Promise<{ rows: Row[]; bytes: number }> {
  const { detectParser } = await import('../src/parsers/index.ts')
  const c = writeCorpus(mb * 1e6, 4)
  const rows: Row[] = []
  for (const p of c.paths) {
    const text = readFileSync(p, 'utf8')
    const lp = (detectParser(text.slice(0, 65536)) as NonNullable<ReturnType<typeof detectParser>>).open(
      { file: 'raw/generated.log' },
      (r) => rows.push(r),
    )
    text.split('\n').forEach((l, i) => lp.line(l, i + 1))
    lp.end()
  }
  rmSync(c.dir, { recursive: true, force: true })
  return { rows, bytes: c.bytes }
}

const dirBytes = (d: string): number => readdirSync(d).reduce((s, f) => s + statSync(join(d, f)).size, 0)

async function duck(rows: readonly Row[], dir: string): Promise<{ writeS: number; bytes: number; queryS: number }> {
  const db = await openDuck()
  const t0 = performance.now()
  for (let i = 0, k = 0; i < rows.length; i += PART, k++)
    writeRowsPart(rows.slice(i, i + PART), join(dir, `part-${k}.parquet`))
  const writeS = (performance.now() - t0) / 1000
  const t1 = performance.now()
  const r = await db.conn.runAndReadAll(
    `SELECT bench, metric, sizeBytes, src, dst, placement, "copy", median(value) FROM read_parquet('${dir}/*.parquet') GROUP BY ALL`,
  )
  const queryS = (performance.now() - t1) / 1000
  if (r.currentRowCount === 0) throw new Error('no cells')
  db.close()
  return { writeS, bytes: dirBytes(dir), queryS }
}

type ArrowLib = Record<string, any>

async function arrow(A: ArrowLib, rows: readonly Row[], dir: string) {
  const { COLUMNS } = await import('../src/resultset/_columns.ts')
  const type = (kind: string): unknown => {
    const t = ARROW_TYPES[kind]
    if (t === 'VARCHAR') return new A.Dictionary(new A.Utf8(), new A.Int32())
    if (t === 'BOOLEAN') return new A.Bool()
    if (t === 'INTEGER') return new A.Int32()
    return new A.Float64()
  }
  const t0 = performance.now()
  for (let i = 0, k = 0; i < rows.length; i += PART, k++) {
    const part = rows.slice(i, i + PART)
    const vecs: Record<string, unknown> = {}
    for (const c of COLUMNS) {
      const v = part.map((r) => {
        // Every column is the Row field of its name, but file and line (source.file, source.line).
        const x = c.name === 'file' ? r.source.file : c.name === 'line' ? r.source.line : r[c.name as keyof Row]
        return x === undefined ? null : c.kind === 'json' ? JSON.stringify(x) : x
      })
      vecs[c.name] = A.vectorFromArray(v, type(c.kind))
    }
    writeFileSync(join(dir, `part-${k}.arrow`), A.tableToIPC(new A.Table(vecs), 'file'))
  }
  const writeS = (performance.now() - t0) / 1000
  const t1 = performance.now()
  const cells = new Map<string, number[]>()
  for (const f of readdirSync(dir)) {
    const t = A.tableFromIPC(readFileSync(join(dir, f)))
    const keys = ['bench', 'metric', 'sizeBytes', 'src', 'dst', 'placement', 'copy'].map((n) => t.getChild(n))
    const v = t.getChild('value').toArray() as Float64Array
    for (let i = 0; i < t.numRows; i++) {
      const key = keys.map((c) => c.get(i)).join('\u0000')
      let a = cells.get(key)
      if (!a) cells.set(key, (a = []))
      a.push(v[i] as number)
    }
  }
  for (const a of cells.values()) a.sort((x, y) => x - y)[a.length >> 1]
  const queryS = (performance.now() - t1) / 1000
  return { writeS, bytes: dirBytes(dir), queryS }
}

async function compare(name: string, rows: readonly Row[], inputBytes?: number): Promise<void> {
  const A = (await import(['apache', 'arrow'].join('-')).catch(() => undefined)) as ArrowLib | undefined
  const json = rows.reduce((s, r) => s + JSON.stringify(r).length + 1, 0)
  const out: Record<string, unknown>[] = []
  const engines: [string, (d: string) => Promise<{ writeS: number; bytes: number; queryS: number }>][] = [
    ['parquet (gpucomm writer, read by duckdb)', (d) => duck(rows, d)],
  ]
  if (A) engines.push(['arrow ipc (dictionary)', (d) => arrow(A, rows, d)])
  for (const [engine, run] of engines) {
    const dir = mkdtempSync(join(tmpdir(), 'gpucomm-storage-'))
    try {
      const m = await run(dir)
      out.push({
        input: name,
        engine,
        rows: rows.length,
        'MB on disk': round(m.bytes / 1e6),
        'B/row': round(m.bytes / rows.length),
        '× input': inputBytes ? round(m.bytes / inputBytes) : '',
        '× jsonl': round(m.bytes / json),
        'write s': round(m.writeS),
        'Mrows/s': round(rows.length / m.writeS / 1e6),
        'median query s': round(m.queryS),
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  console.table(out)
}

const mb = Number(process.argv[2] ?? 20)
const n = Number(process.argv[3] ?? 1_000_000)
const c = await corpusRows(mb)
await compare(`generated nccl-tests corpus ${mb} MB`, c.rows, c.bytes)
await compare('generated p2p samples', [...genRows({ seed: 1, pairs: 56, sizes: 10, n: Math.ceil(n / 1120) })])
