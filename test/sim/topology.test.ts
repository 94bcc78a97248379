/**
 * SIMULATED topology: the preset machines' nvidia-smi topo / lspci -tv texts read by the real
 * topology parsers, the lspci drawing checked against published trees, captures written by
 * writeSimTopology read back by the topology doctor, and the analysis joining a SIMULATED
 * result set's pairs with the capture's link classes.
 */

import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { analyze } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import { SIM_MARKER } from '../../src/model/index.ts'
import type { LspciTree, P2PMatrix, TopoMatrix } from '../../src/parsers/index.ts'
import { DETECT_BYTES, detectParser, parseText } from '../../src/parsers/index.ts'
import type { PciNode, PciRoot } from '../../src/sim/index.ts'
import {
  presetNames,
  presetTruth,
  renderLspciTree,
  simTopologyInputs,
  simTopologyText,
  trueLatency,
  writeSimTopology,
} from '../../src/sim/index.ts'
import type { TopologyReport } from '../../src/topology/index.ts'
import { CAPTURE_INDEX, collectTopology, pairLinkClass, rankGroupings } from '../../src/topology/index.ts'
import { cli, FIXTURES, tmp } from '../helpers.ts'

const PARSER_OF: Record<string, string | undefined> = {
  'nvidia-smi-query-gpu.csv': undefined,
  'nvidia-smi-topo-m.txt': 'nvidia-smi-topo-m',
  'nvidia-smi-topo-p2p-r.txt': 'nvidia-smi-topo-p2p',
  'nvidia-smi-topo-p2p-w.txt': 'nvidia-smi-topo-p2p',
  'lspci-tv.txt': 'lspci-tv',
}
/** The link class nvidia-smi prints for a path level of the preset's truth (NVLink: NV12, A100-like). */
const printed = (level: string): string => (level === 'NV' ? 'NV12' : level)

test('every preset: topology texts start with the SIMULATED marker, the real parsers read them, and they agree with the preset truth', () => {
  for (const preset of presetNames()) {
    const truth = presetTruth(preset)
    const inputs = simTopologyInputs(preset)
    assert.deepEqual(
      inputs.map((i) => i.name),
      Object.keys(PARSER_OF).filter((n) => preset !== 'nvlink' || n !== 'lspci-tv.txt'),
      preset,
    )
    const busIds = inputs[0]!.text
      .split('\n')
      .filter((l) => /^\d+, /.test(l))
      .map((l) => l.split(', ')[2]!.slice(4).toLowerCase())
    assert.equal(busIds.length, truth.gpuCount)
    for (const { name, text } of inputs) {
      assert.ok(text.startsWith(`${SIM_MARKER}\n# preset ${preset} `), `${preset} ${name}`)
      const want = PARSER_OF[name]
      if (want === undefined) continue
      assert.equal(detectParser(text.slice(0, DETECT_BYTES), ['topology'])?.id, want, `${preset} ${name}`)
      const out = parseText(detectParser(text, ['topology'])!, text, { file: name })
      assert.deepEqual(
        out.diagnostics.filter((d) => d.severity !== 'info'),
        [],
        `${preset} ${name}`,
      )
      const t = out.meta.topology as TopoMatrix | P2PMatrix | LspciTree
      if (t.format === 'nvidia-smi topo -m') {
        assert.equal(t.links.length, truth.gpuCount * (truth.gpuCount - 1))
        for (const l of t.links)
          assert.equal(
            l.link,
            printed(truth.link(Number(l.a.slice(3)), Number(l.b.slice(3))).level),
            `${preset} ${l.a}-${l.b}`,
          )
        assert.equal(t.legend, true)
      } else if (t.format === 'nvidia-smi topo -p2p') {
        assert.equal(t.capability, name.includes('-r.') ? 'read' : 'write')
        assert.equal(t.capabilityFrom, 'command line:2')
        for (const c of t.cells)
          assert.equal(c.status, truth.link(Number(c.a.slice(3)), Number(c.b.slice(3))).peerAccess ? 'OK' : 'NS')
      } else {
        assert.deepEqual(
          t.gpus.map((g) => g.bdf),
          busIds,
          `${preset}: lspci GPUs are the CSV's bus ids`,
        )
      }
    }
  }
})

test('topology numbers as stated in the presets: NUMA, CPU affinity, seed VM with no NUMA (N/A), PCIe switches in lspci -tv', () => {
  const numa = (preset: string): (number | null | undefined)[] => {
    const text = simTopologyText(preset, 'topo-m')
    const t = parseText(detectParser(text, ['topology'])!, text, { file: 'x' }).meta.topology as TopoMatrix
    return t.gpus.map((g) => g.numa)
  }
  assert.deepEqual(numa('seed-vm'), Array(8).fill(null))
  for (const p of ['baremetal-turin', 'pcie-switch', 'nvlink']) assert.deepEqual(numa(p), [0, 0, 0, 0, 1, 1, 1, 1], p)
  const tree = simTopologyText('pcie-switch', 'lspci-tv')
  const t = parseText(detectParser(tree, ['topology'])!, tree, { file: 'x' }).meta.topology as LspciTree
  assert.deepEqual(
    t.gpus.map((g) => g.switches),
    [...Array(4).fill(['0000:11:00.0']), ...Array(4).fill(['0000:91:00.0'])],
  )
  assert.deepEqual(t.gpus[5]!.chain, ['0000:80:01.1', '0000:91:00.0', '0000:92:01.0'])
  // A GPU subset: only those GPUs are drawn, numbered as the benchmarks number them.
  const two = simTopologyText('seed-vm', 'lspci-tv', [6, 1])
  assert.equal((two.match(/RTX PRO 6000/g) ?? []).length, 2)
  assert.match(two, /\+-10\.1-\[02\]--\+-00\.0/)
  assert.match(two, /\+-1c\.2-\[07\]--\+-00\.0/)
  assert.doesNotMatch(two, /10\.0-\[01\]/)
  assert.match(simTopologyText('seed-vm', 'topo-p2p-w', [6, 1]), /^ GPU0\tX\tNS\t$/m)
  assert.throws(() => simTopologyText('nvlink', 'lspci-tv'), /models no PCI tree/)
  assert.throws(() => simTopologyInputs('seed-vm', [0, 8]), /GPU 8 does not exist/)
  assert.throws(() => simTopologyInputs('seed-vm', [1, 1]), /listed twice/)
})

const fn = (dev: string, name: string): PciNode => ({ dev, name })
const br = (dev: string, bus: number, children: PciNode[], subordinate?: number): PciNode => ({
  dev,
  bus,
  children,
  ...(subordinate !== undefined ? { subordinate } : {}),
})
const amd = (dev: string, what: string): PciNode => fn(dev, `Advanced Micro Devices, Inc. [AMD] ${what}`)
const amds = (prefix: string, ids: string[]): PciNode[] => ids.map((id, k) => amd(`${prefix}.${k}`, `Device ${id}`))
const FABRIC = ['14ad', '14ae', '14af', '14b0', '14b1', '14b2', '14b3', '14b4']
const fixtureLines = (file: string, from: number, to: number): string[] =>
  readFileSync(join(FIXTURES, 'lspci-tv', file), 'utf8')
    .split('\n')
    .slice(from - 1, to)

test("lspci -tv drawing is pciutils' own: the Genoa fixture's roots 0000:00 and 0000:20 redrawn line for line", () => {
  const bridge = amd('', 'Device 149f')
  const hb = (dev: string): PciNode => ({ ...bridge, dev })
  const r00: PciRoot = {
    domain: 0,
    bus: 0,
    devices: [
      amd('00.0', 'Device 14a4'),
      amd('00.3', 'Device 14a6'),
      hb('01.0'),
      br('01.1', 0x01, [
        fn('00.0', 'NVIDIA Corporation AD102GL [RTX 6000 Ada Generation]'),
        fn('00.1', 'NVIDIA Corporation AD102 High Definition Audio Controller'),
      ]),
      hb('02.0'),
      hb('03.0'),
      hb('04.0'),
      hb('05.0'),
      br('05.1', 0x02, [fn('00.0', 'Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983')]),
      hb('07.0'),
      br('07.1', 0x03, [
        amd('00.0', 'Device 14ac'),
        amd('00.1', 'Device 14dc'),
        amd('00.4', 'Device 14c9'),
        amd('00.5', 'Genoa CCP/PSP 4.0 Device'),
      ]),
      amd('14.0', 'FCH SMBus Controller'),
      amd('14.3', 'FCH LPC Bridge'),
      ...amds('18', FABRIC),
      ...amds('19', FABRIC),
    ],
  }
  const cx7 = fn('00.0', 'Mellanox Technologies MT2910 Family [ConnectX-7]')
  const r20: PciRoot = {
    domain: 0,
    bus: 0x20,
    devices: [
      amd('00.0', 'Device 14a4'),
      amd('00.3', 'Device 14a6'),
      hb('01.0'),
      hb('02.0'),
      hb('03.0'),
      br('03.1', 0x21, [cx7, { ...cx7, dev: '00.1' }]),
      hb('04.0'),
      hb('05.0'),
      hb('07.0'),
      br('07.1', 0x22, [amd('00.0', 'Device 14ac'), amd('00.1', 'Device 14dc')]),
    ],
  }
  const last: PciRoot = { domain: 0, bus: 0x40, devices: [amd('00.0', 'Device 14a4')] }
  assert.deepEqual(
    renderLspciTree([r00, r20, last], new Set()).slice(0, 45),
    fixtureLines('asus-esc8000a-e12-4x-rtx6000ada-2socket-genoa.txt', 2, 46),
  )
})

test("lspci -tv drawing: the Puget fixture's root 0000:00 (nested switches, bus ranges, empty bridges, a reserved range) line for line", () => {
  const ssd = (dev: string, bus: number): PciNode =>
    br(dev, bus, [fn('00.0', 'Samsung Electronics Co Ltd NVMe SSD Controller S4LV008[Pascal]')])
  const x710 = 'Intel Corporation Ethernet Controller X710 for 10GBASE-T'
  const hb = (dev: string): PciNode => amd(dev, 'Device 149f')
  const r00: PciRoot = {
    domain: 0,
    bus: 0,
    devices: [
      amd('00.0', 'Device 14a4'),
      amd('00.3', 'Device 14a6'),
      hb('01.0'),
      hb('02.0'),
      hb('03.0'),
      br('03.1', 0x01, [
        br('00.0', 0x02, [
          br('00.0', 0x03, [
            br('00.0', 0x04, [ssd('10.0', 0x05), ssd('14.0', 0x06), ssd('18.0', 0x07), ssd('1c.0', 0x08)]),
          ]),
          br('04.0', 0x09, [
            br('00.0', 0x0a, [ssd('00.0', 0x0b), ssd('04.0', 0x0c), ssd('08.0', 0x0d), ssd('0c.0', 0x0e)]),
          ]),
          br('0c.0', 0x0f, [
            br('00.0', 0x10, [
              br('14.0', 0x11, [
                fn('00.0', 'HighPoint Technologies, Inc. SSD7540 PCIe Gen4 x16 8-Port M.2 NVMe RAID Controller'),
              ]),
              br('15.0', 0x12, []),
            ]),
          ]),
          br('1c.0', 0x13, []),
        ]),
      ]),
      hb('04.0'),
      hb('05.0'),
      br('05.1', 0x14, [fn('00.0', x710), fn('00.1', x710)], 0x15),
      hb('07.0'),
      br('07.1', 0x16, [
        amd('00.0', 'Device 14ac'),
        amd('00.4', 'Device 14c9'),
        amd('00.5', 'Genoa CCP/PSP 4.0 Device'),
        amd('00.7', 'Device 14cc'),
      ]),
      amd('14.0', 'FCH SMBus Controller'),
      amd('14.3', 'FCH LPC Bridge'),
      ...amds('18', FABRIC),
    ],
  }
  const last: PciRoot = { domain: 0, bus: 0x20, devices: [amd('00.0', 'Device 14a4')] }
  assert.deepEqual(
    renderLspciTree([r00, last], new Set()).slice(0, 35),
    fixtureLines('puget-wrx90-2x-rtx6000ada-threadripper.txt', 2, 36),
  )
})

/** writeSimTopology into a fresh directory, then the report read back from the capture. */
async function capture(
  preset: string,
  gpus?: number[],
): Promise<{ dir: string; written: TopologyReport; report: TopologyReport }> {
  const dir = join(tmp('gpucomm-sim-topo-'), 'topology')
  const written = await writeSimTopology(dir, preset, gpus)
  return { dir, written, report: await collectTopology({ from: dir }) }
}

const ids = (r: TopologyReport): string[] => r.findings.map((f) => f.id)

test('seed-vm capture: SIMULATED, the VM visible, P2P unavailable, a GPUDirect-clique hint, PHB pairs; nothing read from this host', async () => {
  const { dir, written, report } = await capture('seed-vm')
  assert.equal(JSON.parse(readFileSync(join(dir, CAPTURE_INDEX), 'utf8')).simulated, true)
  assert.equal(report.simulated, true)
  assert.deepEqual(ids(report), ids(written))
  for (const id of ['simulated', 'vm-detected', 'p2p-unavailable', 'vm-gpudirect-clique', 'no-pcie-switch'])
    assert.ok(ids(report).includes(id), `missing ${id} in ${ids(report).join(', ')}`)
  for (const id of ['own-root-complex', 'nccl-p2p-level', 'pcie-switch-p2p', 'nvlink', 'no-gpus'])
    assert.ok(!ids(report).includes(id), `unexpected ${id}`)
  assert.equal(ids(report)[0], 'simulated')
  assert.deepEqual(report.hypervisor, {
    ...report.hypervisor,
    detected: true,
    kind: 'vm',
    cpuFlag: true,
    sysVendor: 'QEMU',
    productName: 'Standard PC (Q35 + ICH9, 2009)',
  })
  assert.equal(report.cpuVendor, 'AuthenticAMD')
  assert.equal(report.pairs.length, 28)
  assert.ok(
    report.pairs.every((p) => p.link === 'PHB' && p.p2p.read === 'NS' && p.p2p.write === 'NS'),
    JSON.stringify(report.pairs[0]),
  )
  assert.deepEqual(
    report.gpus.map((g) => g.busId),
    [1, 2, 3, 4, 5, 6, 7, 8].map((b) => `0000:0${b}:00.0`),
  )
  assert.match(report.gpus[0]!.from.busId!, /nvidia-smi-query-gpu\.csv:3$/)
  assert.ok(report.gpus.every((g) => g.rootBus === '0000:00' && g.switchPath?.length === 0 && g.numa === undefined))
  assert.deepEqual(report.pciRootBuses, ['0000:00'])
  assert.deepEqual(report.diagnostics, [])
  // Only the simulated inputs and the preset's host files: no command ran, no /sys of this machine.
  assert.ok(
    report.sources.every((s) => s.kind !== 'command' && s.name !== '/sys' && s.ok === (s.kind !== 'sysfs')),
    JSON.stringify(report.sources),
  )
  assert.match(report.sources.find((s) => s.kind === 'sysfs')!.note!, /^SIMULATED host files/)
  assert.match(report.groupings.find((g) => g.size === 4)!.reason, /every pair looks alike/)
})

test("pcie-switch capture: pcie-switch-p2p names each switch's GPUs, P2P available, advice groups each switch", async () => {
  const { report } = await capture('pcie-switch')
  assert.ok(ids(report).includes('pcie-switch-p2p'), ids(report).join(', '))
  for (const id of ['p2p-unavailable', 'vm-detected', 'vm-gpudirect-clique'])
    assert.ok(!ids(report).includes(id), `unexpected ${id}`)
  assert.deepEqual(report.findings.find((f) => f.id === 'pcie-switch-p2p')!.facts, [
    'GPUs 0-3 below switch 0000:11:00.0',
    'GPUs 4-7 below switch 0000:91:00.0',
  ])
  const tp4 = rankGroupings(report, 4)
  assert.deepEqual(tp4[0]!.groups, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ])
  assert.ok(tp4[0]!.worstCost < tp4[1]!.worstCost)
  assert.match(tp4[0]!.reason, /\{0-3\}: PIX, one PCIe switch, NUMA 0; \{4-7\}: PIX, one PCIe switch, NUMA 1/)
  for (const g of report.groupings.filter((x) => x.size === 2))
    for (const [a, b] of g.groups) assert.equal(Math.floor(a! / 4), Math.floor(b! / 4), `TP2 ${a}-${b}`)
  assert.ok(
    report.pairs.every((p) => p.p2p.read === 'OK' && p.sameSwitch === (Math.floor(p.a / 4) === Math.floor(p.b / 4))),
  )
})

test("baremetal-turin capture: NODE within a socket, SYS across, P2P OK, NCCL_P2P_LEVEL advice; a GPU subset keeps the benchmarks' numbering", async () => {
  const { report } = await capture('baremetal-turin')
  assert.equal(report.pairs.length, 28)
  for (const p of report.pairs)
    assert.equal(p.link, Math.floor(p.a / 4) === Math.floor(p.b / 4) ? 'NODE' : 'SYS', `${p.a}-${p.b}`)
  assert.ok(report.pairs.every((p) => p.p2p.read === 'OK' && p.p2p.write === 'OK'))
  assert.ok(ids(report).includes('nccl-p2p-level') && ids(report).includes('own-root-complex'), ids(report).join(', '))
  assert.ok(!ids(report).includes('vm-detected'))
  assert.equal(report.hypervisor.detected, false)
  // GPUs 4 and 0, in that order: GPU0 is physical 4 (bus 81), as CUDA_VISIBLE_DEVICES=4,0 numbers it.
  const sub = await capture('baremetal-turin', [4, 0])
  assert.deepEqual(
    sub.report.gpus.map((g) => g.busId),
    ['0000:81:00.0', '0000:01:00.0'],
  )
  assert.deepEqual(
    sub.report.gpus.map((g) => g.numa),
    [1, 0],
  )
  assert.equal(pairLinkClass(sub.report, 0, 1), 'SYS')
  assert.deepEqual(sub.report.diagnostics, [])
})

test('simulated inputs given by hand are reported SIMULATED too; a real fixture is not', async () => {
  const f = join(tmp('gpucomm-sim-topo-in-'), 'topo.txt')
  writeFileSync(f, simTopologyText('nvlink', 'topo-m'))
  const sim = await collectTopology({ inputs: [f] })
  assert.equal(sim.simulated, true)
  assert.deepEqual(ids(sim).slice(0, 2), ['simulated', 'nvlink'])
  const real = await collectTopology({
    inputs: [join(FIXTURES, 'nvidia-smi-topo-m', 'ml-engineering-8x-a100-nv12-compact-spacing.txt')],
  })
  assert.equal(real.simulated, undefined)
  assert.ok(!ids(real).includes('simulated'))
})

/** A SIMULATED result set: `gpucomm sim --format p2p` output imported, plus writeSimTopology in <set>/topology. */
async function simSetWithTopology(preset: string): Promise<string> {
  const r = await cli(['sim', '--preset', preset, '--format', 'p2p', '--seed', '2'])
  assert.equal(r.code, 0, r.stderr)
  const set = join(tmp('gpucomm-sim-topo-set-'), 'set')
  await importFiles([{ path: `sim-${preset}-p2p.txt`, data: Buffer.from(r.stdout) }], {
    out: set,
    command: ['generated-by-test'],
  })
  await writeSimTopology(join(set, 'topology'), preset)
  return set
}

test('analyze: a SIMULATED baremetal-turin set with its simulated capture aggregates pairs by link class (NODE, SYS)', async () => {
  const set = await simSetWithTopology('baremetal-turin')
  const a = await analyze(set, { cells: false })
  assert.equal(a.simulated, true)
  assert.equal(a.topology.source, join(set, 'topology'))
  const lat = a.classes.filter((c) => c.bench === 'p2p.latency' && c.p2p === 'enabled')
  assert.deepEqual(lat.map((c) => [c.linkClass, c.pairs]).sort(), [
    ['NODE', 24],
    ['SYS', 32],
  ])
  for (const c of lat) {
    const [x, y] = c.linkClass === 'NODE' ? [0, 1] : [0, 4]
    const want = trueLatency('baremetal-turin', x, y, 'enabled')
    assert.ok(Math.abs(c.medianAlpha / want - 1) < 0.05, `${c.linkClass}: ${c.medianAlpha} vs ${want}`)
  }
  assert.ok(
    a.fits
      .filter((f) => f.bench === 'p2p.latency' && f.src !== f.dst)
      .every((f) => f.linkClass === (Math.floor(f.src! / 4) === Math.floor(f.dst! / 4) ? 'NODE' : 'SYS')),
  )
})

test('analyze: a SIMULATED seed-vm set with its capture: every pair PHB, host-staged', async () => {
  const a = await analyze(await simSetWithTopology('seed-vm'), { cells: false })
  const lat = a.classes.filter((c) => c.bench === 'p2p.latency')
  assert.ok(lat.length > 0 && lat.every((c) => c.linkClass === 'PHB' && c.pairs === 56), JSON.stringify(lat))
})

test('gpucomm sim --format topo-m|topo-p2p-r|topo-p2p-w|lspci-tv prints the texts; bad combinations exit 2 with one line', async () => {
  for (const format of ['topo-m', 'topo-p2p-r', 'topo-p2p-w', 'lspci-tv'] as const) {
    const r = await cli(['sim', '--preset', 'pcie-switch', '--format', format, '--gpus', '0,5'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, simTopologyText('pcie-switch', format, [0, 5]))
  }
  for (const [args, msg] of [
    [['--preset', 'nvlink', '--format', 'lspci-tv'], /preset nvlink models no PCI tree/],
    [
      ['--preset', 'seed-vm', '--format', 'topo-m', '--fault', 'crash'],
      /--fault crash needs --format nccl-tests or p2p/,
    ],
    [['--preset', 'seed-vm', '--format', 'topo-m', '--gpus', '0-9'], /GPU 8 does not exist/],
  ] as const) {
    const r = await cli(['sim', ...args])
    assert.equal(r.code, 2, r.stdout)
    assert.match(r.stderr, msg)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  }
})
