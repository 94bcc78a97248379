/**
 * The helpers behind both nvbandwidth parsers, one at a time (issue 18, mutation testing of
 * scope parsers-nvbw): what each testcase name means (unit, copy kind, direction, which end a
 * row and a column are), the buffer size by version and command line, device lines of the text
 * and of the JSON output, CUDA version numbers and the run lines kept in meta (one matrix made
 * into rows: parsers-nvbw-emit.test.ts). Expected values are written from nvbandwidth's output.cpp and its testcase list (testcases_ce.cpp, testcases_sm.cpp), not computed
 * by the code under test. The JSON scanning helpers are in parsers-nvbw-json-scan.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SIM_MARKER } from '../../src/model/index.ts'
import { commandBufferMiB, emptyMeta, noteRunLine } from '../../src/parsers/nvbandwidth/_nvbw-meta.ts'
import {
  bufferSize,
  cudaVersionNumber,
  deviceLine,
  jsonDevice,
  nvbwTestcase,
} from '../../src/parsers/nvbandwidth/_nvbw-testcases.ts'

const MiB = 2 ** 20
/** [src, dst] of the cell at row 1, column 2. */
const place12 = (name: string, description = ''): [number | null, number | null] => {
  const p = nvbwTestcase(name, description).place(1, 2)
  return [p.src, p.dst]
}

test('nvbwTestcase: which end of the copy the row (1) and the column (2) are, for every testcase family', () => {
  const cases: [string, [number | null, number | null]][] = [
    ['device_to_device_bidirectional_memcpy_read_ce_read1', [2, 1]],
    ['device_to_device_bidirectional_memcpy_write_ce_write1', [2, 1]],
    ['device_to_device_bidirectional_memcpy_read_ce_read2', [1, 2]],
    ['device_to_device_bidirectional_memcpy_write_sm_write2', [1, 2]],
    ['device_to_device_bidirectional_memcpy_read_ce_total', [1, 2]],
    ['host_device_latency_sm', [null, 2]],
    ['device_to_device_latency_sm', [2, 1]],
    ['host_to_device_memcpy_ce', [null, 2]],
    ['host_to_all_memcpy_sm', [null, 2]],
    ['host_to_device_bidirectional_memcpy_ce', [null, 2]],
    ['device_to_host_memcpy_ce', [2, null]],
    ['all_to_host_memcpy_sm', [2, null]],
    ['all_to_one_write_ce', [null, 2]],
    ['all_to_one_read_sm', [null, 2]],
    ['one_to_all_write_ce', [2, null]],
    ['one_to_all_read_sm', [2, null]],
    ['device_local_copy', [2, 2]],
    ['device_to_device_memcpy_read_ce', [2, 1]],
    ['device_to_device_memcpy_read_sm', [2, 1]],
    ['device_to_device_memcpy_write_ce', [1, 2]],
    ['device_to_device_memcpy_write_sm', [1, 2]],
    ['multinode_device_to_device_memcpy_read_ce', [2, 1]],
    ['multinode_device_to_device_memcpy_write_ce', [1, 2]],
    // Names that only look like one family: the prefix and suffix patterns are anchored.
    ['x_host_to_device', [1, 2]],
    ['x_device_to_host', [1, 2]],
    ['x_device_to_device_read', [1, 2]],
    ['x_all_to_one', [1, 2]],
    ['x_one_to_all', [1, 2]],
    ['device_local_copy_x', [1, 2]],
    ['host_device_latency_sm_x', [1, 2]],
    ['device_to_device_latency_sm_x', [1, 2]],
    ['device_to_device_read1_x', [2, 1]],
    ['device_to_device_total_x', [1, 2]],
    ['multinode_x', [1, 2]],
    ['device_to_multinode_device_read', [1, 2]], // only a leading multinode_ is dropped
    // Part suffixes count only at the end of the name.
    ['x_read1_y', [1, 2]],
    ['device_to_device_read2_x', [2, 1]],
    ['device_to_device_total_read', [2, 1]],
  ]
  for (const [name, want] of cases) assert.deepEqual(place12(name), want, name)
  // An unknown testcase falls back to its description's arrow, then to row → column.
  assert.deepEqual(place12('new_test', 'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)'), [null, 2])
  assert.deepEqual(place12('new_test', 'memcpy CE CPU(row)->GPU(column) bandwidth (GB/s)'), [null, 2])
  assert.deepEqual(place12('new_test', 'memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)'), [2, null])
  assert.deepEqual(place12('new_test', 'memcpy CE CPU(row)<-GPU(column) bandwidth (GB/s)'), [2, null])
  assert.deepEqual(place12('new_test', 'memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)'), [1, 2])
  assert.deepEqual(place12('new_test', 'CPU (row) -> GPU(column)'), [1, 2])
  // The name decides before the description does.
  assert.deepEqual(place12('device_to_device_memcpy_write_ce', 'CPU(row) -> GPU(column)'), [1, 2])
  assert.deepEqual(place12('x_device_to_device_write', 'CPU(row) -> GPU(column)'), [null, 2])
  assert.deepEqual(place12('device_to_host_memcpy_ce', 'CPU(row) -> GPU(column)'), [2, null])
})

test('nvbwTestcase: metric, unit, exponent, copy kind, direction and peer access from the name', () => {
  const d = (name: string, description = ''): unknown[] => {
    const t = nvbwTestcase(name, description)
    return [t.metric, t.unit, t.exp, t.copy, t.direction, t.p2p, 'copy' in t, 'direction' in t]
  }
  const cases: [string, string, unknown[]][] = [
    ['device_to_device_memcpy_read_ce', '', ['bandwidth', 'B/s', 9, 'ce', 'read', 'enabled', true, true]],
    ['device_to_device_memcpy_write_sm', '', ['bandwidth', 'B/s', 9, 'sm', 'write', 'enabled', true, true]],
    ['host_to_device_memcpy_ce', '', ['bandwidth', 'B/s', 9, 'ce', undefined, null, true, false]],
    ['device_to_host_memcpy_sm', '', ['bandwidth', 'B/s', 9, 'sm', undefined, null, true, false]],
    ['device_to_device_latency_sm', '', ['latency', 's', -9, undefined, undefined, 'enabled', false, false]],
    ['host_device_latency_sm', '', ['latency', 's', -9, undefined, undefined, null, false, false]],
    [
      'new_test',
      'Some SM GPU(row) -> GPU(column) (ns)',
      ['latency', 's', -9, undefined, undefined, null, false, false],
    ],
    ['new_test', 'Some (ns) bandwidth (GB/s)', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
    ['new_test', 'Some latency (ns)  ', ['latency', 's', -9, undefined, undefined, null, false, false]],
    ['all_to_one_write_ce', '', ['bandwidth', 'B/s', 9, 'ce', 'write', 'enabled', true, true]],
    ['one_to_all_read_sm', '', ['bandwidth', 'B/s', 9, 'sm', 'read', 'enabled', true, true]],
    ['all_to_host_memcpy_ce', '', ['bandwidth', 'B/s', 9, 'ce', undefined, null, true, false]],
    ['multinode_device_to_device_memcpy_read_ce', '', ['bandwidth', 'B/s', 9, 'ce', 'read', 'enabled', true, true]],
    ['multinode_bisect_write_ce', '', ['bandwidth', 'B/s', 9, 'ce', 'write', 'enabled', true, true]],
    ['device_local_copy', '', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
    // Parts of bidirectional tests: the digit after read/write still names the direction.
    [
      'device_to_device_bidirectional_memcpy_read_ce_read1',
      '',
      ['bandwidth', 'B/s', 9, 'ce', 'read', 'enabled', true, true],
    ],
    [
      'device_to_device_bidirectional_memcpy_write_sm_write2',
      '',
      ['bandwidth', 'B/s', 9, 'sm', 'write', 'enabled', true, true],
    ],
    // Look-alikes: `_ce`/`_sm`/`_read`/`_write` must end the name or be followed by `_` (or a digit).
    ['x_cex_smx_readx_writex', '', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
    ['x_ce', '', ['bandwidth', 'B/s', 9, 'ce', undefined, null, true, false]],
    ['x_sm', '', ['bandwidth', 'B/s', 9, 'sm', undefined, null, true, false]],
    ['x_write', '', ['bandwidth', 'B/s', 9, undefined, 'write', null, false, true]],
    ['x_write_y', '', ['bandwidth', 'B/s', 9, undefined, 'write', null, false, true]],
    ['x_read', '', ['bandwidth', 'B/s', 9, undefined, 'read', null, false, true]],
    ['x_device_to_device', '', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
    ['x_all_to_one', '', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
    ['x_one_to_all', '', ['bandwidth', 'B/s', 9, undefined, undefined, null, false, false]],
  ]
  for (const [name, desc, want] of cases) assert.deepEqual(d(name, desc), want, name)
})

test('bufferSize: fixed for latency, the command line, else the version default (64 MiB to v0.6, 512 MiB from v0.7)', () => {
  const b = (version: string | null, cmd: number | null, latency = false, small = false): [number | null, string] => {
    const r = bufferSize(version, cmd, latency, small)
    return [r.bytes, r.source]
  }
  assert.deepEqual(b('v0.8', 64, true), [2 * MiB, 'fixed-latency-buffer'])
  assert.deepEqual(b(null, null, true, true), [2 * MiB, 'fixed-latency-buffer'])
  assert.deepEqual(b('v0.8', 3), [3 * MiB, 'command-line'])
  assert.deepEqual(b(null, 3, false, true), [3 * MiB, 'command-line'])
  assert.deepEqual(b(null, null), [null, 'unknown'])
  assert.deepEqual(b('', null), [null, 'unknown'])
  assert.deepEqual(b('v0.8', null, false, true), [null, 'unknown'])
  assert.deepEqual(b('v0.3', null), [null, 'unknown'])
  assert.deepEqual(b('v0.4', null), [64 * MiB, 'version-default'])
  assert.deepEqual(b('0.6', null), [64 * MiB, 'version-default'])
  assert.deepEqual(b('v0.6.1', null), [64 * MiB, 'version-default'])
  assert.deepEqual(b('v0.7', null), [512 * MiB, 'version-default'])
  assert.deepEqual(b('v0.10.0', null), [512 * MiB, 'version-default'])
  assert.deepEqual(b('v1.0', null), [512 * MiB, 'version-default'])
  assert.deepEqual(b('v2.3', null), [512 * MiB, 'version-default'])
  assert.deepEqual(b('v10.0', null), [512 * MiB, 'version-default'])
  assert.deepEqual(b('v1', null), [null, 'unknown'])
  assert.deepEqual(b('x0.8', null), [null, 'unknown'])
  assert.deepEqual(b('vv0.8', null), [null, 'unknown'])
})

test('deviceLine and jsonDevice: index, name, PCI id (lower case), host and local device', () => {
  assert.deepEqual(deviceLine('Device 0: NVIDIA H100 80GB HBM3 (00000000:1B:00)'), {
    index: 0,
    name: 'NVIDIA H100 80GB HBM3',
    pci: '00000000:1b:00',
  })
  assert.deepEqual(deviceLine('Device 12: NVIDIA A100 (abcd:0f:1e)'), {
    index: 12,
    name: 'NVIDIA A100',
    pci: 'abcd:0f:1e',
  })
  assert.deepEqual(deviceLine('Device 3: Tesla V100-SXM2-16GB'), { index: 3, name: 'Tesla V100-SXM2-16GB', pci: null })
  // The PCI id is the last parenthesis; anything else in parentheses stays in the name.
  assert.deepEqual(deviceLine('Device 1: GPU (rev a) (0000:02:00)'), {
    index: 1,
    name: 'GPU (rev a)',
    pci: '0000:02:00',
  })
  assert.deepEqual(deviceLine('Device 1: GPU (rev a)'), { index: 1, name: 'GPU (rev a)', pci: null })
  assert.deepEqual(deviceLine('Device 0: (0000:01:00)'), { index: 0, name: '', pci: '0000:01:00' })
  for (const bad of [
    '(000:02:00)',
    '(000000000:02:00)',
    '(0000:2:00)',
    '(0000:02:0)',
    '(0000:02:00) x',
    '(0000:0g:00)',
  ])
    assert.deepEqual(deviceLine(`Device 1: GPU ${bad}`), { index: 1, name: `GPU ${bad}`, pci: null }, bad)
  assert.deepEqual(deviceLine('Device 1: GPU  (0000:02:00)   '), { index: 1, name: 'GPU', pci: '0000:02:00' })
  assert.deepEqual(deviceLine('Process 3 (node-b): device 1: HGX GB200 (00000009:01:00)'), {
    index: 3,
    name: 'HGX GB200',
    pci: '00000009:01:00',
    host: 'node-b',
    localDevice: 1,
  })
  assert.deepEqual(deviceLine('Process  10   (h (x)): device 7: G'), {
    index: 10,
    name: 'G',
    pci: null,
    host: 'h (x)',
    localDevice: 7,
  })
  for (const bad of [
    'Device x: G',
    'Device 0:G',
    'Device 0: ',
    'A Device 0: G',
    'Process 1 (h): device x: G',
    'Process 1: device 2: G',
    'xProcess 1 (h): device 2: G',
  ])
    assert.equal(deviceLine(bad), undefined, bad)

  assert.deepEqual(jsonDevice('0: NVIDIA H100 80GB HBM3 (00000000:1B:00): (gpubox)'), {
    index: 0,
    name: 'NVIDIA H100 80GB HBM3',
    pci: '00000000:1b:00',
    host: 'gpubox',
  })
  assert.deepEqual(jsonDevice('  2: NVIDIA H100 (0000:02:00)  '), { index: 2, name: 'NVIDIA H100', pci: '0000:02:00' })
  assert.deepEqual(jsonDevice('3: Plain: name'), { index: 3, name: 'Plain: name', pci: null })
  assert.deepEqual(jsonDevice('4: A: (b'), { index: 4, name: 'A: (b', pci: null })
  assert.deepEqual(jsonDevice('12: A'), { index: 12, name: 'A', pci: null })
  assert.deepEqual(jsonDevice('3: : (h)'), { index: 3, name: '', pci: null, host: 'h' })
  assert.deepEqual(deviceLine('Process 2 (h): device 12: G'), {
    index: 2,
    name: 'G',
    pci: null,
    host: 'h',
    localDevice: 12,
  })
  assert.deepEqual(jsonDevice('5: A (0000:01:00): (h: (x))'), {
    index: 5,
    name: 'A',
    pci: '0000:01:00',
    host: 'h: (x)',
  })
  for (const bad of ['x: A', '1:A', ' : A', '', 'a1: A']) assert.equal(jsonDevice(bad), undefined, bad)
})

test('cudaVersionNumber: the number in parentheses at the end, or the whole text as an integer', () => {
  assert.equal(cudaVersionNumber('13.2 (13020)'), 13020)
  assert.equal(cudaVersionNumber('13.2 (13020)  '), 13020)
  assert.equal(cudaVersionNumber('12080'), 12080)
  assert.equal(cudaVersionNumber('  12080  '), 12080)
  for (const bad of ['12.8', '13.2 (13020) x', '(1302a)', 'v12080', '12080x', '', '13.2 ()'])
    assert.equal(cudaVersionNumber(bad), null, bad)
})

test('noteRunLine and commandBufferMiB: the simulator marker, the first command line, and its -b', () => {
  assert.deepEqual(emptyMeta('text'), {
    tool: 'nvbandwidth',
    format: 'text',
    version: null,
    gitVersion: null,
    cudaRuntimeVersion: null,
    cudaDriverVersion: null,
    driverVersion: null,
    devices: [],
    testcases: [],
    summaries: [],
    bufferSize: { bytes: null, source: 'unknown' },
    commandLine: null,
    complete: false,
    runs: 0,
  })
  const m = emptyMeta('text')
  assert.equal(noteRunLine(m, 'some log line'), false)
  assert.equal(noteRunLine(m, 'nvbandwidthx -b 2'), false)
  assert.equal(noteRunLine(m, 'mynvbandwidth -b 2'), false)
  assert.equal(m.commandLine, null)
  assert.equal(noteRunLine(m, `${SIM_MARKER} nvbandwidth -b 4`), true)
  assert.deepEqual([m.simulated, m.commandLine], [true, null])
  assert.equal(noteRunLine(m, '$ ./bin/nvbandwidth -b 8 -t x'), true)
  assert.equal(noteRunLine(m, 'nvbandwidth -b 16'), false) // only the first is kept
  assert.equal(m.commandLine, '$ ./bin/nvbandwidth -b 8 -t x')
  const n = emptyMeta('json')
  assert.equal(noteRunLine(n, 'nvbandwidth'), true)
  assert.equal(n.commandLine, 'nvbandwidth')
  assert.equal(n.simulated, undefined)
  const o = emptyMeta('text')
  assert.equal(noteRunLine(o, 'run: nvbandwidth\t-j'), true)
  assert.equal(o.commandLine, 'run: nvbandwidth\t-j')

  assert.equal(commandBufferMiB(null), null)
  assert.equal(commandBufferMiB('nvbandwidth -b 64'), 64)
  assert.equal(commandBufferMiB('nvbandwidth --bufferSize 128 -t x'), 128)
  assert.equal(commandBufferMiB('nvbandwidth --bufferSize=32'), 32)
  assert.equal(commandBufferMiB('nvbandwidth -b 1'), 1)
  for (const bad of [
    'nvbandwidth',
    'nvbandwidth -b',
    'nvbandwidth -b 0',
    'nvbandwidth -b -4',
    'nvbandwidth -b 1.5',
    'nvbandwidth -b x',
    'nvbandwidth -b 1e400',
  ])
    assert.equal(commandBufferMiB(bad), null, bad)
})
