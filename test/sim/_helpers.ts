/** Helpers of the simulator tests: minimal readers of the simulated text, independent of src/parsers. */

/** One nccl-tests data row, split into fields. */
export interface NcclRow {
  size: number
  count: number
  type: string
  redop: string
  root: string
  oop: { time: number; algbw: number; busbw: number; wrong: string }
  ip: { time: number; algbw: number; busbw: number; wrong: string }
}

/** The data rows of an nccl-tests text (lines of ≥ 13 fields starting with two integers). */
export function ncclRows(text: string): NcclRow[] {
  return text
    .split('\n')
    .filter((l) => /^\s+\d+\s+\d+\s+\S+\s+\S+\s+-?\d+\s/.test(l))
    .map((l) => {
      const f = l.trim().split(/\s+/)
      const half = (i: number) => ({
        time: Number(f[i]),
        algbw: Number(f[i + 1]),
        busbw: Number(f[i + 2]),
        wrong: f[i + 3] as string,
      })
      return {
        size: Number(f[0]),
        count: Number(f[1]),
        type: f[2] as string,
        redop: f[3] as string,
        root: f[4] as string,
        oop: half(5),
        ip: half(9),
      }
    })
}

/** A p2p matrix by its title (and for latency sections, 'GPU' or 'CPU'): rows of numbers. */
export function p2pMatrix(text: string, title: string, timer: 'GPU' | 'CPU' = 'GPU'): number[][] {
  const lines = text.split('\n')
  let i = lines.indexOf(title)
  if (i < 0) throw new Error(`no section ${title}`)
  i++
  if (timer === 'CPU') while (!lines[i]?.startsWith('   CPU')) i++
  const rows: number[][] = []
  for (let k = i + 1; k < lines.length && /^\s+\d+ /.test(lines[k] as string); k++)
    rows.push((lines[k] as string).trim().split(/\s+/).slice(1).map(Number))
  return rows
}

/** Median of numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** Least-squares line y = a + b·x. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { a: number; b: number } {
  const n = xs.length
  const mx = xs.reduce((s, x) => s + x, 0) / n
  const my = ys.reduce((s, y) => s + y, 0) / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    sxy += ((xs[i] as number) - mx) * ((ys[i] as number) - my)
    sxx += ((xs[i] as number) - mx) ** 2
  }
  const b = sxy / sxx
  return { a: my - b * mx, b }
}
