/**
 * Topology parsers over every real fixture (nvidia-smi topo -m, topo -p2p, lspci -tv),
 * with golden files read against the fixture text; lspci -nn and IOMMU listings over
 * GENERATED text; malformed input → diagnostics with file:line.
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { IommuGroups, LspciList, LspciTree, P2PMatrix, Parser, TopoMatrix } from '../../../src/parsers/index.ts'
import { detectParser, PARSERS, parserById, parseText } from '../../../src/parsers/index.ts'
import { checkGolden } from '../../golden.ts'
import { FIXTURES } from '../../helpers.ts'

const parser = (id: string): Parser => parserById(id) as Parser

for (const dir of ['nvidia-smi-topo-m', 'nvidia-smi-topo-p2p', 'lspci-tv']) {
  for (const f of readdirSync(join(FIXTURES, dir)).filter((x) => x.endsWith('.txt') && !x.endsWith('.source.txt'))) {
    test(`${dir}/${f}: detected, parsed without errors, golden`, () => {
      const text = readFileSync(join(FIXTURES, dir, f), 'utf8')
      const p = detectParser(text, ['topology'])
      assert.equal(p?.id, dir)
      for (const other of PARSERS.filter((x) => x.kind === 'topology' && x.id !== dir))
        assert.ok(other.detect(text) < 0.5, `${other.id} also claims ${f}`)
      const out = parseText(parser(dir), text, { file: f })
      assert.equal(out.rows.length, 0)
      assert.deepEqual(
        out.diagnostics.filter((d) => d.severity === 'error'),
        [],
      )
      assert.ok(out.meta.topology, 'meta.topology')
      checkGolden(`topology-parsers/${dir}/${f.replace(/\.txt$/, '')}`, {
        meta: out.meta,
        diagnostics: out.diagnostics,
      })
    })
  }
}

test("topo -m facts match the fixtures' stated headlines", () => {
  const read = (f: string): TopoMatrix =>
    parseText(parser('nvidia-smi-topo-m'), readFileSync(join(FIXTURES, 'nvidia-smi-topo-m', f), 'utf8'), { file: f })
      .meta.topology as TopoMatrix
  const asus = read('asus-esc8000a-4x-rtx6000ada-nic-node-sys.txt')
  assert.deepEqual(asus.devices, ['GPU0', 'GPU1', 'GPU2', 'GPU3', 'NIC0', 'NIC1', 'NIC2', 'NIC3'])
  assert.equal(asus.links.find((l) => l.a === 'GPU0' && l.b === 'GPU1')?.link, 'NODE')
  assert.equal(asus.links.find((l) => l.a === 'GPU1' && l.b === 'GPU2')?.link, 'SYS')
  assert.equal(asus.links.find((l) => l.a === 'NIC2' && l.b === 'NIC3')?.link, 'PIX')
  assert.deepEqual(
    asus.gpus.map((g) => [g.cpuAffinity, g.numa, g.gpuNumaId]),
    [
      ['0-31', 0, null],
      ['0-31', 0, null],
      ['32-63', 1, null],
      ['32-63', 1, null],
    ],
  )
  assert.deepEqual(asus.nics, { NIC0: 'mlx5_0', NIC1: 'mlx5_1', NIC2: 'mlx5_2', NIC3: 'mlx5_3' })
  const l4 = read('cuda-samples284-2x-l4-sys-numa0-numa2-no-legend.txt')
  assert.deepEqual(
    l4.gpus.map((g) => [g.cpuAffinity, g.numa]),
    [
      ['0-7,32-39', 0],
      ['16-23,48-55', 2],
    ],
  )
  assert.equal(l4.legend, false)
  const aik = read('aikitoria13-5x-gpu-epyc-node-phb-raw-tabs.txt')
  assert.deepEqual(
    aik.links.filter((l) => l.link === 'PHB').map((l) => `${l.a}-${l.b}`),
    ['GPU3-GPU4', 'GPU4-GPU3'],
  )
  assert.equal(aik.links.filter((l) => l.link === 'NODE').length, 18)
  const h100 = read('ml-engineering-8x-h100-nv18-2numa.txt')
  assert.ok(h100.links.length === 56 && h100.links.every((l) => l.link === 'NV18'))
  assert.equal(h100.gpus[7]?.cpuAffinity, '52-103,156-207')
})

test('topo -p2p: capability from the command line, statuses as printed', () => {
  const read = (f: string): P2PMatrix =>
    parseText(parser('nvidia-smi-topo-p2p'), readFileSync(join(FIXTURES, 'nvidia-smi-topo-p2p', f), 'utf8'), {
      file: f,
    }).meta.topology as P2PMatrix
  const aik = read('aikitoria13-5x-gpu-pcie-p-all-ok-raw-tabs-truncated.txt')
  assert.deepEqual([aik.capability, aik.capabilityFrom, aik.cells.length], ['pci', 'command line:3', 20])
  assert.ok(aik.cells.every((c) => c.status === 'OK'))
  const l4 = read('ml-engineering-2x-l4-read-cns-no-legend.txt')
  assert.deepEqual(
    l4.cells.map((c) => [c.a, c.b, c.status]),
    [
      ['GPU0', 'GPU1', 'CNS'],
      ['GPU1', 'GPU0', 'CNS'],
    ],
  )
  assert.equal(l4.capability, 'read')
  const named = parseText(
    parser('nvidia-smi-topo-p2p'),
    '        GPU0    GPU1\n GPU0   X       OK\n GPU1   OK      X\n',
    { file: 'generated-topo-p2p-w.txt' },
  ).meta.topology as P2PMatrix
  assert.deepEqual([named.capability, named.capabilityFrom], ['write', 'file name'])
})

test("lspci -tv: each GPU's chain to its root bus; switches detected; bus numbers from the tree", () => {
  const read = (f: string): LspciTree =>
    parseText(parser('lspci-tv'), readFileSync(join(FIXTURES, 'lspci-tv', f), 'utf8'), { file: f }).meta
      .topology as LspciTree
  const asus = read('asus-esc8000a-e12-4x-rtx6000ada-2socket-genoa.txt')
  assert.deepEqual(
    asus.gpus.map((g) => [g.bdf, g.rootBus, g.chain.join('>'), g.switches.length]),
    [
      ['0000:01:00.0', '0000:00', '0000:00:01.1', 0],
      ['0000:41:00.0', '0000:40', '0000:40:01.1', 0],
      ['0000:c1:00.0', '0000:c0', '0000:c0:01.1', 0],
      ['0000:e1:00.0', '0000:e0', '0000:e0:01.1', 0],
    ],
  )
  assert.equal(asus.rootBuses.length, 8)
  // The NVMe behind two nested switches: 60:01.1 > 61:00.0 (up) > 62:00.0 (down) > 63:00.0 (up) > 64:10.0 (down) > 65:00.0
  const nvme = asus.bridges.find((b) => b.secondaryBus === '0000:65')
  assert.deepEqual([nvme?.bdf, nvme?.parent], ['0000:64:10.0', '0000:63:00.0'])
  const puget = read('puget-wrx90-2x-rtx6000ada-threadripper.txt')
  assert.deepEqual(
    puget.gpus.map((g) => [g.bdf, g.chain[0]]),
    [
      ['0000:c1:00.0', '0000:c0:01.1'],
      ['0000:c2:00.0', '0000:c0:03.1'],
    ],
  )
  assert.equal(puget.bridges.find((b) => b.bdf === '0000:23:00.0')?.secondaryBus, '0000:28')
})

test('lspci -nn (GENERATED text): GPUs by vendor 10de and class 03xx, driver from -k', () => {
  const text = [
    '00:00.0 Host bridge [0600]: Intel Corporation 82G33/G31/P35/P31 Express DRAM Controller [8086:29c0]',
    '01:00.0 3D controller [0302]: NVIDIA Corporation Device [10de:2bb5] (rev a1)',
    '\tSubsystem: NVIDIA Corporation Device [10de:204e]',
    '\tKernel driver in use: nvidia',
    '01:00.1 Audio device [0403]: NVIDIA Corporation Device [10de:22e8] (rev a1)',
    '0000:11:00.0 VGA compatible controller [0300]: NVIDIA Corporation Device [10de:2bb5] (rev a1)',
    '\tKernel driver in use: vfio-pci',
  ].join('\n')
  assert.equal(detectParser(text, ['topology'])?.id, 'lspci-nn')
  const t = parseText(parser('lspci-nn'), text, { file: 'generated-lspci-nn.txt' }).meta.topology as LspciList
  assert.deepEqual(
    t.gpus.map((g) => [g.bdf, g.pciId, g.classCode, g.driver, g.line]),
    [
      ['0000:01:00.0', '10de:2bb5', '0302', 'nvidia', 2],
      ['0000:11:00.0', '10de:2bb5', '0300', 'vfio-pci', 6],
    ],
  )
  assert.deepEqual(t.rootBuses, ['0000:00'])
})

test('IOMMU group listing (GENERATED, as find prints it): groups and devices', () => {
  const text =
    '/sys/kernel/iommu_groups/42/devices/0000:01:00.0\n/sys/kernel/iommu_groups/42/devices/0000:01:00.1\n/sys/kernel/iommu_groups/10/devices/0000:71:00.0\n'
  assert.equal(detectParser(text, ['topology'])?.id, 'iommu-groups')
  const t = parseText(parser('iommu-groups'), text, { file: 'generated-iommu.txt' }).meta.topology as IommuGroups
  assert.deepEqual(t.groups, { '42': ['0000:01:00.0', '0000:01:00.1'], '10': ['0000:71:00.0'] })
  assert.equal(t.byDevice['0000:71:00.0'], 10)
})

test('bad input: empty, random text, a missing column → diagnostics with file:line', () => {
  for (const p of PARSERS.filter((x) => x.kind === 'topology')) {
    assert.equal(p.detect(''), 0, p.id)
    assert.equal(p.detect('hello world\nthis is not a topology\n'), 0, p.id)
    const out = parseText(p, 'hello world\n', { file: 'junk.txt' })
    assert.equal(out.meta.topology, undefined)
    assert.ok(
      out.diagnostics.some((d) => d.severity === 'error' && d.file === 'junk.txt' && d.line === 1),
      p.id,
    )
  }
  const missing =
    '\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNODE\tSYS\t0-31\t0\nGPU1\tNODE\t X \t0-31\t0\nGPU2\tSYS\tSYS\t X \t32-63\t1\n'
  const out = parseText(parser('nvidia-smi-topo-m'), missing, { file: 'generated-missing.txt' })
  assert.deepEqual(
    out.diagnostics.map((d) => [d.line, d.severity, d.code]),
    [
      [3, 'error', 'short-row'],
      [4, 'warn', 'missing-row'],
    ],
  )
  assert.match(out.diagnostics[0]?.message ?? '', /row GPU1: 3 device cells expected, found 2/)
  assert.deepEqual(
    (out.meta.topology as TopoMatrix).links.map((l) => `${l.a}-${l.b}`),
    ['GPU0-GPU1', 'GPU0-GPU2', 'GPU2-GPU0', 'GPU2-GPU1'],
  )
  const spaced = '        GPU0    GPU1\n GPU0   X       NS\n GPU1   NS\n'
  const p2p = parseText(parser('nvidia-smi-topo-p2p'), spaced, { file: 'generated-p2p-r.txt' })
  assert.deepEqual(
    p2p.diagnostics.map((d) => [d.line, d.code]),
    [
      [3, 'short-row'],
      [3, 'missing-row'],
    ],
  )
})
