/**
 * Generated cluster-sweep rows for the fleet analysis' unit tests (named generated-fleet):
 * per-node all_reduce and node-pairs sendrecv rows with a fixed, noise-free pattern, so that
 * every unit's value is known exactly. At each end of the sizes (8, 32, 128 B and 8, 32,
 * 128 MiB), two trials carry the factors 0.98, 1, 1.02 and 0.99, 1, 1.01: six samples whose
 * median is exactly the unit's nominal value; busbw at the small sizes is a thousandth of it, time
 * at the large sizes a thousand times.
 */
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'

export const MIB = 2 ** 20
export const SIZES = [8, 32, 128, 8 * MIB, 32 * MIB, 128 * MIB]
/** The factor of trial t at size index i (0–2 the small end, 3–5 the large end). */
export const WIGGLE = [
  [0.98, 1, 1.02, 0.98, 1, 1.02],
  [0.99, 1, 1.01, 0.99, 1, 1.01],
]
export const INTRA_BW = 100e9
export const INTRA_LAT = 20e-6
export const NET_BW = 40e9
export const NET_LAT = 10e-6

/** node01 … nodeNN. */
export const nodeNames = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `node${String(i + 1).padStart(2, '0')}`)

let line = 0
/** Busbw and time rows of one unit at every size and trial; `cell` may change one busbw cell. */
export function unitRows(
  row: Partial<Row> & { bench: string; host: string; grouping: string },
  bw: number,
  lat: number,
  cell: (trial: number, i: number, v: number) => number = (_t, _i, v) => v,
  trials = 2,
): Row[] {
  const out: Row[] = []
  for (let t = 0; t < trials; t++)
    SIZES.forEach((size, i) => {
      const w = (WIGGLE[t % 2] as number[])[i] as number
      const source = { file: 'generated-fleet', line: ++line }
      // The bandwidth end (i ≥ 3) at `bw`, the latency end at `lat`; the other end far from them.
      const busbw = cell(t, i, i >= 3 ? bw * w : (bw * w) / 1000)
      const time = i < 3 ? lat * w : lat * w * 1000
      out.push(makeRow({ ...row, metric: 'busbw', unit: 'B/s', value: busbw, sizeBytes: size, trial: t, source }))
      out.push(makeRow({ ...row, metric: 'time', unit: 's', value: time, sizeBytes: size, trial: t, source }))
    })
  return out
}

/** Factors of one node or link (1 when not given). */
export interface Faults {
  intraBw?: number
  intraLat?: number
  netBw?: number
  netLat?: number
}

/** Per-node rows of `bench` for each node, with its faults. */
export function perNodeRows(
  nodes: readonly string[],
  faults: Record<string, Faults> = {},
  bench = 'nccl.all_reduce',
  trials = 2,
): Row[] {
  return nodes.flatMap((h) =>
    unitRows(
      { bench, host: h, grouping: 'per-node', ranks: 8 },
      INTRA_BW * (faults[h]?.intraBw ?? 1),
      INTRA_LAT * (faults[h]?.intraLat ?? 1),
      undefined,
      trials,
    ),
  )
}

/**
 * Node-pairs sendrecv rows for every pair; a node's net faults apply to each of its links, a
 * link's (key "nodeA,nodeB") to that link; `cell` may change single busbw cells of a link.
 */
export function pairRows(
  nodes: readonly string[],
  faults: Record<string, Faults> = {},
  cell?: (hosts: string[], trial: number, i: number, v: number) => number,
): Row[] {
  const out: Row[] = []
  for (let a = 0; a < nodes.length; a++)
    for (let b = a + 1; b < nodes.length; b++) {
      const hosts = [nodes[a] as string, nodes[b] as string]
      const key = hosts.join(',')
      const f = [faults[hosts[0] as string], faults[hosts[1] as string], faults[key]]
      const bw = f.reduce((x, g) => x * (g?.netBw ?? 1), NET_BW)
      const lat = f.reduce((x, g) => x * (g?.netLat ?? 1), NET_LAT)
      out.push(
        ...unitRows(
          { bench: 'nccl.sendrecv', host: key, grouping: 'node-pairs', ranks: 2 },
          bw,
          lat,
          cell && ((t, i, v) => cell(hosts, t, i, v)),
        ),
      )
    }
  return out
}
