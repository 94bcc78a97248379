/**
 * Generated result sets for the analysis tests (named generated-…): rows with a known
 * α and β per pair or group and seeded log-normal noise, written as a real result set.
 */
import { join } from 'node:path'
import { mulberry32 } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { Appender, newManifest, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'

/** A seeded standard normal generator (Box–Muller over mulberry32). */
export function normal(seed: number): () => number {
  const u = mulberry32(seed)
  return () => {
    let a = 0
    while (a === 0) a = u()
    return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u())
  }
}

/** Sizes 8 B … 64 MiB, ×2. */
export const SIZES = Array.from({ length: 24 }, (_, i) => 8 * 2 ** i)

/** Options of one generated series. */
export interface GenSeries {
  alpha: number
  beta: number
  /** Rows stamped on every sample (bench, src/dst or group/ranks/grouping, p2p, …). */
  row: Partial<Row> & { bench: string }
  sizes?: readonly number[]
  trials?: number
  iterations?: number
  /** σ of the log-normal noise (default 0.03). */
  sigma?: number
}

/** Rows of one series: time = (α + size/β)·exp(σ·N(0,1)). */
export function seriesRows(g: GenSeries, rnd: () => number): Row[] {
  const rows: Row[] = []
  let line = 0
  for (const size of g.sizes ?? SIZES) {
    for (let t = 0; t < (g.trials ?? 3); t++) {
      for (let i = 0; i < (g.iterations ?? 5); i++) {
        const value = (g.alpha + size / g.beta) * Math.exp((g.sigma ?? 0.03) * rnd())
        rows.push(
          makeRow({
            metric: 'time',
            unit: 's',
            value,
            sizeBytes: size,
            trial: t,
            iteration: i,
            timer: 'gpu',
            source: { file: 'generated', line: ++line },
            ...g.row,
          }),
        )
      }
    }
  }
  return rows
}

/** Writes rows as a result set in a fresh temp dir and returns the directory. */
export async function writeSet(
  rows: readonly Row[],
  extra: { gpuName?: string; topology?: unknown } = {},
): Promise<string> {
  const dir = join(tmp('gpucomm-analysis-'), 'generated-set')
  const m = newManifest({
    origin: 'sweep',
    simulated: true,
    command: ['generated-by-test'],
    instrument: { name: 'generated-test' },
  })
  if (extra.gpuName) m.host = { gpus: [{ index: 0, name: extra.gpuName }] }
  if (extra.topology) m.extra = { topology: extra.topology }
  writeManifest(dir, m)
  const a = await Appender.open(dir)
  await a.append(rows)
  a.close()
  return dir
}
