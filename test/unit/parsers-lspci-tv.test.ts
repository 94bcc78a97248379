/**
 * The `lspci -tv` reader (src/parsers/system/lspci-tv.ts) and the PCIe chain vocabulary
 * (src/parsers/system/_pci-chain.ts) on a GENERATED tree written after the fixtures' shapes: two root
 * buses, a switch with two downstream ports, a GPU on a root bus, its audio sibling, bus
 * ranges, a single-bus machine without a root label, orphan and odd lines, detection scores.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { LspciTree, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { chainRoles, chainSwitches, looksLikeNvidiaGpu, normalizeBdf } from '../../src/parsers/system/_pci-chain.ts'

const p = parserById('lspci-tv') as Parser
const parse = (lines: string[]) => parseText(p, `${lines.join('\n')}\n`, { file: 'generated-lspci-tv.txt' })
const tree = (lines: string[]) => parse(lines).meta.topology as LspciTree

// Device columns: 15 on the root buses, 31/47/60 along the switch, 28 below 03.1 and 01.1 of bus 80.
const T = [
  '$ lspci -tv',
  '00.0 not a tree line',
  '-+-[0000:00]-+-00.0  Advanced Micro Devices, Inc. [AMD] Root Complex',
  ' |           +-01.1-[01-03]----00.0-[02-03]--+-00.0-[03]----00.0  NVIDIA Corporation GA100 [A100 SXM4 80GB]',
  ` |           |${' '.repeat(31)}\\-08.0-[04]----00.0  NVIDIA Corporation GA100 [A100 SXM4 80GB]`,
  ' |           +-02.0  NVIDIA Corporation Device 2330',
  ' |           \\-03.1-[05]--+-00.0  NVIDIA Corporation AD102 [RTX 6000 Ada]',
  ` |${' '.repeat(24)}+-00.1  NVIDIA Corporation AD102 High Definition Audio Controller`,
  ` |${' '.repeat(24)}\\-01.1  NVIDIA Corporation Device 1aef`,
  ' \\-[0000:80]-+-00.0  Advanced Micro Devices, Inc. [AMD] Root Complex',
  '             \\-01.1-[81]----00.0  NVIDIA Corporation GH100 [H100 SXM5 80GB]',
]

test("lspci -tv: each NVIDIA GPU's chain to its root bus, its switches, sorted by address", () => {
  const t = tree(T)
  assert.deepEqual(t.rootBuses, ['0000:00', '0000:80'])
  assert.equal(t.deviceCount, 15)
  assert.deepEqual(
    t.gpus.map((g) => [g.bdf, g.rootBus, g.chain.join('>'), g.switches.join(','), g.line, g.name]),
    [
      ['0000:00:02.0', '0000:00', '', '', 6, 'NVIDIA Corporation Device 2330'],
      [
        '0000:03:00.0',
        '0000:00',
        '0000:00:01.1>0000:01:00.0>0000:02:00.0',
        '0000:01:00.0',
        4,
        'NVIDIA Corporation GA100 [A100 SXM4 80GB]',
      ],
      [
        '0000:04:00.0',
        '0000:00',
        '0000:00:01.1>0000:01:00.0>0000:02:08.0',
        '0000:01:00.0',
        5,
        'NVIDIA Corporation GA100 [A100 SXM4 80GB]',
      ],
      ['0000:05:00.0', '0000:00', '0000:00:03.1', '', 7, 'NVIDIA Corporation AD102 [RTX 6000 Ada]'],
      ['0000:81:00.0', '0000:80', '0000:80:01.1', '', 11, 'NVIDIA Corporation GH100 [H100 SXM5 80GB]'],
    ],
  )
  assert.deepEqual(t.bridges, [
    { bdf: '0000:00:01.1', line: 4, secondaryBus: '0000:01' },
    { bdf: '0000:01:00.0', line: 4, parent: '0000:00:01.1', secondaryBus: '0000:02' },
    { bdf: '0000:02:00.0', line: 4, parent: '0000:01:00.0', secondaryBus: '0000:03' },
    { bdf: '0000:02:08.0', line: 5, parent: '0000:01:00.0', secondaryBus: '0000:04' },
    { bdf: '0000:00:03.1', line: 7, secondaryBus: '0000:05' },
    { bdf: '0000:80:01.1', line: 11, secondaryBus: '0000:81' },
  ])
  assert.deepEqual(parse(T).diagnostics, [])
})

test('lspci -tv: a single bus without a root label; other domains; a root printed twice', () => {
  const one = tree([
    '-+-00.0  Intel Corporation Host Bridge',
    ' +-01.0-[01]----00.0  NVIDIA Corporation TU104GL [Tesla T4]',
    ' \\-1f.3  Intel Corporation Audio',
  ])
  assert.deepEqual([one.rootBuses, one.deviceCount], [['0000:00'], 4])
  assert.deepEqual(
    one.gpus.map((g) => [g.bdf, g.rootBus, g.chain]),
    [['0000:01:00.0', '0000:00', ['0000:00:01.0']]],
  )
  const dom = tree([
    '-+-[0001:3a]-+-00.0  Root',
    ' |           \\-02.0-[3b]----00.0  NVIDIA Corporation GA102',
    ' \\-[c0]-+-00.0  Root',
  ])
  assert.deepEqual(dom.rootBuses, ['0000:c0', '0001:3a'])
  assert.deepEqual(
    dom.gpus.map((g) => [g.bdf, g.rootBus, g.chain]),
    [['0001:3b:00.0', '0001:3a', ['0001:3a:02.0']]],
  )
  const twice = tree(['-[0000:00]-+-00.0  A', `${' '.repeat(11)}\\-01.0  B`, '-[0000:00]-+-02.0  C'])
  assert.deepEqual([twice.rootBuses, twice.deviceCount], [['0000:00'], 3])
})

test('lspci -tv: a device at a column no line above opened is an orphan; odd lines are skipped', () => {
  const out = parse([...T.slice(0, 4), `${' '.repeat(18)}\\-07.0  Orphan`, ...T.slice(4)])
  assert.deepEqual(
    out.diagnostics.map((d) => [d.line, d.severity, d.code, d.message]),
    [[5, 'warn', 'orphan', 'device 07.0 at column 21 has no parent in the tree; line skipped']],
  )
  assert.equal((out.meta.topology as LspciTree).deviceCount, 15)
  // A root with nothing after it does not make a later device its child.
  const lone = parse(['-[0000:00]-', ' +-00.0  A'])
  assert.deepEqual(
    lone.diagnostics.map((d) => d.code),
    ['orphan', 'no-tree'],
  )
  // After a bridge only a device is read; text in brackets is not a root bus.
  const odd = tree(['-[0000:00]-+-01.1-[01]--[ab]', '-[0000:00]-+-00.9  bad function', ' x-00.0'])
  assert.deepEqual([odd.rootBuses, odd.deviceCount], [['0000:00'], 1])
  const noName = tree(['-[0000:00]-+-00.0', `${' '.repeat(11)}\\-01.0     `])
  assert.deepEqual([noName.gpus, noName.deviceCount], [[], 2])
})

test('lspci -tv with no tree: one error at the last line, no topology', () => {
  const out = parse(['$ lspci -tv', 'pcilib: cannot open', 'x'])
  assert.deepEqual(
    out.diagnostics.map((d) => [d.line, d.severity, d.code]),
    [[3, 'error', 'no-tree']],
  )
  assert.deepEqual(out.meta, {})
  assert.deepEqual(
    parseText(p, '', { file: 'e.txt' }).diagnostics.map((d) => d.line),
    [1],
  )
})

test('lspci -tv detection: root buses and child lines 0.95, root buses alone 0.7, else 0', () => {
  const score = (l: string[]) => p.detect(`${l.join('\n')}\n`)
  assert.equal(score(T), 0.95)
  assert.equal(score(['-[0000:00]-+-00.0  A', '           \\-1f.3  B']), 0.95)
  assert.equal(score(['|+-00.0  B', ' +-[0000:20]-+-00.0  A']), 0.95)
  for (const root of [
    '-[0000:00]-+-00.0  A',
    '-+-[00]-+-00.0  A',
    ' \\-[0000:80]-+-00.0  A',
    '-[0000:00]---00.0',
    '-[0000:00]--00.0',
    '-[0000:00]-+-01.1-[01]',
    '\x1b[1m-+-[0000:00]-+-00.0\x1b[0m',
  ])
    assert.equal(score([root]), 0.7, root)
  for (const no of [
    '[0000:00]-+-00.0',
    '-+-[0000:0]-+-00.0',
    ' x+-[0000:00]-+-00.0',
    '-+-[0000:00]+-00.0',
    '-+-[0000:00]-x',
    '-+-[0000:00]-+',
    '-+-[000:00]-+-00.0',
    '-+[0000:00]-+-00.0',
  ])
    assert.equal(score([no]), 0, no)
  for (const kid of [' +00.0  A', 'x +-00.0  A', ' +-00.8  A', ' +-0g.0  A', ' |-00.0  A'])
    assert.equal(score(['-[0000:00]-+-00.0  A', kid]), 0.7, kid)
  assert.equal(score([' |   +-00.3  x']), 0)
  assert.equal(score(['#'.repeat(16384), ...T]), 0)
  assert.equal(score(['#'.repeat(16000), ...T]), 0.95)
})

test('normalizeBdf: domain added or cut to four digits, lowercase; anything else undefined', () => {
  assert.equal(normalizeBdf('01:00.0'), '0000:01:00.0')
  assert.equal(normalizeBdf(' 0000:C1:1F.7 '), '0000:c1:1f.7')
  assert.equal(normalizeBdf('00000001:AB:00.1'), '0001:ab:00.1')
  assert.equal(normalizeBdf('ABCD:01:00.0'), 'abcd:01:00.0')
  for (const no of [
    '01:00.8',
    '1:00.0',
    '01:0.0',
    '001:00.0',
    '000000001:01:00.0',
    'x01:00.0',
    '01:00.0x',
    'g1:00.0',
    '01-00.0',
  ])
    assert.equal(normalizeBdf(no), undefined, no)
})

test('looksLikeNvidiaGpu: an NVIDIA function that is not one of its siblings', () => {
  for (const yes of ['NVIDIA Corporation GA100 [A100 SXM4 80GB]', 'nvidia corporation Device 2330'])
    assert.equal(looksLikeNvidiaGpu(yes), true, yes)
  for (const no of [
    'NVIDIA Corporation AD102 High Definition Audio Controller',
    'NVIDIA Corporation TU102 USB 3.1 Host Controller',
    'NVIDIA Corporation TU102 USB Type-C UCSI Controller',
    'NVIDIA Corporation Serial bus',
    'NVIDIA Corporation Ethernet x',
    'NVIDIA Corporation Infiniband y',
    'NVIDIA Corporation ConnectX-7',
    'NVIDIA Corporation BlueField-3',
    'NVIDIA Corporation NVSwitch',
    'NVIDIA Corporation PCI Bridge',
    'NVIDIA Corporation SMBus',
    'NVIDIA Corporation usb',
    'Mellanox Technologies MT2910',
    'NVIDIA',
  ])
    assert.equal(looksLikeNvidiaGpu(no), false, no)
})

test('chainRoles and chainSwitches: root port, then upstream/downstream pairs, a lone last bridge', () => {
  assert.deepEqual(chainRoles([]), [])
  assert.deepEqual(chainRoles(['a']), ['root-port'])
  assert.deepEqual(chainRoles(['a', 'b']), ['root-port', 'bridge'])
  assert.deepEqual(chainRoles(['a', 'b', 'c']), ['root-port', 'switch-upstream', 'switch-downstream'])
  assert.deepEqual(chainRoles(['a', 'b', 'c', 'd']), ['root-port', 'switch-upstream', 'switch-downstream', 'bridge'])
  assert.deepEqual(chainRoles(['a', 'b', 'c', 'd', 'e']), [
    'root-port',
    'switch-upstream',
    'switch-downstream',
    'switch-upstream',
    'switch-downstream',
  ])
  assert.deepEqual(chainSwitches(['a', 'b', 'c', 'd', 'e']), ['b', 'd'])
  assert.deepEqual(chainSwitches(['a', 'b', 'c', 'd']), ['b'])
  assert.deepEqual(chainSwitches(['a', 'b']), [])
})

test('lspci -tv: a function other than .0 is no GPU; a root label followed by no device adds no device', () => {
  const gpu = 'NVIDIA Corporation GA100 [A100 SXM4 80GB]'
  const t = tree(['-[0000:00]-+-00.0  Root', `           +-02.1  ${gpu}`, `           \\-02.0  ${gpu}`])
  assert.deepEqual(
    t.gpus.map((g) => g.bdf),
    ['0000:00:02.0'],
  )
  const odd = tree(['-[0000:00]-+-00.0  Root', ' \\-[0000:40]-unknown 01.0'])
  assert.deepEqual([odd.rootBuses, odd.deviceCount], [['0000:00', '0000:40'], 1])
})

test('lspci -tv detection: a root line may start with its branch or with several blanks', () => {
  assert.equal(p.detect('+-[0000:00]-+-00.0  A\n           \\-01.0  B\n'), 0.95)
  assert.equal(p.detect('  +-[0000:40]-+-00.0  A\n           \\-01.0  B\n'), 0.95)
})
