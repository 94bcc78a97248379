/**
 * Hand-made comparisons for the compare output tests (generated, not real output): one bench,
 * a size both groupings measured (tp4 of two concurrent groups, 10 µs [9, 11] n=6, against
 * tp8 16 µs with an unbounded CI), and a size only tp8 measured; a decode model of three
 * plans (one without a grouping), with or without the p2p floor's readings, and its text.
 */
import type { Comparison, Conclusion, DecodeModel, GroupingStat } from '../../src/analysis/_types.ts'

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

/** A decode model: TP8 interpolated, TP4×PP2 unmeasured and measured; the readings optional. */
export const decode = (readings: boolean): DecodeModel => ({
  model: {
    id: 'm',
    name: 'Llama-x',
    layers: 80,
    hidden: 8192,
    dtypeBytes: 2,
    batch: 1,
    allreducesPerLayer: 2,
    source: '',
  },
  payloadBytes: 16384,
  allreducesPerStep: 160,
  plans: [
    {
      plan: 'TP8',
      tp: 8,
      pp: 1,
      grouping: 'tp8',
      allreduces: 160,
      allreduceTime: 20 * US,
      allreduceFrom: 'interpolated',
      sendRecvs: 0,
      sendRecvTime: null,
      sendRecvFrom: '',
      commTime: 3.2e-3,
      tokPerSec: 312.4,
    },
    {
      plan: 'TP4×PP2',
      tp: 4,
      pp: 2,
      grouping: null,
      allreduces: 160,
      allreduceTime: null,
      allreduceFrom: 'none',
      sendRecvs: 1,
      sendRecvTime: null,
      sendRecvFrom: '',
      commTime: null,
      tokPerSec: null,
    },
    {
      plan: 'TP4×PP2',
      tp: 4,
      pp: 2,
      grouping: 'tp4',
      allreduces: 160,
      allreduceTime: 15 * US,
      allreduceFrom: 'measured',
      sendRecvs: 1,
      sendRecvTime: 5 * US,
      sendRecvFrom: '',
      commTime: 2.4e-3,
      tokPerSec: 415.8,
    },
  ],
  p2pReadings: readings
    ? {
        alpha: 2 * US,
        readings: [
          {
            reading: 'per-hop',
            formula: '2(n−1)·α',
            tp8: { allreduce: 28 * US, step: 4.48e-3, tokPerSec: 223.2 },
            tp4: { allreduce: 12 * US, step: 1.92e-3, tokPerSec: 520.8 },
          },
        ],
        supported: 'per-hop',
        why: 'the measured all-reduce is nearer',
      }
    : null,
  notes: ['decode note'],
})

/** The text of `decode` up to its readings. */
export const DECODE = [
  '',
  'Decode model: Llama-x (80 layers, hidden 8192, 2 B/elem, batch 1, 2 all-reduces/layer)',
  'payload 16 KiB per all-reduce, 160 all-reduces per step',
  'plan     grouping  all-reduce  from          send/recv  comm/step  tok/s ceiling',
  '-------  --------  ----------  ------------  ---------  ---------  -------------',
  'TP8      tp8       20 µs       interpolated  -          3.2 ms     312',
  'TP4×PP2  -         -           none          1× ?       -          -',
  'TP4×PP2  tp4       15 µs       measured      1× 5 µs    2.4 ms     416',
]
