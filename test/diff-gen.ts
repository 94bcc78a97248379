/**
 * Generated (not measured) result sets for the stats/diff tests and bench/diff.bench.ts:
 * seeded log-normal samples per cell, written as rows of a result set. Every generated
 * set says so in its manifest command (`generated-…`).
 */

import type { Row } from '../src/model/index.ts'
import { normals, mulberry32 as rng } from '../src/random/index.ts'
import type { LoadedSet } from '../src/resultset/index.ts'
import { Appender, newManifest, writeManifest } from '../src/resultset/index.ts'

/** What to generate. */
export interface GenSpec {
  seed: number
  /** Number of GPU pairs (src→dst), each with `sizes` sizes, two metrics (latency, bandwidth). */
  pairs: number
  sizes: number
  /** Values per cell. */
  n: number
  /** σ of ln(value): the relative noise (0.05 ≈ 5 %). */
  sigma?: number
  /** Multiplies every latency by (1 + shift) and divides every bandwidth by it. */
  shift?: number
  /** Launches (trials) the n values are spread over; default n (every value is an independent launch). */
  launches?: number
}

/**
 * Rows of a generated set: for pair (s, d) and size 8·4^k bytes, `p2p.latency` rows around
 * 10 µs·(1 + k/4) and `p2p.bw_uni` bandwidth rows around 20 GB/s, log-normal noise.
 */
export function* genRows(spec: GenSpec): Generator<Row> {
  const z = normals(rng(spec.seed))
  const sigma = spec.sigma ?? 0.05
  const f = 1 + (spec.shift ?? 0)
  const launches = spec.launches ?? spec.n
  for (let p = 0; p < spec.pairs; p++) {
    // Ordered pairs of 8 GPUs (56); beyond that a grouping name keeps cells distinct.
    const src = Math.floor(p / 7) % 8
    const dst = (src + 1 + (p % 7)) % 8
    const grouping = p >= 56 ? `g${Math.floor(p / 56)}` : undefined
    for (let k = 0; k < spec.sizes; k++) {
      const sizeBytes = 8 * 4 ** k
      for (let i = 0; i < spec.n; i++) {
        const trial = i % launches
        const row = (bench: string, metric: Row['metric'], unit: Row['unit'], value: number): Row => {
          // One literal shape for every row (no spreads): small objects, fast to build.
          const r: Row = {
            bench,
            metric,
            unit,
            value,
            sizeBytes,
            ranks: null,
            src,
            dst,
            placement: null,
            p2p: 'disabled',
            timer: 'gpu',
            trial,
            source: { file: 'raw/generated.txt', line: i + 1 },
            copy: 'ce',
            iteration: i,
          }
          if (grouping !== undefined) r.grouping = grouping
          return r
        }
        yield row('p2p.latency', 'latency', 's', 10e-6 * (1 + k / 4) * f * Math.exp(sigma * z()))
        yield row('p2p.bw_uni', 'bandwidth', 'B/s', (20e9 / f) * Math.exp(sigma * z()))
      }
    }
  }
}

/** An in-memory LoadedSet of generated rows (no disk). */
export function genSet(spec: GenSpec, opts: { simulated?: boolean; dir?: string } = {}): LoadedSet {
  const manifest = newManifest({
    origin: 'sweep',
    simulated: opts.simulated ?? false,
    command: ['generated-set', `seed=${spec.seed}`],
  })
  return { dir: opts.dir ?? `generated-${spec.seed}`, manifest, rows: [...genRows(spec)], diagnostics: [] }
}

/** Writes a generated set to `dir` as a result set (manifest.json + one samples part). */
export async function writeGenSet(dir: string, spec: GenSpec, opts: { simulated?: boolean } = {}): Promise<void> {
  const set = genSet(spec, { ...opts, dir })
  writeManifest(dir, set.manifest)
  const app = await Appender.open(dir)
  await app.append(set.rows)
  app.close()
}
