/**
 * `gpucomm topo` end to end: the --json contract over real fixtures, this machine without
 * GPUs (for real) and an empty fake sysfs root, bad input, and capture → --from.
 */

import assert from 'node:assert/strict'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { test } from 'node:test'
import type { TopologyReport } from '../../src/topology/index.ts'
import { bin, cli, FIXTURES, tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'
import { buildSeedVm, p2pMatrix } from '../unit/topology/_sysfs-tree.ts'

const fx = (dir: string, f: string): string => join(FIXTURES, dir, f)
const json = (s: string): TopologyReport => JSON.parse(s) as TopologyReport

test('--input FILE... --json: gpus, pairs (link as printed, p2p by capability), findings, groupings', async () => {
  const r = await cli([
    'topo',
    '--input',
    fx('nvidia-smi-topo-m', 'ml-engineering-8x-h100-nv18-2numa.txt'),
    fx('nvidia-smi-topo-p2p', 'ml-engineering-8x-h100-read-all-ok.txt'),
    '--json',
  ])
  assert.equal(r.code, 0, r.stderr)
  const rep = json(r.stdout)
  assert.deepEqual(
    rep.gpus.map((g) => [g.index, g.numa]),
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 1],
    ],
  )
  assert.equal(rep.pairs.length, 28)
  assert.deepEqual(rep.pairs[0], { ...rep.pairs[0], a: 0, b: 1, link: 'NV18', p2p: { read: 'OK' } })
  assert.equal(rep.pairs[0]?.from.link, `${fx('nvidia-smi-topo-m', 'ml-engineering-8x-h100-nv18-2numa.txt')}:3`)
  assert.deepEqual(
    rep.findings.map((f) => f.id),
    ['nvlink', 'expected-latency'],
  )
  // topo -m names no GPU: the NVLink band is generic, and says so.
  assert.match(rep.findings[0]?.reference ?? '', /does not name the GPU model: generic band/)
  assert.match(rep.pairs[0]?.expected?.why ?? '', /generic band \(the nearest published band is A100-SXM4/)
  // With a --query-gpu CSV naming the H100s: no H100 band exists, the nearest (A100) is named as such.
  const csv = join(tmp('gpucomm-topo-'), 'query.csv')
  writeFileSync(
    csv,
    `index, name, pci.bus_id\n${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `${i}, NVIDIA H100 80GB HBM3, 0000:${(0x18 + 16 * i).toString(16)}:00.0`).join('\n')}\n`,
  )
  const named = json(
    (await cli(['topo', '--input', fx('nvidia-smi-topo-m', 'ml-engineering-8x-h100-nv18-2numa.txt'), csv, '--json']))
      .stdout,
  )
  assert.match(
    named.findings[0]?.reference ?? '',
    /no published band for NVIDIA H100 80GB HBM3: the nearest published band is A100-SXM4/,
  )
  assert.deepEqual(
    rep.groupings.find((g) => g.size === 4)?.groups,
    [
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ],
    'NV18 everywhere: the NUMA split decides',
  )
  const ns = await cli([
    'topo',
    '--input',
    fx('nvidia-smi-topo-m', 'autodl-container-2x-rtx2080ti-pix.txt'),
    fx('nvidia-smi-topo-p2p', 'autodl-container-2x-rtx2080ti-pcie-p-ns.txt'),
    '--json',
  ])
  const nsRep = json(ns.stdout)
  assert.deepEqual(
    nsRep.pairs.map((p) => [p.link, p.p2p]),
    [['PIX', { pci: 'NS' }]],
  )
  assert.ok(
    nsRep.findings.some((f) => f.id === 'p2p-unavailable') && !nsRep.findings.some((f) => f.id === 'pcie-switch-p2p'),
  )
})

const nvidiaSmiOnPath = (process.env.PATH ?? '')
  .split(delimiter)
  .some((d) => d !== '' && existsSync(join(d, 'nvidia-smi')))
const noGpuSkip = systemSkip(nvidiaSmiOnPath && 'this machine has nvidia-smi; the no-GPU check needs one without')
if (noGpuSkip) console.log(`skip: ${noGpuSkip}`)

test('this machine (no nvidia-smi, no GPU): exit 1 with one line; --json still reports hypervisor and PCI root buses', {
  skip: noGpuSkip,
}, async () => {
  const r = await bin(['topo'])
  assert.equal(r.code, 1)
  assert.equal(r.stdout, '')
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  assert.match(r.stderr, /^gpucomm: no NVIDIA GPU found \(nvidia-smi: not installed; /)
  assert.match(r.stderr, /topo --from CAPTURE_DIR or --input FILE\.\.\., or try the simulator \(gpucomm sim --preset/)
  const j = await cli(['topo', '--json'])
  assert.equal(j.code, 1)
  const rep = json(j.stdout)
  assert.deepEqual(rep.gpus, [])
  const flags = /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? ''
  assert.equal(rep.hypervisor.cpuFlag, /(^|\s)hypervisor(\s|$)/.test(flags))
  const dev = '/sys/bus/pci/devices'
  const roots = existsSync(dev)
    ? [
        ...new Set(
          readdirSync(dev)
            .map((d) => /\/pci([0-9a-f]{4}:[0-9a-f]{2})\//.exec(realpathSync(join(dev, d)))?.[1])
            .filter((x) => x !== undefined),
        ),
      ].sort()
    : []
  assert.deepEqual(rep.pciRootBuses, roots)
  assert.ok(rep.findings.some((f) => f.id === 'no-gpus'))
})

test('an empty fake sysfs root: exit 1 with one line; --json has no GPUs, no root buses, hypervisor unknown', async () => {
  const root = tmp('gpucomm-topo-empty-')
  const r = await cli(['topo', '--sysfs-root', root])
  assert.equal(r.code, 1)
  assert.equal(r.stderr.trim().split('\n').length, 1)
  assert.match(r.stderr, /no NVIDIA GPU found .*no PCI devices/)
  const j = await cli(['topo', '--sysfs-root', root, '--json'])
  assert.equal(j.code, 1)
  const rep = json(j.stdout)
  assert.deepEqual(
    [rep.gpus, rep.pciRootBuses, rep.hypervisor.detected, rep.hypervisor.kind],
    [[], [], false, 'unknown'],
  )
  const missing = await cli(['topo', '--sysfs-root', join(root, 'absent')])
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /absent: no such directory/)
})

test('bad input: empty file, random text, all rows short → file:line and exit 2; one bad row among good ones → exit 0 with file:line', async () => {
  const dir = tmp('gpucomm-topo-bad-')
  const empty = join(dir, 'empty.txt')
  const junk = join(dir, 'junk.txt')
  const short = join(dir, 'generated-short-topo-m.txt')
  const oneBad = join(dir, 'generated-one-bad-row-topo-m.txt')
  writeFileSync(empty, '')
  writeFileSync(junk, 'lorem ipsum\ndolor sit amet\n')
  writeFileSync(short, '\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-31\t0\nGPU1\tNODE\t0-31\t0\n')
  writeFileSync(
    oneBad,
    '\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNODE\tSYS\t0-31\t0\nGPU1\tNODE\t X \t0-31\t0\nGPU2\tSYS\tSYS\t X \t32-63\t1\n',
  )
  const r = await cli(['topo', '--input', empty, junk, '--json'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /empty\.txt:1: empty file/)
  assert.match(r.stderr, /junk\.txt:1: not a topology output/)
  const s = await cli(['topo', '--input', short])
  assert.equal(s.code, 2)
  assert.match(s.stderr, /generated-short-topo-m\.txt:2: row GPU0: 2 device cells expected, found 1/)
  const ok = await cli(['topo', '--input', oneBad, empty, '--json'])
  assert.equal(ok.code, 0)
  assert.match(ok.stderr, /generated-one-bad-row-topo-m\.txt:3: error: row GPU1: 3 device cells expected, found 2/)
  assert.match(ok.stderr, /empty\.txt:1: error: empty file/)
  const rep = json(ok.stdout)
  assert.equal(rep.gpus.length, 3)
  assert.deepEqual(
    rep.pairs.map((p) => p.link),
    ['NODE', 'SYS', 'SYS'],
    'GPU1-GPU2 is read from the GPU2 row',
  )
  const absent = await cli(['topo', '--input', join(dir, 'nope.txt')])
  assert.equal(absent.code, 2)
  assert.match(absent.stderr, /nope\.txt: no such file/)
})

test('capture → --from reproduces the analysis; symlinks stay symlinks; a non-empty capture dir is refused', async () => {
  const dir = tmp('gpucomm-topo-cap-')
  const root = join(dir, 'root')
  buildSeedVm(root)
  const p2p = join(dir, 'generated-seed-vm-topo-p2p-r.txt')
  writeFileSync(p2p, p2pMatrix('r', 8, 'NS'))
  const cap = join(dir, 'capture')
  const a = await cli(['topo', '--sysfs-root', root, '--input', p2p, '--capture', cap, '--json'])
  assert.equal(a.code, 0, a.stderr)
  assert.ok(lstatSync(join(cap, 'root', 'sys', 'bus', 'pci', 'devices', '0000:e1:00.0')).isSymbolicLink())
  assert.ok(
    lstatSync(
      join(cap, 'root', 'sys', 'devices', 'pci0000:e0', '0000:e0:01.0', '0000:e1:00.0', 'iommu_group'),
    ).isSymbolicLink(),
  )
  const b = await cli(['topo', '--from', cap, '--json'])
  assert.equal(b.code, 0, b.stderr)
  const [ra, rb] = [json(a.stdout), json(b.stdout)]
  for (const k of ['gpus', 'pairs', 'findings', 'groupings', 'hypervisor', 'pciRootBuses', 'cpuVendor'] as const)
    assert.deepEqual(rb[k], ra[k], k)
  assert.ok(rb.findings.some((f) => f.id === 'p2p-unavailable'))
  writeFileSync(join(dir, 'keep.txt'), 'mine')
  const again = await cli(['topo', '--sysfs-root', root, '--capture', dir])
  assert.equal(again.code, 2)
  assert.equal(readFileSync(join(dir, 'keep.txt'), 'utf8'), 'mine')
  const notCap = await cli(['topo', '--from', root])
  assert.equal(notCap.code, 2)
  assert.match(notCap.stderr, /not a gpucomm topology capture/)
})

test('a live capture of this machine reads back the same hypervisor and root buses', async () => {
  const cap = join(tmp('gpucomm-topo-live-'), 'cap')
  mkdirSync(cap)
  const a = await cli(['topo', '--capture', cap, '--json'])
  const b = await cli(['topo', '--from', cap, '--json'])
  assert.equal(b.code, a.code)
  const [ra, rb] = [json(a.stdout), json(b.stdout)]
  assert.deepEqual(rb.hypervisor, ra.hypervisor)
  assert.deepEqual(rb.pciRootBuses, ra.pciRootBuses)
  assert.deepEqual(rb.gpus, ra.gpus)
  assert.ok(existsSync(join(cap, 'capture.json')) && existsSync(join(cap, 'report.json')))
})
