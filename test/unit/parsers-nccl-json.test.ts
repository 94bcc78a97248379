/**
 * The helpers of the nccl-tests -J JSON parser (src/parsers/nccl-tests/_nccl-json.ts), each on hand-written
 * values in the shapes nccl-tests' -J writer (src/util.cu) prints (generated, not real output): loose numbers (`root`
 * is a `%6i` string, NaN is `"nan"`), exact decimal scaling, the device list and its rank count,
 * the file meta of each schema version, and the rows of one results[] entry.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  collectiveOfArgs,
  devicesOf,
  docMeta,
  numOf,
  obj,
  type ResultContext,
  ranksOf,
  resultRows,
  sci,
} from '../../src/parsers/nccl-tests/_nccl-json.ts'
import type { Device } from '../../src/parsers/nccl-tests/_nccl-meta.ts'

test('obj: a JSON object, and nothing else', () => {
  assert.deepEqual(obj({ a: 1 }), { a: 1 })
  for (const v of [null, undefined, [], [1], 1, 'x', true]) assert.equal(obj(v), undefined, JSON.stringify(v))
})

test('numOf: finite numbers, numeric strings with blanks, signs and exponents; nothing else', () => {
  const good: [unknown, number][] = [
    [3, 3],
    [-0.5, -0.5],
    ['    -1', -1],
    ['7   ', 7],
    ['+5', 5],
    ['.5', 0.5],
    ['12.25', 12.25],
    ['1e3', 1000],
    ['1e10', 1e10],
    ['1E+3', 1000],
    ['2.5e-2', 0.025],
    ['10', 10],
  ]
  for (const [v, want] of good) assert.equal(numOf(v), want, JSON.stringify(v))
  const bad: unknown[] = [
    Number.NaN,
    Infinity,
    -Infinity,
    '',
    '   ',
    'nan',
    'inf',
    '-',
    '.',
    '1.2.3',
    'x5',
    '5x',
    '5 5',
  ]
  bad.push('1e', 'e5', '1e999', '0x10', '1_0', '--1', '1e+', '5e3x', true, null, undefined, {}, [5])
  for (const v of bad) assert.equal(numOf(v), undefined, String(v))
})

test('sci: printed decimals scaled without binary noise; exponent forms multiplied', () => {
  assert.equal(sci(37.69, -6), 3.769e-5)
  assert.notEqual(37.69 * 10 ** -6, 3.769e-5, 'the product has binary noise')
  assert.equal(sci(1.121139, 9), 1.121139e9)
  assert.equal(sci(5, 0), 5)
  assert.equal(sci(0, 9), 0)
  assert.equal(sci(-1.5, 3), -1500)
  assert.equal(sci(1e21, 9), 1e30)
  assert.equal(sci(2e-7, -6), 2e-7 * 1e-6)
  assert.ok(Math.abs(sci(2e-7, -6) / 2e-13 - 1) < 1e-15)
})

const DEV0 = {
  rank: 0,
  group: 0,
  pid: 4242,
  hostname: 'gen-a',
  device: 0,
  device_hex: '0000:17:00',
  device_info: 'NVIDIA GeForce RTX 4090',
}

test('devicesOf: every field of a device entry; entries without a rank and fields of the wrong type are left out', () => {
  assert.deepEqual(devicesOf({ devices: [DEV0] }), [
    { rank: 0, group: 0, pid: 4242, host: 'gen-a', device: 0, busId: '0000:17:00', name: 'NVIDIA GeForce RTX 4090' },
  ])
  assert.deepEqual(
    devicesOf({
      devices: [
        { rank: '3' },
        null,
        7,
        { group: 0 },
        { rank: 'nan' },
        { rank: 1, group: 'x', pid: null, hostname: 5, device: '2', device_hex: 17, device_info: ['A100'] },
      ],
    }),
    [{ rank: 3 }, { rank: 1, device: 2 }],
  )
  for (const config of [undefined, {}, { devices: null }, { devices: { rank: 0 } }, { devices: 'x' }])
    assert.deepEqual(devicesOf(config as Record<string, unknown> | undefined), [], JSON.stringify(config))
})

test('ranksOf: the ranks in rank 0 group, each counted once', () => {
  const d = (rank: number, group?: number): Device => (group === undefined ? { rank } : { rank, group })
  assert.equal(ranksOf([]), undefined)
  assert.equal(ranksOf([d(0, 0), d(1, 0), d(2, 1), d(3, 1), d(4, 1)]), 2)
  assert.equal(ranksOf([d(2, 1), d(3, 1), d(0, 0), d(4, 1)]), 1)
  assert.equal(ranksOf([d(5, 2), d(6, 2), d(7, 3)]), 2, 'no rank 0: the first device group')
  assert.equal(ranksOf([d(1, 1), d(2, 1), d(0)]), 2, 'rank 0 without a group: the first device group')
  assert.equal(ranksOf([d(0), d(1), d(1), d(2)]), 3)
  assert.equal(ranksOf([d(0, 0), d(0, 0), d(1, 0)]), 2)
})

test('collectiveOfArgs: the collective of the program path in args[0]', () => {
  assert.equal(collectiveOfArgs(['./build/all_reduce_perf', '-b', '8']), 'all_reduce')
  assert.equal(collectiveOfArgs(['/opt/nccl-tests/build/reduce_scatter_perf']), 'reduce_scatter')
  for (const args of [undefined, 'all_reduce_perf', [], [5, 'all_reduce_perf'], ['-b', 'all_reduce_perf'], ['./app']])
    assert.equal(collectiveOfArgs(args), undefined, JSON.stringify(args))
})

test('docMeta: every top-level field of a schema 3 document', () => {
  const doc = {
    version: 3,
    start_time: '2026-01-05 09:00:00',
    end_time: '2026-01-05 09:01:00',
    args: ['./build/all_gather_perf', 5, '-g', '2'],
    env: ['HOME=/root', 'NCCL_DEBUG=INFO', 'CUDA_VISIBLE_DEVICES=0,1', 'CUDA_DEVICE_ORDER=PCI_BUS_ID', 'UCX_TLS=rc']
      .concat(['OMPI_COMM_WORLD_SIZE=2', 'FI_PROVIDER=efa', 'CUDA_HOME=/usr', 'MY_NCCL_X=1', 'AWS_SECRET=k', '7'])
      .concat(['OMPI_COMM_WORLD_RANK=0']),
    nccl_version: 22907,
    config: { nthreads: 1, ngpus: 2, blocking_collectives: false, tuner: null, extra: { a: 1 }, list: [1] },
    out_of_bounds: { count: 0, okay: true },
    average_bus_bandwidth: { bandwidth: 12.5, okay: true },
    errors: ['boom', 3],
  }
  const devices: Device[] = [{ rank: 0, host: 'h2' }, { rank: 1, host: 'h1' }, { rank: 2 }, { rank: 3, host: 'h2' }]
  assert.deepEqual(docMeta(doc, devices), {
    schemaVersion: 3,
    ncclVersionCode: 22907,
    nccl: '2.29.7',
    startTime: '2026-01-05 09:00:00',
    endTime: '2026-01-05 09:01:00',
    args: ['./build/all_gather_perf', '-g', '2'],
    env: [
      'NCCL_DEBUG=INFO',
      'CUDA_VISIBLE_DEVICES=0,1',
      'CUDA_DEVICE_ORDER=PCI_BUS_ID',
      'UCX_TLS=rc',
      'OMPI_COMM_WORLD_SIZE=2',
      'FI_PROVIDER=efa',
    ],
    params: { nthreads: 1, ngpus: 2, blocking_collectives: false, tuner: null },
    devices,
    hosts: ['h2', 'h1'],
    outOfBounds: { count: 0, okay: true },
    avgBusBandwidth: 12.5e9,
    avgBusBandwidthOkay: true,
    errors: ['boom'],
    versionRange: '2.19.6+',
  })
})

test('docMeta: schema versions, the misspelled keys of v2.17.3-2.17.8, partial and odd fields', () => {
  const range = (doc: Record<string, unknown>) => docMeta(doc, []).versionRange
  assert.equal(range({ version: 1 }), '2.17.9-2.19.1')
  assert.equal(range({ version: '1', average_bus_bandwidith: { bandwidith: 1 } }), '2.17.3-2.17.8')
  assert.equal(range({ version: 2 }), '2.19.2-2.19.5')
  assert.equal(range({ version: 3 }), '2.19.6+')
  for (const version of [4, 0, 'x', undefined]) assert.equal(range({ version }), 'unknown', String(version))
  assert.deepEqual(docMeta({ average_bus_bandwidith: { bandwidith: '1.121139', okay: 'unchecked' } }, []), {
    misspelledKeys: true,
    avgBusBandwidth: 1.121139e9,
    avgBusBandwidthOkay: 'unchecked',
    versionRange: 'unknown',
  })
  // Either spelling of the inner key is read under either outer key; the right outer key wins.
  const both = { average_bus_bandwidth: { bandwidith: 2 }, average_bus_bandwidith: { bandwidth: 3, okay: false } }
  assert.deepEqual(docMeta(both, []), { misspelledKeys: true, avgBusBandwidth: 2e9, versionRange: 'unknown' })
  assert.deepEqual(docMeta({ average_bus_bandwidth: { bandwidth: 'nan', okay: false } }, []), {
    avgBusBandwidthOkay: false,
    versionRange: 'unknown',
  })
  assert.deepEqual(docMeta({ average_bus_bandwidith: null, out_of_bounds: {} }, []), {
    misspelledKeys: true,
    outOfBounds: { count: null, okay: null },
    versionRange: 'unknown',
  })
  assert.deepEqual(docMeta({ out_of_bounds: { count: '4', okay: false } }, []).outOfBounds, { count: 4, okay: false })
  const odd = { start_time: 5, end_time: null, args: 'x', env: 'NCCL_X=1', errors: 'e', config: [1], nccl_version: 'v' }
  assert.deepEqual(docMeta(odd, []), { versionRange: 'unknown' })
  assert.deepEqual(docMeta({ config: { devices: 'none', iters: 3 }, out_of_bounds: [] }, []), {
    params: { iters: 3 },
    versionRange: 'unknown',
  })
  assert.deepEqual(docMeta({ nccl_version: 2804 }, []), {
    ncclVersionCode: 2804,
    nccl: '2.8.4',
    versionRange: 'unknown',
  })
})

/** The rows and skips of one results[] entry, with each row's source line and trial checked. */
function rowsOf(res: Record<string, unknown>): { rows: Record<string, unknown>[]; skips: string[] } {
  const skips: string[] = []
  const rows: Record<string, unknown>[] = []
  const ctx: ResultContext = {
    bench: 'nccl.all_reduce',
    ranks: 2,
    file: 'r.json',
    trial: 4,
    line: 17,
    skip: (kind, line) => skips.push(`${kind}@${line}`),
  }
  resultRows(res, ctx, (r) => {
    const { source, trial, bench, ranks, src, dst, p2p, ...rest } = r
    assert.deepEqual(
      [source, trial, bench, ranks, src, dst, p2p],
      [{ file: 'r.json', line: 17 }, 4, ctx.bench, 2, null, null, null],
    )
    rows.push(rest)
  })
  return { rows, skips }
}

test('resultRows: time, algbw, busbw and wrong of each placement in base units, with size, type, redop and root', () => {
  const res = {
    size: 1024,
    count: 256,
    type: 'float',
    redop: 'sum',
    root: '    -1',
    out_of_place: { time: 37.69, alg_bw: 0.03, bus_bw: 0.03, nwrong: 0 },
    in_place: { time: '12.25', alg_bw: 'nan', bus_bw: null, nwrong: 2 },
  }
  const o = { sizeBytes: 1024, dtype: 'float', redop: 'sum', placement: 'out-of-place', timer: 'cpu' }
  const i = { ...o, placement: 'in-place' }
  assert.deepEqual(rowsOf(res), {
    rows: [
      { ...o, metric: 'time', unit: 's', value: 3.769e-5 },
      { ...o, metric: 'algbw', unit: 'B/s', value: 3e7 },
      { ...o, metric: 'busbw', unit: 'B/s', value: 3e7 },
      { ...o, metric: 'wrong', unit: 'count', value: 0 },
      { ...i, metric: 'time', unit: 's', value: 1.225e-5 },
      { ...i, metric: 'wrong', unit: 'count', value: 2 },
    ],
    skips: ['bad@17', 'na@17'],
  })
})

test('resultRows: cpu_time, roots, no redop, missing blocks and size; per-iteration GPU times by index', () => {
  const r = rowsOf({
    type: 'half',
    redop: 'none',
    root: '     0',
    out_of_place: { cpu_time: 5, alg_bw: 1 },
    in_place: null,
    out_of_place_per_iter: { times_us: [10, 'nan', '12.5', null] },
    in_place_per_iter: { times_us: [9] },
  })
  const base = { sizeBytes: null, dtype: 'half', root: 0, placement: 'out-of-place' }
  assert.deepEqual(r, {
    rows: [
      { ...base, timer: 'cpu', metric: 'time', unit: 's', value: 5e-6 },
      { ...base, timer: 'cpu', metric: 'algbw', unit: 'B/s', value: 1e9 },
      { ...base, timer: 'gpu', metric: 'time', unit: 's', value: 1e-5, iteration: 0 },
      { ...base, timer: 'gpu', metric: 'time', unit: 's', value: 1.25e-5, iteration: 2 },
      { ...base, timer: 'gpu', metric: 'time', unit: 's', value: 9e-6, iteration: 0, placement: 'in-place' },
    ],
    skips: ['na@17', 'na@17', 'bad@17', 'bad@17'],
  })
  const t = rowsOf({ size: 8, root: 3, out_of_place: { time: 1, cpu_time: 2 }, in_place_per_iter: { times_us: 'x' } })
  assert.deepEqual(t.rows, [
    { sizeBytes: 8, root: 3, placement: 'out-of-place', timer: 'cpu', metric: 'time', unit: 's', value: 1e-6 },
  ])
  assert.deepEqual(t.skips, ['na@17', 'na@17', 'na@17'])
  assert.deepEqual(rowsOf({ size: 8, out_of_place: [1, 2], in_place: 'x' }), { rows: [], skips: [] })
})

test('docMeta: only string environment entries are kept, not a list that spells one', () => {
  assert.deepEqual(docMeta({ env: [['NCCL_DEBUG=INFO'], 'NCCL_ALGO=Ring', 7] }, []).env, ['NCCL_ALGO=Ring'])
})
