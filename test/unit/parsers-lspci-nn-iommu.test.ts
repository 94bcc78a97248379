/**
 * The `lspci -nn` reader (src/parsers/system/lspci-nn.ts) and the IOMMU group listing reader
 * (src/parsers/system/iommu-groups.ts) on GENERATED text written after the shapes lspci and find
 * print: address spellings, class and id brackets, rev and prog-if tails, `-k` driver lines,
 * which functions are GPUs, root buses, groups, repeated and moved devices, detection scores.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { IommuGroups, LspciList, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'

const nn = parserById('lspci-nn') as Parser
const io = parserById('iommu-groups') as Parser
const parse = (p: Parser, lines: string[]) => parseText(p, `${lines.join('\n')}\n`, { file: 'generated.txt' })
const diags = (p: Parser, lines: string[]) =>
  parse(p, lines).diagnostics.map((d) => [d.line, d.severity, d.code, d.message])

const NN = [
  '\tKernel driver in use: early',
  '0000:40:00.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse Root Complex [1022:1480]',
  '00:00.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse Root Complex [1022:1480]',
  '00:18.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Data Fabric [1022:1490]',
  '00000000:C1:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 SXM4 80GB] [10DE:20B2] (rev a1)',
  '\tSubsystem: NVIDIA Corporation Device [10de:147f]',
  '  Kernel driver in use:   nvidia   ',
  'Kernel driver in use: not-indented',
  '\tKernel modules: nvidiafb, nouveau, nvidia',
  '41:00.0 VGA compatible controller [030A]: NVIDIA Corporation AD102 [10de:2684] (rev A1) (prog-if 00 [VGA controller])',
  '41:00.1 Audio device [0403]: NVIDIA Corporation AD102 High Definition Audio Controller [10de:22ba] (rev a1)',
  '05:00.0 Bridge [0680]: NVIDIA Corporation GH100 [H100 NVSwitch] [10de:22a3] (rev a1)',
  '02:00.0 VGA compatible controller [0300]: ASPEED Technology, Inc. ASPEED Graphics Family [1a03:2000] (rev 41)',
  '03:00.0 Display controller [0380]: NVIDIA Corporation Device [10de:2331]',
  '  \tKernel driver in use: vfio-pci',
]

test('lspci -nn: NVIDIA display functions (vendor 10de, class 03xx) in bus order, with -k drivers', () => {
  const t = parse(nn, NN).meta.topology as LspciList
  assert.equal(t.deviceCount, 9)
  assert.deepEqual(t.rootBuses, ['0000:00', '0000:40'])
  assert.deepEqual(t.gpus, [
    {
      bdf: '0000:03:00.0',
      classCode: '0380',
      className: 'Display controller',
      pciId: '10de:2331',
      name: 'NVIDIA Corporation Device',
      driver: 'vfio-pci',
      line: 14,
    },
    {
      bdf: '0000:41:00.0',
      classCode: '030a',
      className: 'VGA compatible controller',
      pciId: '10de:2684',
      name: 'NVIDIA Corporation AD102',
      line: 10,
    },
    {
      bdf: '0000:c1:00.0',
      classCode: '0302',
      className: '3D controller',
      pciId: '10de:20b2',
      name: 'NVIDIA Corporation GA100 [A100 SXM4 80GB]',
      driver: 'nvidia',
      line: 5,
    },
  ])
  assert.deepEqual(diags(nn, NN), [])
})

test('lspci -nn: a device line without the ids is warned; other lines are ignored; no device is an error', () => {
  const lines = [
    '01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)',
    '0000:01:00.1 Audio device: NVIDIA Corporation GA102 Audio',
    '01:00.8 VGA compatible controller [0300]: NVIDIA Corporation GA102 [10de:2204]',
    '01:00.0VGA [0300]: x [10de:2204]',
    '1:00.0 x',
    'lspci: Unable to load libkmod resources',
  ]
  assert.deepEqual(diags(nn, lines), [
    [1, 'warn', 'unparsed', 'a device line without [class] and [vendor:device] ids (was -nn given?); skipped'],
    [2, 'warn', 'unparsed', 'a device line without [class] and [vendor:device] ids (was -nn given?); skipped'],
    [
      6,
      'error',
      'no-devices',
      'no lspci -nn device line found (e.g. "01:00.0 VGA compatible controller [0300]: … [10de:2bb5]")',
    ],
  ])
  assert.deepEqual(parse(nn, lines).meta, {})
  assert.deepEqual(
    parseText(nn, '', { file: 'e.txt' }).diagnostics.map((d) => [d.line, d.code]),
    [[1, 'no-devices']],
  )
  for (const bad of [
    '01:00.0 VGA [0300]: NVIDIA [10de:2204] trailing',
    '01:00.0 VGA [030]: NVIDIA [10de:2204]',
    '01:00.0 VGA [0300]: NVIDIA [10de:220]',
    '01:00.0 VGA [0300] NVIDIA [10de:2204]',
    '01:00.0 VGA [0300]:NVIDIA [10de:2204]',
    '01:00.0 VGA [0300]: NVIDIA [10de:2204] (rev)',
    '01:00.0 VGA [0300]: NVIDIA [10de:2204] (rev a1) x',
    ' 01:00.0 VGA [0300]: NVIDIA [10de:2204]',
    '001:00.0 VGA [0300]: NVIDIA [10de:2204]',
  ])
    assert.deepEqual(parse(nn, [bad]).meta, {}, bad)
  const ok = parse(nn, ['01:00.0 VGA [0300]: [10de:2204]  ', 'fffffff:02:00.0 3D [0302]:  NVIDIA   [10de:2330]'])
  assert.deepEqual(
    (ok.meta.topology as LspciList).gpus.map((g) => [g.bdf, g.name]),
    [
      ['0000:01:00.0', ''],
      ['ffff:02:00.0', 'NVIDIA'],
    ],
  )
})

test('lspci -nn detection: two device lines, or one in a short text', () => {
  const score = (l: string[]) => nn.detect(`${l.join('\n')}\n`)
  assert.equal(score(NN), 0.9)
  assert.equal(score([NN[4] as string]), 0.9)
  assert.equal(score(['', NN[4] as string, '  ', 'a', 'b']), 0.9)
  assert.equal(score(['x', NN[4] as string, 'a', 'b']), 0)
  assert.equal(score([`\x1b[1m${NN[4]}\x1b[0m`]), 0.9)
  assert.equal(score(['01:00.0 VGA compatible controller: NVIDIA Corporation GA102']), 0)
  assert.equal(score(['#'.repeat(16384), NN[4] as string]), 0)
  assert.equal(score(['#'.repeat(16000), NN[4] as string]), 0.9)
})

const G = '/sys/kernel/iommu_groups'

test('IOMMU groups: devices sorted per group; prefixes, 8-digit domains and case; a repeat is not a second entry', () => {
  const out = parse(io, [
    `${G}/7/devices/0000:C1:00.1`,
    `  ./iommu_groups/7/devices/00000000:c1:00.0  `,
    `\x1b[1m${G}/0/devices/0000:00:01.0\x1b[0m`,
    `${G}/7/devices/0000:c1:00.0`,
    'lrwxrwxrwx 1 root root 0 iommu_groups/12/devices/0000:41:00.0',
    'total 0',
  ])
  const t = out.meta.topology as IommuGroups
  assert.deepEqual(t.groups, { '0': ['0000:00:01.0'], '7': ['0000:c1:00.0', '0000:c1:00.1'], '12': ['0000:41:00.0'] })
  assert.deepEqual(t.byDevice, { '0000:c1:00.1': 7, '0000:c1:00.0': 7, '0000:00:01.0': 0, '0000:41:00.0': 12 })
  assert.deepEqual(out.diagnostics, [])
})

test('IOMMU groups: a device in two groups is warned (the later is used); a path without a device is warned', () => {
  const lines = [
    `${G}/0/devices/0000:01:00.0`,
    `${G}/3/devices/0000:01:00.0`,
    `${G}/3/devices/0000:01:00.0 x`,
    `${G}/3`,
    `${G}/x/devices/0000:01:00.0`,
    `${G}/3/devices/0000:01:00.8`,
    'iommu_groups',
    'no group here',
  ]
  assert.deepEqual(diags(io, lines), [
    [2, 'warn', 'two-groups', '0000:01:00.0 listed in groups 0 and 3; the later is used'],
    ...[3, 4, 5, 6].map((l) => [
      l,
      'warn',
      'unparsed',
      'an iommu_groups path without …/<group>/devices/<pci address>; skipped',
    ]),
  ])
  const t = parse(io, lines).meta.topology as IommuGroups
  assert.deepEqual(t.byDevice, { '0000:01:00.0': 3 })
  // The device is in the group that is used, and only there (an emptied group goes).
  assert.deepEqual(t.groups, { '3': ['0000:01:00.0'] })
  const kept = parse(io, [`${G}/0/devices/0000:02:00.0`, `${G}/0/devices/0000:01:00.0`, `${G}/5/devices/0000:01:00.0`])
  assert.deepEqual(kept.meta.topology, {
    format: 'iommu groups',
    groups: { '0': ['0000:02:00.0'], '5': ['0000:01:00.0'] },
    byDevice: { '0000:02:00.0': 0, '0000:01:00.0': 5 },
  })
})

test('IOMMU groups with no path: one error at the last line; detection by the share of path lines', () => {
  assert.deepEqual(diags(io, ['a', `${G}/3`]), [
    [2, 'warn', 'unparsed', 'an iommu_groups path without …/<group>/devices/<pci address>; skipped'],
    [2, 'error', 'no-groups', 'no IOMMU group path found (e.g. "/sys/kernel/iommu_groups/42/devices/0000:01:00.0")'],
  ])
  assert.deepEqual(parse(io, ['a']).meta, {})
  assert.deepEqual(
    parseText(io, '', { file: 'e.txt' }).diagnostics.map((d) => [d.line, d.code]),
    [[1, 'no-groups']],
  )
  const score = (l: string[]) => io.detect(`${l.join('\n')}\n`)
  const path = `${G}/1/devices/0000:01:00.0`
  assert.equal(score([path]), 0.95)
  assert.equal(score([path, 'x']), 0.95)
  assert.equal(score([path, '', '   ', 'x']), 0.95)
  assert.equal(score([path, 'x', 'y']), 0)
  assert.equal(score([`  ${path}  `, 'x']), 0.95)
  assert.equal(score(['x', '']), 0)
  assert.equal(score([]), 0)
  assert.equal(score(['#'.repeat(16384), path]), 0)
  assert.equal(score(['#'.repeat(16000), path]), 0.95)
})

test('lspci -nn: driver and device-like text only at the line start; exactly two device lines in a long text', () => {
  const lines = [NN[4] as string, '  Note: Kernel driver in use: nouveau', 'see 01:00.0 above', NN[2] as string]
  const t = parse(nn, lines).meta.topology as LspciList
  assert.equal(t.gpus[0]?.driver, undefined)
  assert.deepEqual(diags(nn, lines), [])
  assert.equal(nn.detect(`x\n${NN[4]}\ny\n${NN[2]}\nz\n`), 0.9)
})

test('IOMMU groups: an address with more glued to it is no device', () => {
  const lines = [`${G}/5/devices/0000:02:00.0`, `${G}/5/devices/0000:02:00.1x`]
  assert.deepEqual(diags(io, lines), [
    [2, 'warn', 'unparsed', 'an iommu_groups path without …/<group>/devices/<pci address>; skipped'],
  ])
  assert.deepEqual((parse(io, lines).meta.topology as IommuGroups).groups, { '5': ['0000:02:00.0'] })
})
