import { inflateSync } from 'node:zlib'

/** Test helper: size and pixel facts of a PNG, read without a decoder library (8-bit RGB/RGBA only). */
export interface PngInfo {
  width: number
  height: number
  /** Fraction of pixels that are not (near) white. */
  inkFraction: number
  /** Number of distinct colours seen (capped at 4096). */
  colours: number
  /** The box of the non-white pixels (x2, y2 exclusive); null on a blank image. */
  ink: { x1: number; y1: number; x2: number; y2: number } | null
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what resvg writes) enough to measure ink. */
export function pngInfo(png: Buffer): PngInfo {
  const width = png.readUInt32BE(16)
  const height = png.readUInt32BE(20)
  const colourType = png[25]
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0
  if (png[24] !== 8 || channels === 0)
    throw new Error(`pngInfo: unsupported PNG (bit depth ${png[24]}, colour type ${colourType})`)
  const idat: Buffer[] = []
  for (let off = 8; off < png.length; ) {
    const len = png.readUInt32BE(off)
    const type = png.toString('latin1', off + 4, off + 8)
    if (type === 'IDAT') idat.push(png.subarray(off + 8, off + 8 + len))
    off += 12 + len
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  let prev = new Uint8Array(stride)
  let cur = new Uint8Array(stride)
  let ink = 0
  let box: PngInfo['ink'] = null
  const colours = new Set<number>()
  let last = -1
  for (let y = 0; y < height; y++) {
    const base = y * (stride + 1)
    unfilterRow(raw[base] as number, raw.subarray(base + 1, base + 1 + stride), prev, cur, channels)
    for (let x = 0; x < width; x++) {
      const i = x * channels
      const r = cur[i] as number,
        g = cur[i + 1] as number,
        bl = cur[i + 2] as number
      if (r < 240 || g < 240 || bl < 240) {
        ink++
        if (box === null) box = { x1: x, y1: y, x2: x + 1, y2: y + 1 }
        if (x < box.x1) box.x1 = x
        if (x + 1 > box.x2) box.x2 = x + 1
        box.y2 = y + 1
      }
      const colour = (r << 16) | (g << 8) | bl
      // A run of one colour (most of a chart is white) is one Set lookup, not one a pixel.
      if (colour !== last && colours.size < 4096) colours.add(colour)
      last = colour
    }
    ;[prev, cur] = [cur, prev]
  }
  return { width, height, inkFraction: ink / (width * height), colours: colours.size, ink: box }
}

/**
 * Undoes one row's PNG filter (`filter` 0-4) from the filtered bytes `row` and the row above
 * (`prev`) into `cur`; an unknown filter reads as none. One switch a row, not a call a byte.
 */
function unfilterRow(filter: number, row: Uint8Array, prev: Uint8Array, cur: Uint8Array, channels: number): void {
  const n = row.length
  switch (filter) {
    case 1:
      for (let x = 0; x < n; x++)
        cur[x] = ((row[x] as number) + (x >= channels ? (cur[x - channels] as number) : 0)) & 0xff
      return
    case 2:
      for (let x = 0; x < n; x++) cur[x] = ((row[x] as number) + (prev[x] as number)) & 0xff
      return
    case 3:
      for (let x = 0; x < n; x++) {
        const a = x >= channels ? (cur[x - channels] as number) : 0
        cur[x] = ((row[x] as number) + ((a + (prev[x] as number)) >> 1)) & 0xff
      }
      return
    case 4:
      for (let x = 0; x < n; x++) {
        const a = x >= channels ? (cur[x - channels] as number) : 0
        const b = prev[x] as number
        const c = x >= channels ? (prev[x - channels] as number) : 0
        const p = a + b - c
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c)
        cur[x] = ((row[x] as number) + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff
      }
      return
    default:
      cur.set(row)
  }
}
