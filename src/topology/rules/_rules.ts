/**
 * The verdict: small pure rules, each with a stable id, over the merged topology. A rule
 * returns a Finding (plain sentence, the facts it used with their sources, a reference
 * where one applies) or undefined when it does not apply.
 */

import { formatGpuList } from '../../lists/index.ts'
import { BANDS, nvlinkSource, p2pBlocked, p2pOk } from '../_pairs.ts'
import type { Finding, TopoGpu, TopoPair } from '../_types.ts'
import type { Rule, RuleContext } from './_rule.ts'
import { pairGpus, rule } from './_rule.ts'
import { HOST_RULES } from './_rules-host.ts'
import { pciOnlyFinding } from './_rules-pci-only.ts'
import { vmDetected, vmGpudirectClique } from './_rules-vm.ts'

const us = (b: { lowS: number; highS: number }): string =>
  `${+(b.lowS * 1e6).toFixed(2)}–${+(b.highS * 1e6).toFixed(2)} µs`
const src = (g: TopoGpu, k: string): string => (g.from[k] ? ` (${g.from[k]})` : '')
const pairName = (p: TopoPair): string => `${p.a}-${p.b}`

const ownRootComplex = rule('own-root-complex', ({ gpus }) => {
  if (gpus.length < 2 || gpus.some((g) => g.rootBus === undefined)) return undefined
  if (new Set(gpus.map((g) => g.rootBus)).size !== gpus.length) return undefined
  return {
    severity: 'info',
    gpus: gpus.map((g) => g.index),
    message:
      'Each GPU sits alone on its own PCIe root complex (root bus): every peer copy crosses the ' +
      "CPU's root complexes. On bare metal P2P still works there (~0.4–1.5 µs per small copy); " +
      'in a VM it depends on the hypervisor.',
    facts: gpus.map((g) => `GPU${g.index}: root bus ${g.rootBus as string}${src(g, 'rootBus')}`),
    reference: BANDS.rootComplex.reference,
  }
})

const noPcieSwitch = rule('no-pcie-switch', ({ gpus }) => {
  if (gpus.length === 0 || gpus.some((g) => g.switchPath === undefined || g.switchPath.length > 0)) return undefined
  return {
    severity: 'info',
    gpus: gpus.map((g) => g.index),
    message:
      'No PCIe switch between any GPU and its root port, so there is no switch-local peer path: ' +
      'all peer traffic goes through the root complex.',
    facts: gpus.map(
      (g) =>
        `GPU${g.index}: ${g.upstream?.map((u) => `${u.bdf} ${u.role}`).join(' → ') ?? '?'} → ` +
        `${g.busId ?? '?'}${src(g, 'upstream')}`,
    ),
  }
})

const acsOverrideUseless = rule('acs-override-useless', ({ gpus }) => {
  if (gpus.length < 2 || gpus.some((g) => g.upstream === undefined)) return undefined
  const owners = new Map<string, number[]>()
  for (const g of gpus) for (const u of g.upstream ?? []) owners.set(u.bdf, [...(owners.get(u.bdf) ?? []), g.index])
  if ([...owners.values()].some((o) => o.length > 1)) return undefined
  const groups = gpus.map(
    (g) =>
      `GPU${g.index}: IOMMU group ${g.iommuGroup ?? '?'}, bridges ` +
      `${g.upstream?.map((u) => u.bdf).join(', ') || 'none'}`,
  )
  return {
    severity: 'info',
    gpus: gpus.map((g) => g.index),
    message:
      'No two GPUs share a PCIe bridge, so there is no switch where ACS could hold or redirect ' +
      'peer traffic: an ACS override (pcie_acs_override) cannot merge or split these IOMMU ' +
      'groups usefully and cannot enable P2P.',
    facts: groups,
  }
})

const p2pUnavailable = rule('p2p-unavailable', ({ pairs }) => {
  const blocked = pairs.filter(p2pBlocked)
  if (blocked.length === 0) return undefined
  const statuses = [...new Set(blocked.flatMap((p) => Object.values(p.p2p)).filter((s) => s !== 'OK'))].join('/')
  return {
    severity: 'problem',
    gpus: pairGpus(blocked),
    message:
      `P2P is unavailable for ` +
      `${blocked.length === pairs.length ? `every GPU pair (${pairs.length})` : `${blocked.length} of ${pairs.length} GPU pairs`} (topo -p2p: ` +
      `${statuses}): copies are staged through host memory; expect ~` +
      `${us(BANDS.staged)} per small copy instead of ~0.4–1.5 µs.`,
    facts: blocked
      .slice(0, 8)
      .map(
        (p) =>
          `pair ${pairName(p)}: ${Object.entries(p.p2p)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} (${Object.entries(p.from)
            .filter(([k]) => k.startsWith('p2p.'))
            .map(([, v]) => v)
            .join(', ')})`,
      )
      .concat(blocked.length > 8 ? [`… and ${blocked.length - 8} more pairs`] : []),
    reference: BANDS.staged.reference,
  }
})

const ncclP2pLevel = rule('nccl-p2p-level', ({ gpus, pairs, hypervisor, cpuVendor }) => {
  if (hypervisor.detected || cpuVendor !== 'AuthenticAMD' || gpus.length <= 2) return undefined
  const far = pairs.filter((p) => ['PHB', 'NODE', 'SYS', 'SOC'].includes(p.link ?? '') && !p2pBlocked(p))
  if (far.length === 0) return undefined
  return {
    severity: 'warn',
    gpus: pairGpus(far),
    message:
      `Bare-metal AMD with ` +
      `${gpus.length} GPUs: by default NCCL uses P2P only up to PCIe switches (PATH_PXB) and moves data ` +
      `through shared host memory (SHM) for the ` +
      `${far.length} pairs that cross host bridges; set NCCL_P2P_LEVEL=SYS to let it use P2P there.`,
    facts: [
      `CPU vendor ${cpuVendor} (/proc/cpuinfo)`,
      `${far.length} pairs link ${[...new Set(far.map((p) => p.link))].join('/')}`,
    ],
    reference: 'NVIDIA/nccl src/graph/paths.cc (P2P level PATH_PXB on AMD with more than 2 GPUs)',
  }
})

const nvlink = rule('nvlink', ({ gpus, pairs }) => {
  const nv = pairs.filter((p) => /^NV\d+$/.test(p.link ?? ''))
  if (nv.length === 0) return undefined
  return {
    severity: 'info',
    gpus: pairGpus(nv),
    message:
      `${nv.length === pairs.length ? 'Every GPU pair is' : `${nv.length} of ${pairs.length} GPU pairs are`} joined by NVLink (` +
      `${[...new Set(nv.map((p) => p.link))].join(', ')}): peer copies and NCCL collectives go over NVLink, not PCIe.`,
    facts: nv.slice(0, 4).map((p) => `pair ${pairName(p)}: ${p.link as string} (${p.from.link ?? '?'})`),
    reference: nvlinkSource(nv.flatMap((p) => [gpus[p.a]?.name, gpus[p.b]?.name])),
  }
})

const pcieSwitchP2p = rule('pcie-switch-p2p', ({ gpus, pairs }) => {
  const under = pairs.filter((p) => (p.sameSwitch === true || p.link === 'PIX' || p.link === 'PXB') && !p2pBlocked(p))
  if (under.length === 0) return undefined
  const bySwitch = new Map<string, Set<number>>()
  for (const g of gpus)
    for (const s of g.switchPath?.slice(0, 1) ?? []) bySwitch.set(s, (bySwitch.get(s) ?? new Set()).add(g.index))
  const shared = [...bySwitch]
    .filter(([, s]) => s.size > 1)
    .map(([sw, s]) => `GPUs ${formatGpuList([...s].sort((x, y) => x - y))} below switch ${sw}`)
  return {
    severity: 'info',
    gpus: pairGpus(under),
    message:
      `${under.length} GPU pair` +
      `${under.length === 1 ? '' : 's'} share a PCIe switch: P2P between them stays below the switch (~` +
      `${us(BANDS.pcieSwitch)} per small copy); keep TP groups within a switch.`,
    facts: shared.length
      ? shared
      : under.slice(0, 4).map((p) => `pair ${pairName(p)}: ${p.link ?? '?'} (${p.from.link ?? '?'})`),
    reference: BANDS.pcieSwitch.reference,
  }
})

const acsRedirect = rule('acs-p2p-redirect', ({ gpus }) => {
  const hits = gpus.flatMap((g) =>
    (g.upstream ?? [])
      .filter((u) => u.role === 'switch-downstream' && typeof u.acs === 'object' && u.acs.p2pRequestRedirect)
      .map((u) => `GPU${g.index}: downstream port ${u.bdf} has ACS P2P Request Redirect on`),
  )
  if (hits.length === 0) return undefined
  return {
    severity: 'warn',
    message:
      'ACS P2P Request Redirect is on at switch ports above GPUs: peer requests are sent up to ' +
      'the root complex instead of across the switch, which adds latency or blocks P2P.',
    facts: hits,
  }
})

const simulated = rule('simulated', ({ simulated: sim }) =>
  sim
    ? {
        severity: 'warn',
        message:
          "SIMULATED topology: these outputs were written by gpucomm's simulator for one of its " +
          'preset machines (the first lines of each name the preset), not read from a real machine; ' +
          'the verdicts below are about that preset.',
        facts: ['capture.json "simulated": true, or an input starting with "# SIMULATED by gpucomm sim"'],
      }
    : undefined,
)

const noGpus = rule('no-gpus', ({ gpus }) =>
  gpus.length === 0
    ? {
        severity: 'problem',
        message:
          'No NVIDIA GPU found (no nvidia-smi output and no NVIDIA display device, vendor 0x10de ' +
          'class 0x03xx, in the PCI tree).',
        facts: [],
      }
    : undefined,
)

const expectedLatency = rule('expected-latency', ({ pairs }) => {
  if (pairs.length === 0) return undefined
  const by = new Map<string, TopoPair[]>()
  for (const p of pairs) {
    const key =
      `${p.link ?? '?'} ${p2pBlocked(p) ? 'host-staged' : p2pOk(p) ? 'P2P' : 'P2P unknown'}: ` +
      `${us(p.expected ?? BANDS.rootComplex)}`
    by.set(key, [...(by.get(key) ?? []), p])
  }
  return {
    severity: 'info',
    message:
      `Expected cost of a small (16 B) peer copy per pair: ` +
      `${[...by].map(([k, ps]) => `${k} (${ps.length} pair${ps.length === 1 ? '' : 's'})`).join('; ')}.`,
    facts: [...by].map(([k, ps]) => `${k}: ${(ps[0] as TopoPair).expected?.why ?? ''}`),
    reference: 'docs/REFERENCE.md (p2pBandwidthLatencyTest latency matrix)',
  }
})

/** Every rule, in the order findings are listed. */
export const RULES: readonly Rule[] = [
  simulated,
  noGpus,
  vmDetected,
  p2pUnavailable,
  vmGpudirectClique,
  ownRootComplex,
  noPcieSwitch,
  acsOverrideUseless,
  acsRedirect,
  nvlink,
  { id: 'pci-only-matrix', check: ({ pairs }) => pciOnlyFinding(pairs) },
  pcieSwitchP2p,
  ncclP2pLevel,
  ...HOST_RULES,
  expectedLatency,
]

/** Runs every rule. */
export const runRules = (c: RuleContext): Finding[] =>
  RULES.map((r) => r.check(c)).filter((f): f is Finding => f !== undefined)
