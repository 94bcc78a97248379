/** One pair's latency rows built launch by launch, for the α-interval tests. */
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'

export interface Launch {
  /** µs added to every value of the launch. */
  level: number
  /** The sizes it measured (bytes; default 8 and 64). */
  sizes?: readonly number[]
  /** Iterations per size (default 1); iteration i adds (i % 5) × 0.01 µs. */
  iters?: number
}

/** One pair's latency rows, launch by launch (trial = launch); time = level + size × slope µs. */
export function launchRows(launches: readonly Launch[], slope = 1e-4): Row[] {
  const out: Row[] = []
  launches.forEach(({ level, sizes = [8, 64], iters = 1 }, l) => {
    for (const sizeBytes of sizes)
      for (let i = 0; i < iters; i++)
        out.push(
          makeRow({
            bench: 'p2p.latency',
            metric: 'latency',
            unit: 's',
            value: (level + sizeBytes * slope + (i % 5) * 1e-2) * 1e-6,
            sizeBytes,
            src: 0,
            dst: 1,
            p2p: 'enabled',
            trial: l + 1,
            source: { file: 'x.txt', line: 1 },
          }),
        )
  })
  return out
}
