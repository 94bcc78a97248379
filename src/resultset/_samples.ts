/**
 * A result set read for analysis, at any size. A row is its value plus conditions that
 * thousands of rows share (every iteration of a point's size and pair), so the engine
 * hashes the conditions of each row (all but value, line and iteration; of those, only the
 * columns the parts' footers do not show to be constant) and sends only (hash, value) pairs,
 * in row order; each distinct set of conditions comes once, as a
 * representative row. Memory holds 12 bytes a row and one row object per group, not a
 * row object per row. The rows replay from there as often as the analysis passes over them.
 */
import type { DuckDBVector } from '@duckdb/node-api'
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { indexedRows } from '../model/index.ts'
import { COLUMNS } from './_columns.ts'
import type { Duck } from './_duck.ts'
import { noteLoad } from './_load-notes.ts'
import { varyingColumns } from './_varying.ts'

/** A set whose rows can be read (again) in order; see `loadSamples`. */
export interface SampleSet {
  dir: string
  manifest: Manifest
  diagnostics: Diagnostic[]
  /** How many rows `rows` yields. */
  count: number
  /**
   * The rows in order, replayable. A yielded row object is shared by the rows of its group
   * (its value set before it is yielded): read it before taking the next, never keep it.
   */
  rows: Iterable<Row>
}

/** Not part of a group's conditions: what differs between the iterations of one launch. */
const PER_ROW = new Set(['value', 'line', 'iteration'])
const quoted = (name: string): string => `"${name}"`
/** The condition columns: all but what differs between the iterations of one launch. */
const KEYS = COLUMNS.filter((c) => !PER_ROW.has(c.name)).map((c) => c.name)
/** A 53-bit hash of a row's conditions (its `varying` columns), exact as a JS number. */
const hashOf = (varying: readonly string[]): string =>
  varying.length ? `(hash(${varying.map(quoted).join(', ')}) >> 11)::DOUBLE` : '0::DOUBLE'

/** Typed columns of (group, value), sized to the row count the parts' metadata gives. */
class Pairs {
  readonly group: Int32Array
  readonly value: Float64Array
  n = 0
  constructor(size: number) {
    // Shared memory: the analysis may read them from a second thread (CellsWorker).
    this.group = new Int32Array(new SharedArrayBuffer(4 * size))
    this.value = new Float64Array(new SharedArrayBuffer(8 * size))
  }
}

/**
 * The representative rows of `from`, by hash (undefined when two groups share a hash). The
 * engine groups by the varying columns only; the constant ones come from one row.
 */
async function groups(db: Duck, from: string, varying: readonly string[]): Promise<Map<number, Row> | undefined> {
  const r = await import('./_read.ts')
  const vary = new Set(varying)
  const constant = KEYS.filter((c) => !vary.has(c))
  const select = COLUMNS.map((c) =>
    c.name === 'value'
      ? '0::DOUBLE AS value'
      : c.name === 'line'
        ? 'g.line'
        : c.name === 'iteration'
          ? 'NULL::DOUBLE AS iteration'
          : `${vary.has(c.name) ? 'g' : 'k'}.${quoted(c.name)}`,
  ).join(', ')
  const grouped = `SELECT ${[...varying.map(quoted), 'min(line) AS line', `${hashOf(varying)} AS h`].join(', ')} FROM ${from} GROUP BY ALL`
  const one = constant.length ? `, (SELECT ${constant.map(quoted).join(', ')} FROM ${from} LIMIT 1) k` : ''
  const result = await db.conn.run(`SELECT ${select}, g.h FROM (${grouped}) g${one}`)
  const intern = new r.Intern()
  const out = new Map<number, Row>()
  let n = 0
  for (;;) {
    const chunk = await result.fetchChunk()
    if (!chunk || chunk.rowCount === 0) break
    const cols = COLUMNS.map((_, j) => r.columnValues(chunk, j, undefined, intern))
    const h = chunk.getColumnVector(COLUMNS.length)
    for (let i = 0; i < chunk.rowCount; i++) out.set(h.getItem(i) as number, r.rowAt(cols, i))
    n += chunk.rowCount
  }
  return out.size === n ? out : undefined
}

/**
 * The n values of a DOUBLE vector without NULLs as a Float64Array: the vector's own array
 * (a field the typings keep private in @duckdb/node-api 1.5.6-r.1), else copied by getItem.
 */
function doubles(vector: DuckDBVector, n: number): Float64Array {
  const items = (vector as unknown as { items?: unknown }).items
  if (items instanceof Float64Array && items.length === n) return items
  return Float64Array.from({ length: n }, (_, i) => vector.getItem(i) as number)
}

/**
 * Group numbers by 53-bit hash: open addressing over typed arrays, keyed by the hash's low
 * 32 bits (a Map of doubles cost about 0.1 µs a row where groups alternate row by row).
 */
class HashIndex {
  private readonly keys: Float64Array
  private readonly groups: Int32Array
  private readonly mask: number
  constructor(hashes: readonly number[]) {
    let size = 2
    while (size < 2 * hashes.length) size *= 2
    this.keys = new Float64Array(size).fill(Number.NaN)
    this.groups = new Int32Array(size)
    this.mask = size - 1
    hashes.forEach((h, g) => {
      let j = (h >>> 0) & this.mask
      while (!Number.isNaN(this.keys[j] as number)) j = (j + 1) & this.mask
      this.keys[j] = h
      this.groups[j] = g
    })
  }
  /** The group of hash `h`; -1 when there is none. */
  get(h: number): number {
    for (let j = (h >>> 0) & this.mask; ; j = (j + 1) & this.mask) {
      const k = this.keys[j] as number
      if (k === h) return this.groups[j] as number
      if (Number.isNaN(k)) return -1
    }
  }
}

/** (group, value) of every row of `from`, in row order. */
async function pairs(db: Duck, from: string, varying: readonly string[], index: HashIndex): Promise<Pairs> {
  const size = Number((await db.conn.runAndReadAll(`SELECT count(*) FROM ${from}`)).getRows()[0]?.[0])
  const out = new Pairs(size)
  const { group, value } = out
  // A missing value reads as 0, as it did through getItem; the columns are copied as typed arrays.
  const result = await db.conn.stream(`SELECT ${hashOf(varying)} AS h, coalesce(value, 0)::DOUBLE AS v FROM ${from}`)
  let lastH = Number.NaN
  let lastG = -1
  // The next chunk is asked for before this one is read: the engine makes it (on its own
  // thread) while this one is copied. A fetched chunk stays valid until it is collected.
  let next = result.fetchChunk()
  for (;;) {
    const chunk = await next
    if (!chunk || chunk.rowCount === 0) break
    next = result.fetchChunk()
    const n = chunk.rowCount
    const h = doubles(chunk.getColumnVector(0), n)
    value.set(doubles(chunk.getColumnVector(1), n), out.n)
    for (let i = 0; i < n; i++) {
      const hi = h[i] as number
      if (hi !== lastH) {
        lastH = hi
        lastG = index.get(hi)
      }
      group[out.n++] = lastG
    }
  }
  return out
}

/**
 * Reads a result set for analysis (see the module comment). A schema-1 set, or parts whose
 * conditions hash alike, are read as rows (`loadSet`). Unreadable parts are diagnostics,
 * passed to the caller's withLoadNotes collector as `loadSet` does.
 */
export async function loadSamples(dir: string): Promise<SampleSet> {
  const store = await import('./_store.ts')
  const parts = await import('./_parts.ts')
  const all = parts.listParts(dir)
  const asRows = async (): Promise<SampleSet> => {
    const s = await store.loadSet(dir)
    return { ...s, count: s.rows.length }
  }
  if (store.legacySamples(dir) !== undefined || all.length === 0) return asRows()
  const manifest = store.readManifest(dir)
  const d = await import('./_duck.ts')
  const db = await d.openDuck()
  try {
    const diagnostics: Diagnostic[] = []
    const readable = await parts.readableParts(db, all, (x) => diagnostics.push(x))
    const from = `read_parquet([${readable.map(d.sqlString).join(', ')}])`
    const varying = await varyingColumns(db, readable, KEYS)
    const reps = readable.length ? await groups(db, from, varying) : new Map<number, Row>()
    if (reps === undefined) return asRows()
    const index = new HashIndex([...reps.keys()])
    const p = readable.length ? await pairs(db, from, varying, index) : new Pairs(0)
    noteLoad(diagnostics)
    return { dir, manifest, diagnostics, count: p.n, rows: indexedRows([...reps.values()], p.group, p.value, p.n) }
  } finally {
    db.close()
  }
}

/** What the analyses read: a LoadedSet (rows in memory) or a SampleSet (rows replayed). */
export type ReadSet = Pick<SampleSet, 'dir' | 'manifest' | 'diagnostics' | 'rows'> & { count?: number }

/** The number of rows of `set`. */
export function rowCount(set: ReadSet): number {
  if (set.count !== undefined) return set.count
  if (Array.isArray(set.rows)) return set.rows.length
  let n = 0
  for (const _ of set.rows) n++
  return n
}
