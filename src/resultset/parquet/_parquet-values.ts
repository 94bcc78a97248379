/**
 * How the values of one column chunk of a samples part are encoded (see _parquet.ts):
 * definition levels and dictionary indices as runs of the RLE/bit-packed hybrid, numbers
 * PLAIN (little-endian), booleans bit-packed, the chunk's statistics.
 */
import { endianness } from 'node:os'
import type { Encoded } from '../_columns.ts'
import type { Bytes, Field } from './_thrift.ts'

/** Appends `n` copies of `value` as one RLE run of the hybrid encoding (`width` bytes a value). */
function run(out: Bytes, n: number, value: number, width: number): void {
  out.varint(n * 2)
  for (let b = 0; b < width; b++) out.byte((value >>> (8 * b)) & 0xff)
}

/**
 * The definition levels (1 = a value) as RLE runs, behind their 4-byte length; returns the
 * nulls (see Encoded: NaN in a number column, code 0 in the others; an int column has none).
 */
export function defLevels(out: Bytes, e: Encoded): number {
  const start = out.length
  out.bytes(new Uint8Array(4))
  const d = e.data
  const n = d.length
  let nulls = 0
  if (e.kind === 'int') run(out, n, 1, 1)
  else {
    const num = e.kind === 'num'
    let i = 0
    while (i < n) {
      const x = d[i] as number
      const isNull = num ? Number.isNaN(x) : x === 0
      let j = i + 1
      if (num) while (j < n && Number.isNaN(d[j]) === isNull) j++
      else while (j < n && (d[j] === 0) === isNull) j++
      run(out, j - i, isNull ? 0 : 1, 1)
      if (isNull) nulls += j - i
      i = j
    }
  }
  new DataView(out.buf.buffer, out.buf.byteOffset + start, 4).setUint32(0, out.length - start - 4, true)
  return nulls
}

const LITTLE_ENDIAN = endianness() === 'LE'

/** The bits needed for the indices of a dictionary of `size` values (at least 1). */
const bitWidth = (size: number): number => Math.max(1, Math.ceil(Math.log2(Math.max(size, 1))))

/** The values of `d` that are not NaN (`d` itself when all are). */
function nonNull(d: Float64Array): Float64Array {
  let k = 0
  for (let i = 0; i < d.length; i++) if (!Number.isNaN(d[i])) k++
  if (k === d.length) return d
  const out = new Float64Array(k)
  k = 0
  for (let i = 0; i < d.length; i++) {
    const x = d[i] as number
    if (!Number.isNaN(x)) out[k++] = x
  }
  return out
}

/** Numbers as PLAIN bytes: the typed array's own where they are little-endian already. */
function plain(kept: Float64Array | Int32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(kept.buffer, kept.byteOffset, kept.byteLength)
  const view = new DataView(new ArrayBuffer(kept.byteLength))
  kept.forEach((x, i) =>
    kept instanceof Float64Array ? view.setFloat64(8 * i, x, true) : view.setInt32(4 * i, x, true),
  )
  return new Uint8Array(view.buffer)
}

/** At most this many distinct numbers make a dictionary (the limit gpucomm gave DuckDB's writer). */
const NUMBER_DICT_LIMIT = 1000

/** A number column as a dictionary: its distinct values, and each row's code (0 null, k values[k-1]). */
export interface NumberDict {
  values: Float64Array | Int32Array
  codes: Int32Array
}

/**
 * A number column as a dictionary, or undefined when it is all null, has more than
 * NUMBER_DICT_LIMIT distinct values, or a −0 (a dictionary keyed by value would give it back as 0). Looks a
 * value up only where it differs from the row before.
 */
export function numberDict(e: Encoded): NumberDict | undefined {
  if (e.kind !== 'num' && e.kind !== 'int') return undefined
  const d = e.data
  const codes = new Int32Array(d.length)
  const seen = new Map<number, number>()
  const distinct: number[] = []
  let prev = Number.NaN
  let code = 0
  for (let i = 0; i < d.length; i++) {
    const x = d[i] as number
    if (x === 0 && 1 / x < 0) return undefined
    if (x !== prev) {
      let c = Number.isNaN(x) ? 0 : seen.get(x)
      if (c === undefined) {
        if (distinct.length === NUMBER_DICT_LIMIT) return undefined
        distinct.push(x)
        c = distinct.length
        seen.set(x, c)
      }
      code = c
      prev = x
    }
    codes[i] = code
  }
  if (distinct.length === 0) return undefined
  return { values: e.kind === 'num' ? Float64Array.from(distinct) : Int32Array.from(distinct), codes }
}

/** Dictionary codes (0 null) as the bit width of `size` indices, then RLE runs of the non-null ones. */
function indices(out: Bytes, codes: Float64Array | Int32Array, size: number): void {
  const width = bitWidth(size)
  out.byte(width)
  const n = codes.length
  let i = 0
  while (i < n) {
    const code = codes[i] as number
    let j = i + 1
    while (j < n && codes[j] === code) j++
    if (code !== 0) run(out, j - i, code - 1, Math.ceil(width / 8))
    i = j
  }
}

/**
 * The values of the non-null rows, encoded: dictionary indices as RLE runs (string columns,
 * and number columns with a NumberDict), PLAIN numbers, or booleans bit-packed.
 */
export function values(out: Bytes, e: Encoded, numbers?: NumberDict): void {
  const d = e.data
  const n = d.length
  if (numbers) indices(out, numbers.codes, numbers.values.length)
  else if (e.kind === 'num') out.bytes(plain(nonNull(d as Float64Array)))
  else if (e.kind === 'int') out.bytes(plain(d))
  else if (e.kind === 'bool') {
    const bits = new Uint8Array(Math.ceil(n / 8))
    let k = 0
    for (let i = 0; i < n; i++) {
      const x = d[i] as number
      if (x === 0) continue
      if (x === 2) bits[k >> 3] = (bits[k >> 3] as number) | (1 << (k & 7))
      k++
    }
    out.bytes(bits.subarray(0, Math.ceil(k / 8)))
  } else if (e.dict.length > 0) indices(out, d, e.dict.length)
}

/** PLAIN bytes of one statistic value of a non-DOUBLE column. */
function statBytes(e: Encoded, x: number): Uint8Array {
  if (e.kind === 'int') {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setInt32(0, x, true)
    return b
  }
  if (e.kind === 'bool') return Uint8Array.of(x === 2 ? 1 : 0)
  return Buffer.from(e.dict[x - 1] as string, 'utf8')
}

/** The chunk's statistics: null count, and min and max of its values (not for DOUBLE). */
export function statistics(e: Encoded, nulls: number): Field[] {
  const n = e.data.length
  const fields: Field[] = [[3, 'i64', nulls]]
  if (nulls === n || e.kind === 'num') return fields
  let lo: number | undefined
  let hi: number | undefined
  const before = (a: number, b: number): boolean =>
    e.kind === 'str' || e.kind === 'json'
      ? Buffer.compare(Buffer.from(e.dict[a - 1] as string), Buffer.from(e.dict[b - 1] as string)) < 0
      : a < b
  if (e.kind === 'str' || e.kind === 'json')
    for (let c = 1; c <= e.dict.length; c++) {
      if (lo === undefined || before(c, lo)) lo = c
      if (hi === undefined || before(hi, c)) hi = c
    }
  else
    for (let i = 0; i < n; i++) {
      const x = e.data[i] as number
      if (e.kind === 'bool' && x === 0) continue
      if (lo === undefined || x < lo) lo = x
      if (hi === undefined || x > hi) hi = x
    }
  if (lo === undefined || hi === undefined) return fields
  return [...fields, [5, 'bin', statBytes(e, hi)], [6, 'bin', statBytes(e, lo)]]
}

/** The PLAIN dictionary page body of a string column, or of a number column's NumberDict. */
export function dictionary(e: Encoded, numbers?: NumberDict): Uint8Array {
  if (numbers) return plain(numbers.values)
  const parts = e.dict.map((s) => Buffer.from(s, 'utf8'))
  const out = Buffer.alloc(parts.reduce((a, b) => a + 4 + b.length, 0))
  let at = 0
  for (const p of parts) {
    out.writeUInt32LE(p.length, at)
    out.set(p, at + 4)
    at += 4 + p.length
  }
  return out
}
