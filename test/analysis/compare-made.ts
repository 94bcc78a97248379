/**
 * Hand-made comparisons for the compare output tests (generated, not real output): one bench,
 * a size both groupings measured (tp4 of two concurrent groups, 10 µs [9, 11] n=6, against
 * tp8 16 µs with an unbounded CI), and a size only tp8 measured.
 */
import type { Comparison, Conclusion, GroupingStat } from '../../src/analysis/_types.ts'

const US = 1e-6
export const stat = (
  grouping: string,
  median: number,
  ci: GroupingStat['ci'],
  n: number,
  combined: GroupingStat['combined'] = 'single',
  groups: string[] = ['0-7'],
): GroupingStat => ({
  grouping,
  n,
  median,
  ci,
  combined,
  values: [],
  groups: groups.map((group) => ({ group, n, median })),
})

export const CONCLUSION = { text: 'tp4 is 1.60 ± 0.02× faster than tp8 at 8 B (latency-bound)' } as Conclusion

export const comparison = (over: Partial<Comparison> = {}): Comparison => ({
  dir: 'sets/a',
  id: 'set-a',
  simulated: false,
  by: 'grouping',
  pool: false,
  benches: [
    {
      bench: 'nccl.all_reduce',
      metric: 'time',
      groupings: ['tp4', 'tp8'],
      sizes: [
        {
          sizeBytes: 8,
          groupings: [
            stat('tp4', 10 * US, [9 * US, 11 * US], 6, 'max', ['0-3', '4-7']),
            stat('tp8', 16 * US, [null, null], 3),
          ],
          winner: 'tp4',
          ratio: 1.6,
          p: 0.0021645,
        },
        {
          sizeBytes: 1048576,
          groupings: [stat('tp8', 2.5e-3, [2.4e-3, null], 3)],
          winner: null,
          ratio: null,
          p: null,
        },
      ],
      conclusions: [CONCLUSION],
    },
  ],
  decode: null,
  warnings: ['nccl.all_gather: only tp8 measured; nothing to compare it with'],
  ...over,
})
