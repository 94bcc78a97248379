/**
 * The topology doctor over GENERATED sysfs trees (real dirs and symlinks in a temp dir):
 * the seed VM of issue 3 and a bare-metal host with two PCIe switches on two sockets.
 */

import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { TopologyReport } from '../../../src/topology/index.ts'
import { pairLinkClass, rankGroupings } from '../../../src/topology/index.ts'
import { cli, tmp } from '../../helpers.ts'
import { buildSeedVm, buildTwoSwitchHost, p2pMatrix, SEED_GPUS, SEED_GROUPS } from './_sysfs-tree.ts'

async function topoJson(args: string[]): Promise<{ code: number; report: TopologyReport; stderr: string }> {
  const r = await cli(['topo', ...args, '--json'])
  return { code: r.code, report: JSON.parse(r.stdout) as TopologyReport, stderr: r.stderr }
}

function seed(): { root: string; inputs: string[] } {
  const dir = tmp('gpucomm-topo-seed-')
  const root = join(dir, 'root')
  buildSeedVm(root)
  const inputs = ['r', 'w'].map((c) => {
    const f = join(dir, `generated-seed-vm-topo-p2p-${c}.txt`)
    writeFileSync(f, p2pMatrix(c, 8, 'NS'))
    return f
  })
  return { root, inputs }
}

test('seed VM: 8 GPUs on own root complexes, NS everywhere → the six findings and grouping advice', async () => {
  const { root, inputs } = seed()
  const { code, report, stderr } = await topoJson(['--sysfs-root', root, '--input', ...inputs])
  assert.equal(code, 0, stderr)
  assert.deepEqual(
    report.gpus.map((g) => g.busId),
    SEED_GPUS.map((b) => `0000:${b}:00.0`),
  )
  assert.deepEqual(
    report.gpus.map((g) => g.iommuGroup),
    [...SEED_GROUPS],
  )
  assert.deepEqual(
    report.gpus.map((g) => g.rootBus),
    SEED_GPUS.map((b) => `0000:${(parseInt(b, 16) - 1).toString(16).padStart(2, '0')}`),
  )
  assert.ok(report.gpus.every((g) => g.pciId === '10de:2bb5' && g.switchPath?.length === 0 && g.upstream?.length === 1))
  assert.equal(report.gpus[0]?.from.iommuGroup, 'sysfs /sys/bus/pci/devices/0000:01:00.0/iommu_group')
  const ids = report.findings.map((f) => f.id)
  for (const id of [
    'own-root-complex',
    'no-pcie-switch',
    'acs-override-useless',
    'vm-detected',
    'p2p-unavailable',
    'vm-gpudirect-clique',
  ])
    assert.ok(ids.includes(id), `missing ${id} in ${ids.join(', ')}`)
  for (const id of ['pcie-switch-p2p', 'nccl-p2p-level', 'nvlink', 'no-gpus'])
    assert.ok(!ids.includes(id), `unexpected ${id}`)
  assert.equal(report.pairs.length, 28)
  assert.ok(report.pairs.every((p) => p.p2p.read === 'NS' && p.p2p.write === 'NS'))
  assert.ok(report.pairs.every((p) => p.expected?.lowS === 10e-6 && p.expected.highS === 15e-6))
  assert.equal(report.hypervisor.detected, true)
  assert.equal(report.hypervisor.sysVendor, 'QEMU')
  assert.equal(report.pciRootBuses.length, 8)
  const sizes = report.groupings.map((g) => g.size)
  assert.ok(sizes.includes(2) && sizes.includes(4) && sizes.includes(8))
  const tp4 = report.groupings.find((g) => g.size === 4)
  assert.match(tp4?.reason ?? '', /P2P unavailable/)
  assert.match(tp4?.reason ?? '', /every pair looks alike/)
  const human = await cli(['topo', '--sysfs-root', root, '--input', ...inputs])
  assert.equal(human.code, 0)
  assert.match(human.stdout, /GPU0\s+X\s+NODE NS/)
  assert.match(human.stdout, /\[problem\] p2p-unavailable: .*10–15 µs/)
  assert.match(human.stdout, /x-nv-gpudirect-clique/)
})

test('bare metal, 2 sockets × 1 PCIe switch × 4 GPUs: pcie-switch-p2p, no p2p-unavailable, groups follow the switches', async () => {
  const root = join(tmp('gpucomm-topo-metal-'), 'root')
  buildTwoSwitchHost(root)
  const { code, report, stderr } = await topoJson(['--sysfs-root', root])
  assert.equal(code, 0, stderr)
  assert.equal(report.gpus.length, 8)
  assert.deepEqual(
    report.gpus.map((g) => g.switchPath?.[0]),
    [
      '0000:01:00.0',
      '0000:01:00.0',
      '0000:01:00.0',
      '0000:01:00.0',
      '0000:81:00.0',
      '0000:81:00.0',
      '0000:81:00.0',
      '0000:81:00.0',
    ],
  )
  assert.deepEqual(
    report.gpus.map((g) => g.numa),
    [0, 0, 0, 0, 1, 1, 1, 1],
  )
  const ids = report.findings.map((f) => f.id)
  assert.ok(ids.includes('pcie-switch-p2p'), ids.join(', '))
  for (const id of [
    'p2p-unavailable',
    'vm-detected',
    'vm-gpudirect-clique',
    'own-root-complex',
    'no-pcie-switch',
    'acs-override-useless',
  ])
    assert.ok(!ids.includes(id), `unexpected ${id}`)
  assert.ok(ids.includes('nccl-p2p-level'), 'bare-metal AMD, 8 GPUs, SYS pairs')
  const redirect = report.findings.find((f) => f.id === 'acs-p2p-redirect')
  assert.deepEqual(
    redirect?.facts.map((f) => f.slice(0, 4)),
    ['GPU4', 'GPU5', 'GPU6', 'GPU7'],
  )
  assert.equal(pairLinkClass(report, 0, 3), 'PIX')
  assert.equal(pairLinkClass(report, 5, 1), 'SYS')
  assert.equal(
    report.pairs.find((p) => p.a === 0 && p.b === 1)?.from.link,
    'derived from the PCI tree (no nvidia-smi topo -m)',
  )
  const tp4 = rankGroupings(report, 4)
  assert.equal(tp4.length, 35)
  assert.deepEqual(tp4[0]?.groups, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ])
  assert.ok((tp4[0]?.worstCost ?? 99) < (tp4[1]?.worstCost ?? 0))
  assert.match(tp4[0]?.reason ?? '', /\{0-3\}: PIX, one PCIe switch, NUMA 0; \{4-7\}: PIX, one PCIe switch, NUMA 1/)
  const tp2 = report.groupings.filter((g) => g.size === 2)
  assert.ok(tp2.length > 0)
  for (const g of tp2)
    for (const [a, b] of g.groups)
      assert.equal(Math.floor((a as number) / 4), Math.floor((b as number) / 4), `TP2 pair ${a}-${b} crosses switches`)
  assert.deepEqual(report.groupings.find((g) => g.size === 8)?.groups, [[0, 1, 2, 3, 4, 5, 6, 7]])
})
