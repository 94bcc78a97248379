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
  const prev = Buffer.alloc(stride)
  const cur = Buffer.alloc(stride)
  let ink = 0
  let box: PngInfo['ink'] = null
  const colours = new Set<number>()
  for (let y = 0; y < height; y++) {
    const base = y * (stride + 1)
    const filter = raw[base] as number
    for (let x = 0; x < stride; x++) {
      const v = raw[base + 1 + x] as number
      const a = x >= channels ? (cur[x - channels] as number) : 0
      const b = prev[x] as number
      const c = x >= channels ? (prev[x - channels] as number) : 0
      cur[x] = (v + unfilter(filter, a, b, c)) & 0xff
    }
    for (let x = 0; x < width; x++) {
      const i = x * channels
      const r = cur[i] as number,
        g = cur[i + 1] as number,
        bl = cur[i + 2] as number
      if (r < 240 || g < 240 || bl < 240) {
        ink++
        box = box ?? { x1: x, y1: y, x2: x + 1, y2: y + 1 }
        box.x1 = Math.min(box.x1, x)
        box.x2 = Math.max(box.x2, x + 1)
        box.y2 = y + 1
      }
      if (colours.size < 4096) colours.add((r << 16) | (g << 8) | bl)
    }
    cur.copy(prev)
  }
  return { width, height, inkFraction: ink / (width * height), colours: colours.size, ink: box }
}

function unfilter(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 1:
      return a
    case 2:
      return b
    case 3:
      return (a + b) >> 1
    case 4: {
      const p = a + b - c
      const pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c)
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
    default:
      return 0
  }
}
