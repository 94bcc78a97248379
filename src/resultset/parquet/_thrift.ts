/**
 * Just enough of Thrift's compact protocol to write Parquet's footer and page headers: a
 * struct is a list of fields, each with its id, its type and its value (undefined fields are
 * left out). Integers are zigzag varints, exact up to 2^53.
 */

/** A field: [id, type, value]; a list names its elements' type. */
export type Field =
  | [number, 'i32' | 'i64', number | undefined]
  | [number, 'bool', boolean | undefined]
  | [number, 'bin', string | Uint8Array | undefined]
  | [number, 'struct', Field[] | undefined]
  | [number, 'list', ListOf | undefined]

/** The elements of a list field. */
export type ListOf = { i32: number[] } | { bin: string[] } | { struct: Field[][] }

/** Compact protocol type codes. */
const T = { true: 1, false: 2, i32: 5, i64: 6, bin: 8, list: 9, struct: 12 } as const

/** A growable byte buffer. */
export class Bytes {
  buf = new Uint8Array(256)
  length = 0
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n))
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
  }
  byte(b: number): void {
    this.room(1)
    this.buf[this.length++] = b
  }
  bytes(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }
  /** An unsigned varint (n ≥ 0, below 2^53). */
  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80)
      n = Math.floor(n / 0x80)
    }
    this.byte(n)
  }
  /** The bytes written so far (a view). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length)
  }
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1)
const utf8 = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s)

function binary(out: Bytes, v: string | Uint8Array): void {
  const b = utf8(v)
  out.varint(b.length)
  out.bytes(b)
}

function list(out: Bytes, l: ListOf): void {
  const [type, items] =
    'i32' in l ? (['i32', l.i32] as const) : 'bin' in l ? (['bin', l.bin] as const) : (['struct', l.struct] as const)
  if (items.length < 15) out.byte((items.length << 4) | T[type])
  else {
    out.byte(0xf0 | T[type])
    out.varint(items.length)
  }
  for (const x of items) {
    if (type === 'i32') out.varint(zigzag(x as number))
    else if (type === 'bin') binary(out, x as string)
    else struct(out, x as Field[])
  }
}

/** Writes a struct (its fields in increasing id order) and its stop byte. */
export function struct(out: Bytes, fields: readonly Field[]): void {
  let last = 0
  for (const [id, type, v] of fields) {
    if (v === undefined) continue
    const code = type === 'bool' ? (v ? T.true : T.false) : T[type]
    const delta = id - last
    if (delta > 0 && delta <= 15) out.byte((delta << 4) | code)
    else {
      out.byte(code)
      out.varint(zigzag(id))
    }
    last = id
    if (type === 'i32' || type === 'i64') out.varint(zigzag(v as number))
    else if (type === 'bin') binary(out, v as string | Uint8Array)
    else if (type === 'struct') struct(out, v as Field[])
    else if (type === 'list') list(out, v as ListOf)
  }
  out.byte(0)
}
