/**
 * The host findings over GENERATED sysfs trees: one bare-metal host with two GPUs on two
 * sockets whose link, power, IOMMU and NUMA files each test turns one way, and the seed VM.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Finding, TopologyReport } from '../../../src/topology/index.ts'
import { cli, tmp } from '../../helpers.ts'
import type { FakeDevice, FakeHost } from '../topology/_sysfs-tree.ts'
import { buildSeedVm, buildSysfsTree, cpuinfo, p2pMatrix } from '../topology/_sysfs-tree.ts'

const GEN5 = '32.0 GT/s PCIe'
const GEN4 = '16.0 GT/s PCIe'
const GEN1 = '2.5 GT/s PCIe'
const HOST_IDS = [
  'pcie-link-downtrained',
  'aspm-active',
  'deep-cstates',
  'iommu-translated',
  'numa-not-exposed',
  'staging-buffer-remote',
]

interface Knobs {
  gpuLink?: FakeDevice['link']
  portMaxSpeed?: string
  groupType?: string
  host?: Partial<FakeHost>
}

/** Bare metal, 2 sockets, one GPU behind its own root port on each; healthy unless `k` says otherwise. */
function machine(k: Knobs = {}): string {
  const root = join(tmp('gpucomm-host-'), 'root')
  const devices: FakeDevice[] = []
  for (const [rootBus, numa, bus] of [
    ['0000:00', 0, '01'],
    ['0000:80', 1, '81'],
  ] as const) {
    const port = `${rootBus}:01.1`
    const portLink = { speed: GEN5, width: 16, maxSpeed: k.portMaxSpeed ?? GEN5, maxWidth: 16 }
    devices.push({ path: [port], rootBus, vendor: '1022', device: '14ab', class: '060400', numa, link: portLink })
    devices.push({
      path: [port, `0000:${bus}:00.0`],
      rootBus,
      vendor: '10de',
      device: '2bb5',
      class: '030000',
      numa,
      iommuGroup: numa + 10,
      groupType: k.groupType ?? 'identity',
      link: k.gpuLink ?? { speed: GEN5, width: 16, maxSpeed: GEN5, maxWidth: 16 },
    })
  }
  buildSysfsTree(root, devices, {
    cpuinfo: cpuinfo('AuthenticAMD', false),
    cmdline: 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 amd_iommu=on iommu=pt',
    aspmPolicy: '[default] performance powersave powersupersave',
    idle: {
      driver: 'acpi_idle',
      states: [
        ['POLL', 0],
        ['C1', 1],
        ['C2', 18, true],
      ],
    },
    governor: 'performance',
    amdPstate: 'active',
    numaNodes: [0, 1],
    ...k.host,
  })
  return root
}

async function topo(args: string[]): Promise<TopologyReport> {
  const r = await cli(['topo', ...args, '--json'])
  assert.equal(r.code, 0, r.stderr)
  return JSON.parse(r.stdout) as TopologyReport
}
const hostIds = (r: TopologyReport): string[] => r.findings.map((f) => f.id).filter((id) => HOST_IDS.includes(id))
const finding = (r: TopologyReport, id: string): Finding => {
  const f = r.findings.find((x) => x.id === id)
  assert.ok(f, `no ${id} in ${r.findings.map((x) => x.id).join(', ')}`)
  return f
}

test('a healthy bare-metal host: facts read, no host finding', async () => {
  const r = await topo(['--sysfs-root', machine()])
  assert.deepEqual(hostIds(r), [])
  const h = r.host
  assert.deepEqual(h?.links[0]?.[0]?.gen, { current: 5, max: 5 })
  assert.deepEqual(h?.links[1]?.[0]?.width, { current: 16, max: 16 })
  assert.equal(h?.links[0]?.[0]?.parent, '0000:00:01.1')
  assert.equal(h?.aspmPolicy, 'default')
  assert.equal(h?.cpu.idleDriver, 'acpi_idle')
  assert.deepEqual(h?.cpu.deepestEnabled, { index: 1, name: 'C1', exitLatencyS: 1e-6, disabled: false })
  assert.equal(h?.cpu.freqGovernor, 'performance')
  assert.equal(h?.cpu.amdPstate, 'active')
  assert.deepEqual(h?.iommu.cmdline, ['amd_iommu=on', 'iommu=pt'])
  assert.deepEqual(h?.iommu.gpuGroupType, { 0: 'identity', 1: 'identity' })
  assert.deepEqual(h?.numa?.nodes, [0, 1])
})

test('an idle GPU link at Gen1 is not downtrained at rest, and is under load', async () => {
  const root = machine({ gpuLink: { speed: GEN1, width: 16, maxSpeed: GEN5, maxWidth: 16 } })
  const idle = await topo(['--sysfs-root', root])
  assert.deepEqual(idle.host?.links[0]?.[0]?.gen, { current: 1, max: 5 })
  assert.deepEqual(hostIds(idle), [])
  const loaded = await topo(['--sysfs-root', root, '--under-load'])
  const f = finding(loaded, 'pcie-link-downtrained')
  assert.match(f.message, /under load/)
  assert.match(f.facts[0] ?? '', /^GPU0 GPU link 0000:00:01\.1 → 0000:01:00\.0: x16 of x16, Gen1 of Gen5 \(sysfs: /)
})

test('a narrow link is downtrained even at rest, and the finding says the speed was not judged', async () => {
  const r = await topo(['--sysfs-root', machine({ gpuLink: { speed: GEN1, width: 8, maxSpeed: GEN5, maxWidth: 16 } })])
  const f = finding(r, 'pcie-link-downtrained')
  assert.equal(f.severity, 'problem')
  assert.deepEqual(f.gpus, [0, 1])
  assert.match(f.message, /at rest: only the width is judged/)
  assert.match(f.facts[0] ?? '', /x8 of x16, Gen1 of Gen5/)
})

test('a Gen5 GPU in a Gen4 slot running Gen4 under load is at its link maximum, not downtrained', async () => {
  const root = machine({ portMaxSpeed: GEN4, gpuLink: { speed: GEN4, width: 16, maxSpeed: GEN5, maxWidth: 16 } })
  const r = await topo(['--sysfs-root', root, '--under-load'])
  assert.deepEqual(r.host?.links[0]?.[0]?.gen, { current: 4, max: 4 })
  assert.deepEqual(hostIds(r), [])
})

test('aspm-active: from the policy, and from a per-link L1 state', async () => {
  const byPolicy = await topo([
    '--sysfs-root',
    machine({ host: { aspmPolicy: 'default performance [powersave] powersupersave' } }),
  ])
  assert.deepEqual(hostIds(byPolicy), ['aspm-active'])
  assert.match(finding(byPolicy, 'aspm-active').message, /policy powersave.*pcie_aspm=off/)
  const link = { speed: GEN5, width: 16, maxSpeed: GEN5, maxWidth: 16, aspmOn: ['l1_aspm'] }
  const byLink = await topo(['--sysfs-root', machine({ gpuLink: link })])
  assert.deepEqual(finding(byLink, 'aspm-active').facts, [
    '/sys/module/pcie_aspm/parameters/policy: default',
    'GPU0 GPU link 0000:00:01.1 → 0000:01:00.0: l1_aspm on (0000:01:00.0/link/)',
    'GPU1 GPU link 0000:80:01.1 → 0000:81:00.0: l1_aspm on (0000:81:00.0/link/)',
  ])
})

test('deep-cstates: an enabled 18 µs C2 fires, says what the OS cannot read; disabled, it does not', async () => {
  const r = await topo([
    '--sysfs-root',
    machine({
      host: {
        idle: {
          driver: 'acpi_idle',
          states: [
            ['POLL', 0],
            ['C1', 1],
            ['C2', 18],
          ],
        },
      },
    }),
  ])
  assert.deepEqual(hostIds(r), ['deep-cstates'])
  const f = finding(r, 'deep-cstates')
  assert.match(f.message, /C2 is enabled with a 18 µs exit latency/)
  assert.match(f.message, /cpupower idle-set -D 5/)
  assert.match(f.message, /DF C-States .* cannot be read from the OS/)
  assert.match(f.facts[0] ?? '', /POLL 0 µs, C1 1 µs, C2 18 µs$/)
})

test('iommu-translated: DMA-FQ groups fire with the remedy; identity does not (healthy case above)', async () => {
  const r = await topo([
    '--sysfs-root',
    machine({ groupType: 'DMA-FQ', host: { cmdline: 'root=/dev/sda1 amd_iommu=on' } }),
  ])
  assert.deepEqual(hostIds(r), ['iommu-translated'])
  const f = finding(r, 'iommu-translated')
  assert.deepEqual(f.gpus, [0, 1])
  assert.match(f.message, /iommu=pt/)
  assert.ok(f.facts.includes('kernel command line: amd_iommu=on'))
})

test('staging-buffer-remote: host-staged pairs across sockets; numa-not-exposed only in a VM without NUMA', async () => {
  const dir = tmp('gpucomm-host-p2p-')
  const inputs = ['r', 'w'].map((c) => {
    const f = join(dir, `generated-topo-p2p-${c}.txt`)
    writeFileSync(f, p2pMatrix(c, 2, 'NS'))
    return f
  })
  const metal = await topo(['--sysfs-root', machine(), '--input', ...inputs])
  assert.deepEqual(hostIds(metal), ['staging-buffer-remote'])
  assert.match(finding(metal, 'staging-buffer-remote').message, /numactl --cpunodebind=N --membind=N; nodes 0, 1/)
  const seedRoot = join(tmp('gpucomm-host-seed-'), 'root')
  buildSeedVm(seedRoot)
  const vm = await topo(['--sysfs-root', seedRoot])
  assert.deepEqual(hostIds(vm), ['numa-not-exposed'])
  assert.equal(finding(vm, 'numa-not-exposed').facts.length, 8 + 1 + vm.hypervisor.from.length)
})

test('nvidia-smi -q input: its link width judges the GPU link; a Gen1 idle reading does not', async () => {
  const dir = tmp('gpucomm-host-smi-')
  const q = (width: string, gen: string): string => {
    const f = join(dir, `generated-nvidia-smi-q-${width}.txt`)
    writeFileSync(
      f,
      [
        '==============NVSMI LOG==============',
        '',
        'Attached GPUs                             : 1',
        'GPU 00000000:01:00.0',
        '    Product Name                          : GENERATED',
        '    PCI',
        '        Bus Id                            : 00000000:01:00.0',
        '        GPU Link Info',
        '            PCIe Generation',
        '                Max                       : 5',
        `                Current                   : ${gen}`,
        `                Device Current            : ${gen}`,
        '                Device Max                : 5',
        '                Host Max                  : 5',
        '            Link Width',
        '                Max                       : 16x',
        `                Current                   : ${width}`,
        '    Performance State                     : P8',
        '',
      ].join('\n'),
    )
    return f
  }
  const root = machine()
  const idle = await topo(['--sysfs-root', root, '--input', q('16x', '1')])
  assert.deepEqual(hostIds(idle), [])
  assert.equal(idle.host?.links[0]?.[1]?.reading, 'nvidia-smi -q')
  const narrow = await topo(['--sysfs-root', root, '--input', q('8x', '1')])
  const f = finding(narrow, 'pcie-link-downtrained')
  assert.match(
    f.facts[0] ?? '',
    /^GPU0 GPU link .*: x8 of x16, Gen1 of Gen5 \(nvidia-smi -q: .*generated-nvidia-smi-q-8x\.txt:4 \(performance state P8\)\)$/,
  )
})
