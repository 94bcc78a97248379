/**
 * The line shapes of p2pBandwidthLatencyTest (src/parsers/p2p/_p2p-sections.ts) and the shared
 * matrix-parser pieces (src/parsers/_matrix-common.ts), one function at a time on generated
 * lines (written for these tests after the fixtures' shapes, not copied from real output):
 * matrix titles, device and CAN/CANNOT lines, headers, command-line options, line cleaning,
 * exact decimal scaling, integer tokens, the bounded diagnostics sink and option values.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cleanLine, DiagSink, intToken, optionValue, scaled, tokens } from '../../src/parsers/_matrix-common.ts'
import { accessOf, deviceOf, headerOf, optionsOf, sectionOf } from '../../src/parsers/p2p/_p2p-sections.ts'

test('sectionOf: each bandwidth and latency title, with or without a direction; anything else is no title', () => {
  const s = (t: string) => {
    const x = sectionOf(t)
    return x && [x.bench, x.metric, x.unit, x.exp, x.p2p, x.direction ?? '-', x.title === t]
  }
  assert.deepEqual(s('Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)'), [
    'p2p.bw_uni',
    'bandwidth',
    'B/s',
    9,
    'disabled',
    '-',
    true,
  ])
  assert.deepEqual(s('Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)'), [
    'p2p.bw_uni',
    'bandwidth',
    'B/s',
    9,
    'enabled',
    'write',
    true,
  ])
  assert.deepEqual(s('Bidirectional  P2P=Enabled Bandwidth  (P2P Reads) Matrix(GB/s)'), [
    'p2p.bw_bi',
    'bandwidth',
    'B/s',
    9,
    'enabled',
    'read',
    true,
  ])
  assert.deepEqual(s('P2P=Disabled Latency Matrix (us)'), ['p2p.latency', 'latency', 's', -6, 'disabled', '-', true])
  assert.deepEqual(s('P2P=Enabled Latency (P2P Reads) Matrix (us)'), [
    'p2p.latency',
    'latency',
    's',
    -6,
    'enabled',
    'read',
    true,
  ])
  assert.deepEqual(s('P2P=Enabled  Latency (P2P Writes) Matrix(us)'), [
    'p2p.latency',
    'latency',
    's',
    -6,
    'enabled',
    'write',
    true,
  ])
  for (const t of [
    'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s) ',
    'x Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
    'Unidirectional P2P=Maybe Bandwidth Matrix (GB/s)',
    'Unidirectional P2P=Enabled Bandwidth (P2P Copies) Matrix (GB/s)',
    'P2P=Enabled Latency Matrix (ms)',
    'P2P=Enabled Latency Matrix (us) x',
    'x P2P=Enabled Latency Matrix (us)',
    'P2P Enabled Latency Matrix (us)',
    'P2P=Enabled Latency (us)',
    'Unidirectional P2P=Disabled Bandwidth Matrix',
  ])
    assert.equal(sectionOf(t), undefined, t)
})

test('deviceOf: index, trimmed name, hex ids lowercased, and the dddd:bb:dd.0 bus id', () => {
  assert.deepEqual(deviceOf('Device: 12, NVIDIA A100-SXM4-40GB , pciBusID: C1, pciDeviceID: 0, pciDomainID:0'), {
    index: 12,
    name: 'NVIDIA A100-SXM4-40GB',
    pciBusId: 'c1',
    pciDeviceId: '0',
    pciDomainId: '0',
    busId: '0000:c1:00.0',
  })
  assert.equal(deviceOf('Device:3,Tesla V100, pciBusID:7, pciDeviceID:1A, pciDomainID:12345')?.busId, '12345:07:1a.0')
  for (const t of [
    'Device: x, A, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
    'Device: 1, A, pciBusID: g1, pciDeviceID: 0, pciDomainID:0',
    'Device: 1, A, pciBusID: 1, pciDeviceID: 0',
    'Device: 1, A, pciBusID: 1, pciDeviceID: 0, pciDomainID:0 x',
    ' Device: 1, A, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
  ])
    assert.equal(deviceOf(t), undefined, t)
})

test('accessOf: CAN and CANNOT with both indices; other words are no access line', () => {
  assert.deepEqual(accessOf('Device=10 CAN Access Peer Device=3'), { from: 10, to: 3, can: true })
  assert.deepEqual(accessOf('Device=0  CANNOT  Access Peer Device=12'), { from: 0, to: 12, can: false })
  for (const t of [
    'Device=0 MAY Access Peer Device=1',
    'Device=0 CAN Access Peer Device=1 ',
    'xDevice=0 CAN Access Peer Device=1',
    'Device=a CAN Access Peer Device=1',
    'Device=0 CAN Access Device=1',
  ])
    assert.equal(accessOf(t), undefined, t)
})

test('headerOf: D\\D, GPU or CPU, then at least one column index of up to 6 digits', () => {
  assert.deepEqual(headerOf('D\\D     0      1     12'), { corner: 'D\\D', cols: [0, 1, 12] })
  assert.deepEqual(headerOf('GPU\t0\t1'), { corner: 'GPU', cols: [0, 1] })
  assert.deepEqual(headerOf('CPU 3'), { corner: 'CPU', cols: [3] })
  assert.deepEqual(headerOf('GPU 999999'), { corner: 'GPU', cols: [999999] })
  for (const t of [
    'GPU',
    'D\\D',
    'GPU 0 x',
    'GPU 1000000',
    'GPUs 0 1',
    'Device 0 1',
    'C 0',
    'D 0',
    'G 0',
    'X\\D 0',
    '0 1 2',
  ])
    assert.equal(headerOf(t), undefined, t)
})

test('optionsOf: a line naming the tool or its flags; one or two dashes; numElems a positive integer', () => {
  assert.deepEqual(optionsOf('$ ./p2pBandwidthLatencyTest --p2p_read --sm_copy --numElems=1000'), {
    p2pRead: true,
    smCopy: true,
    numElems: 1000,
    commandLine: '$ ./p2pBandwidthLatencyTest --p2p_read --sm_copy --numElems=1000',
  })
  assert.deepEqual(optionsOf('./p2pBandwidthLatencyTest -p2p_read -sm_copy -numElems=8'), {
    p2pRead: true,
    smCopy: true,
    numElems: 8,
    commandLine: './p2pBandwidthLatencyTest -p2p_read -sm_copy -numElems=8',
  })
  const o = (t: string) => optionsOf(t)
  assert.deepEqual(
    [
      'x --numElems=0',
      'x --numElems=-5',
      'x --numElems=1.5',
      'x --numElems=abc',
      'x --numElems',
      './p2pBandwidthLatencyTest',
    ].map((t) => o(t)?.numElems),
    [null, null, null, null, null, null],
  )
  assert.deepEqual([o('./p2pBandwidthLatencyTest')?.p2pRead, o('./p2pBandwidthLatencyTest')?.smCopy], [false, false])
  // Flags inside other words do not count.
  assert.deepEqual([o('x --p2p_readx --sm_copyx')?.p2pRead, o('x --p2p_readx --sm_copyx')?.smCopy], [false, false])
  for (const t of ['Device: 0', 'p2pBandwidth', 'numElems=5', '--p2p-read']) assert.equal(optionsOf(t), undefined, t)
})

test('cleanLine: ANSI escapes, srun --label and --tag-output prefixes, CR and trailing blanks go', () => {
  assert.equal(cleanLine('\x1b[1;32mD\\D 0 1\x1b[0m  \r'), 'D\\D 0 1')
  assert.equal(cleanLine('\x1b[?25hGPU 0'), 'GPU 0')
  assert.equal(cleanLine('3: Device=0 CAN Access Peer Device=1'), 'Device=0 CAN Access Peer Device=1')
  assert.equal(cleanLine('[1,0]<stdout>: GPU 0 1'), 'GPU 0 1')
  assert.equal(cleanLine('[1,0]<stderr>:GPU 0 1'), 'GPU 0 1')
  // Not a prefix: kept as it is.
  assert.equal(cleanLine('[1,0]<other>: GPU 0'), '[1,0]<other>: GPU 0')
  assert.equal(cleanLine('x[1,0]<stdout>: GPU 0'), 'x[1,0]<stdout>: GPU 0')
  assert.equal(cleanLine('[a]>: b'), '[a]>: b')
  assert.equal(cleanLine('  D\\D 0'), '  D\\D 0')
})

test('tokens, intToken and scaled: whitespace splits, short non-negative integers, decimals scaled exactly', () => {
  assert.deepEqual(tokens(' a \t b  c '), ['a', 'b', 'c'])
  assert.deepEqual(tokens(' \t '), [])
  assert.deepEqual(['0', '15', '123456789', '1234567890', '-1', '1.0', 'x', '', ' 1', undefined].map(intToken), [
    0,
    15,
    123456789,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ])
  // Decimal text: exactly the decimal scaled (370.90e9, not 370.9 · 1e9).
  assert.equal(scaled('370.90', 9), 370900000000)
  assert.equal(scaled('1.21', -6), 1.21e-6)
  assert.equal(scaled('+5', 0), 5)
  assert.equal(scaled('-2.', 3), -2000)
  assert.equal(scaled('.5', 1), 5)
  // Exponent form: the number times 10^exp.
  assert.equal(scaled('1.5e2', 1), 1500)
  assert.equal(scaled('2E-3', 3), 2)
  for (const t of ['N/A', '-nan', 'inf', '12x', '', '.', '1e', 'e5', '1.2.3', '1e400'])
    assert.equal(scaled(t, 0), undefined, t)
  assert.equal(scaled('1', 400), undefined, 'overflow to ∞ is no number')
})

test('DiagSink: 50 diagnostics kept per code, then one summary with the count, the first severity and the last line', () => {
  const s = new DiagSink('f.txt')
  for (let i = 1; i <= 52; i++) s.add(i, 'warn', 'a', `a${i}`)
  for (let i = 1; i <= 50; i++) s.add(100 + i, 'info', 'b', 'b')
  s.add(200, 'error', 'c', 'c')
  assert.deepEqual([s.count('a'), s.count('b'), s.count('c'), s.count('d')], [52, 50, 1, 0])
  const out = s.finish()
  assert.equal(out.length, 50 + 50 + 1 + 1)
  assert.deepEqual(out[49], { file: 'f.txt', line: 50, severity: 'warn', code: 'a', message: 'a50' })
  assert.deepEqual(out.at(-1), {
    file: 'f.txt',
    line: 52,
    severity: 'warn',
    code: 'a',
    message: '2 more "a" diagnostics not listed (52 in all)',
  })
  assert.equal(s.list.length, 101)
})

test('optionValue: --name=value, --name value and -n value; the first match; none', () => {
  const names = ['-b', '--bufferSize']
  assert.equal(optionValue('nvbandwidth --bufferSize=64 -t x', names), '64')
  assert.equal(optionValue('nvbandwidth -t x --bufferSize 32', names), '32')
  assert.equal(optionValue('nvbandwidth -b 16 --bufferSize=8', names), '16')
  assert.equal(optionValue('nvbandwidth -b', names), undefined)
  assert.equal(optionValue('nvbandwidth --bufferSizes=1 -bx 2', names), undefined)
  assert.equal(optionValue('', names), undefined)
})
