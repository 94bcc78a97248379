/**
 * A samples part written as Parquet straight from a batch's typed arrays, with no engine in
 * between: one row group, one data page per column (format v1), every column OPTIONAL.
 * Strings (and JSON objects) are dictionary-encoded with the batch's own dictionary (its
 * codes are the indices), numbers too when a part has at most 1,000 distinct ones (sizes,
 * ranks, GPU ids), other numbers and booleans PLAIN, definition levels as RLE runs.
 * A column chunk is gzip-compressed (level 1) when that makes it an eighth smaller or more. Every chunk has its
 * null count, and min and max (but a DOUBLE column's are left out, as NaN is null here),
 * which is what `varyingColumns` reads from the footers. The schema is the one DuckDB's COPY
 * writes for the same columns (VARCHAR as UTF-8 BYTE_ARRAY, DOUBLE, INT32, BOOLEAN, all
 * OPTIONAL): the tests check it against a COPY of the part.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import type { Row } from '../../model/index.ts'
import type { Encoded } from '../_columns.ts'
import { COLUMNS, encode } from '../_columns.ts'
import { sha256 } from './_commit.ts'
import { defLevels, dictionary, numberDict, statistics, values } from './_parquet-values.ts'
import type { Field } from './_thrift.ts'
import { Bytes, struct } from './_thrift.ts'

/** Parquet's enums, as far as they are used here. */
const TYPE = { BOOLEAN: 0, INT32: 1, DOUBLE: 5, BYTE_ARRAY: 6 } as const
const ENC = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const
const CODEC = { UNCOMPRESSED: 0, GZIP: 2 } as const
const PAGE = { DATA: 0, DICTIONARY: 2 } as const
const OPTIONAL = 1
/** Converted types (the annotations DuckDB writes: no logical types). */
const UTF8 = 0
const INT_32 = 17

const typeOf = (e: Encoded): number =>
  e.kind === 'num' ? TYPE.DOUBLE : e.kind === 'int' ? TYPE.INT32 : e.kind === 'bool' ? TYPE.BOOLEAN : TYPE.BYTE_ARRAY

/** The sample of a chunk that is compressed first, to see whether the rest is worth it. */
const SAMPLE = 1 << 16

/**
 * The chunk gzipped (level 1), or undefined when that does not shrink it by an eighth or
 * more: inflating it would cost every reader more than the bytes save (measured doubles
 * gain about 6 %). A chunk over 64 KiB is tried on its first 64 KiB first.
 */
function gzipped(data: Uint8Array): Uint8Array | undefined {
  const worth = (packed: Uint8Array, raw: number): boolean => packed.length <= raw - raw / 8
  if (data.length > SAMPLE && !worth(gzipSync(data.subarray(0, SAMPLE), { level: 1 }), SAMPLE)) return undefined
  const packed = gzipSync(data, { level: 1 })
  return worth(packed, data.length) ? packed : undefined
}

interface Chunk {
  pages: Uint8Array[]
  meta: Field[]
  /** Its bytes before compression (page headers included). */
  raw: number
}

/**
 * One column chunk at file offset `at`: its pages (header, body each: a dictionary page where
 * the column has one, then one data page) and its ColumnMetaData. PageHeader: 1 type, 2
 * uncompressed and 3 compressed size, 5 DataPageHeader (1 values, 2 encoding, 3 and 4 the
 * level encodings), 7 DictionaryPageHeader (1 values, 2 encoding). ColumnMetaData: 1 type, 2
 * encodings, 3 path, 4 codec, 5 values, 6 and 7 total sizes, 9 data page offset, 11
 * dictionary page offset, 12 statistics.
 */
function columnChunk(e: Encoded, name: string, at: number): Chunk {
  const body = new Bytes()
  const nulls = defLevels(body, e)
  const numbers = numberDict(e)
  values(body, e, numbers)
  const rows = e.data.length
  const size = numbers ? numbers.values.length : e.dict.length
  const dict = numbers || ((e.kind === 'str' || e.kind === 'json') && size > 0) ? dictionary(e, numbers) : undefined
  const data = body.view()
  const packed = gzipped(data)
  const gzip = packed !== undefined
  const pages: Uint8Array[] = []
  let uncompressed = 0
  let offset = at
  let dictOffset: number | undefined
  // A page: its header (1 type, 2 and 3 its sizes, then the header of its kind), then its body.
  const page = (type: number, kind: number, header: Field[], raw: Uint8Array, stored: Uint8Array): void => {
    const h = new Bytes()
    struct(h, [
      [1, 'i32', type],
      [2, 'i32', raw.length],
      [3, 'i32', stored.length],
      [kind, 'struct', header],
    ])
    pages.push(h.view(), stored)
    uncompressed += h.length + raw.length
    offset += h.length + stored.length
  }
  if (dict) {
    dictOffset = offset
    const values: Field[] = [
      [1, 'i32', size],
      [2, 'i32', ENC.PLAIN],
    ]
    page(PAGE.DICTIONARY, 7, values, dict, gzip ? gzipSync(dict, { level: 1 }) : dict)
  }
  const dataOffset = offset
  const levels: Field[] = [
    [1, 'i32', rows],
    [2, 'i32', dict ? ENC.RLE_DICTIONARY : ENC.PLAIN],
    [3, 'i32', ENC.RLE],
    [4, 'i32', ENC.RLE],
  ]
  page(PAGE.DATA, 5, levels, data, packed ?? data)
  const meta: Field[] = [
    [1, 'i32', typeOf(e)],
    [2, 'list', { i32: dict ? [ENC.PLAIN, ENC.RLE, ENC.RLE_DICTIONARY] : [ENC.PLAIN, ENC.RLE] }],
    [3, 'list', { bin: [name] }],
    [4, 'i32', gzip ? CODEC.GZIP : CODEC.UNCOMPRESSED],
    [5, 'i64', rows],
    [6, 'i64', uncompressed],
    [7, 'i64', offset - at],
    [9, 'i64', dataOffset],
    [11, 'i64', dictOffset],
    [12, 'struct', statistics(e, nulls)],
  ]
  return { pages, meta, raw: uncompressed }
}

/** The schema element of a column. */
function schemaElement(e: Encoded, name: string): Field[] {
  const str = e.kind === 'str' || e.kind === 'json'
  return [
    [1, 'i32', typeOf(e)],
    [3, 'i32', OPTIONAL],
    [4, 'bin', name],
    [6, 'i32', str ? UTF8 : e.kind === 'int' ? INT_32 : undefined],
  ]
}

const MAGIC = Buffer.from('PAR1')

/**
 * The bytes of a Parquet file holding a batch's encoded columns (all of one length, at least
 * one row, COLUMNS order), with `kv` as the file's key–value metadata. Field ids are those of
 * parquet.thrift: FileMetaData 1 version, 2 schema, 3 num_rows, 4 row_groups, 5
 * key_value_metadata, 6 created_by, 7 column_orders (TYPE_ORDER, so readers trust min and
 * max); RowGroup 1 columns, 2 total_byte_size, 3 num_rows, 5 file_offset, 6
 * total_compressed_size; ColumnChunk 2 file_offset, 3 meta_data.
 */
function parquetBytes(cols: readonly Encoded[], kv: Record<string, string> = {}): Buffer[] {
  const rows = (cols[0] as Encoded).data.length
  const out: Uint8Array[] = [MAGIC]
  let at = MAGIC.length
  const chunks = cols.map((e, j) => {
    const c = columnChunk(e, COLUMNS[j]?.name as string, at)
    const start = at
    for (const p of c.pages) {
      out.push(p)
      at += p.length
    }
    return { start, c }
  })
  const footer = new Bytes()
  struct(footer, [
    [1, 'i32', 1],
    schemaField(cols),
    [3, 'i64', rows],
    rowGroupField(chunks, rows, at - MAGIC.length),
    kvField(kv),
    [6, 'bin', 'gpucomm'],
    [7, 'list', { struct: cols.map(() => [[1, 'struct', []]]) }],
  ])
  const len = Buffer.alloc(4)
  len.writeUInt32LE(footer.length)
  return [...out.map((b) => Buffer.from(b.buffer, b.byteOffset, b.length)), Buffer.from(footer.view()), len, MAGIC]
}

/** FileMetaData 2: the root element, then one element per column. */
function schemaField(cols: readonly Encoded[]): Field {
  const root: Field[] = [
    [4, 'bin', 'schema'],
    [5, 'i32', cols.length],
  ]
  return [2, 'list', { struct: [root, ...cols.map((e, j) => schemaElement(e, COLUMNS[j]?.name as string))] }]
}

/** FileMetaData 4: the one row group, its column chunks starting at their offsets (`total`: their bytes). */
function rowGroupField(chunks: readonly { start: number; c: Chunk }[], rows: number, total: number): Field {
  const columns: Field = [
    1,
    'list',
    {
      struct: chunks.map(({ start, c }) => [
        [2, 'i64', start],
        [3, 'struct', c.meta],
      ]),
    },
  ]
  const group: Field[] = [
    columns,
    [2, 'i64', chunks.reduce((a, { c }) => a + c.raw, 0)],
    [3, 'i64', rows],
    [5, 'i64', MAGIC.length],
    [6, 'i64', total],
  ]
  return [4, 'list', { struct: [group] }]
}

/** FileMetaData 5: the key–value metadata, absent when there is none. */
function kvField(kv: Record<string, string>): Field {
  if (Object.keys(kv).length === 0) return [5, 'list', undefined]
  return [
    5,
    'list',
    {
      struct: Object.entries(kv).map(([k, v]) => [
        [1, 'bin', k],
        [2, 'bin', v],
      ]),
    },
  ]
}

/** The key under which a part's file metadata lists the distinct values of its string columns. */
export const DICTS_KEY = 'gpucomm_dicts'

/**
 * The distinct values of each string column ({column: values}), stored in the part's
 * metadata so a reader learns them without scanning the part.
 */
function dicts(cols: readonly Encoded[]): Record<string, string> {
  const out: Record<string, string[]> = {}
  cols.forEach((e, j) => {
    if (e.kind === 'str' || e.kind === 'json') out[(COLUMNS[j] as { name: string }).name] = e.dict
  })
  return { [DICTS_KEY]: JSON.stringify(out) }
}

/**
 * Writes a batch's encoded columns (all of one length, COLUMNS order) as the Parquet part
 * `path`, atomically: a temp file beside it, then rename (the temp file never stays behind).
 * Nothing is written for no rows. Returns the sha256 of the bytes written (the part's commit record).
 */
export function writeParquetPart(cols: readonly Encoded[], path: string): string | undefined {
  if ((cols[0]?.data.length ?? 0) === 0) return undefined
  const tmp = `${path}.${process.pid}.tmp`
  try {
    const bytes = Buffer.concat(parquetBytes(cols, dicts(cols)))
    writeFileSync(tmp, bytes)
    renameSync(tmp, path)
    return sha256(bytes)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}

/** Writes `rows` as the Parquet part `path` (see writeParquetPart); returns its sha256. */
export function writeRowsPart(rows: readonly Row[], path: string): string | undefined {
  return writeParquetPart(encode(rows), path)
}
