/**
 * Inputs aimed at the patterns that read untrusted text (`npm run bench -- --only aimed`;
 * the cases are test/aimed.ts's, whose answers test/unit/aimed-inputs.test.ts checks).
 * Budgets (issue #35 item 6): each 1 MB input is read in ≤ 1 s, and 4× the input costs
 * ≤ 8× the time (linear reads cost 4×; the quadratic patterns these replaced cost 16×, the
 * cubic one 64×). Each time is tinybench's least of 3 runs, so a pause from other load
 * counts once at most. A ratio of times under FLOOR_MS is not judged: at a few milliseconds a
 * collection or a cache miss moves it more than the input does (nvidia-smi -q read 0.56 ms at
 * 256 KB and 6.55 ms at 1 MB, then 3.5, 18.6 and 131 ms at 1, 4 and 16 MB), and a quadratic
 * read of 1 MB costs seconds.
 */
import { Bench } from 'tinybench'
import { AIMED } from '../test/aimed.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

const MB = 1_000_000
const FLOOR_MS = 20

/** The least time of 3 runs of each case at `bytes`, in ms, by case name. */
async function timeAt(bytes: number): Promise<Map<string, number>> {
  const bench = new Bench({ name: `aimed ${bytes}`, iterations: 3, time: 0, warmup: false, throws: true })
  for (const c of AIMED) {
    const input = c.make(bytes)
    bench.add(c.name, () => void c.run(input))
  }
  await bench.run()
  return new Map(
    bench.tasks.map((t) => [t.name, (t.result as { latency?: { min: number } }).latency?.min ?? Number.NaN]),
  )
}

export async function aimedBench(): Promise<Metric[]> {
  const quarter = await timeAt(MB / 4)
  const full = await timeAt(MB)
  return AIMED.flatMap((c): Metric[] => {
    const ms = full.get(c.name) ?? Number.NaN
    const growth = ms / (quarter.get(c.name) ?? Number.NaN)
    return [
      {
        metric: `aimed: ${c.name}, 1 MB`,
        value: round(ms),
        unit: 'ms',
        budget: '≤ 1000 ms',
        holds: ms <= 1000,
        note: `aimed at ${c.aim}`,
      },
      {
        metric: `aimed: ${c.name}, time at 1 MB / at 256 KB`,
        value: round(growth),
        unit: '×',
        budget: '≤ 8 (linear: 4)',
        holds: growth <= 8 || ms < FLOOR_MS,
        ...(ms < FLOOR_MS ? { note: `not judged: ${round(ms)} ms at 1 MB is under ${FLOOR_MS} ms` } : {}),
      },
    ]
  })
}

if (process.argv[1] === import.meta.filename) console.table(await aimedBench())
