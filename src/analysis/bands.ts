/**
 * Expectation bands: published, measured numbers (and NCCL's own cost model) that gpucomm
 * sets beside its measurements, each with its original public source and the conditions it
 * was measured under (docs/REFERENCE.md is the same table for people, kept in step by a
 * test). Values are in base units (seconds, bytes/second); a single published value has
 * low = high, and "~x" values are marked `approximate` with low/high at ±10 %. The structured
 * conditions (`vm`, `gpuFamily`, `links`, `attach`, `transports`, `ranks`, `launch`, `env`)
 * decide which bands may be cited for a machine (see `_cite.ts`).
 */
import { US } from '../units/index.ts'
import type { Band } from './_types.ts'

const GB = 1e9
const RTX6K = 'github.com/voipmonitor/rtx6kpro'
const STELLINE = 'github.com/luigifcruz/stelline'
const CHLC = 'blog.chlc.cc/p/rtx4090-gpudirect-p2p-unlocked'
const P2P_MEANING =
  'p2pBandwidthLatencyTest latency: 100 back-to-back 16 B cudaMemcpyPeerAsync, GPU-event time / 100 (a pipelined per-copy cost)'

type Lat = Omit<Band, 'metric' | 'unit' | 'low' | 'high'> & { lowUs: number; highUs: number }
const lat = (b: Lat): Band => {
  const { lowUs, highUs, ...rest } = b
  return { ...rest, metric: 'p2p-latency', unit: 's', low: lowUs * US, high: highUs * US }
}

/** p2p latency bands: P2P on, host-staged, same GPU, and p2pmark's effective latency. */
export const LATENCY_BANDS: readonly Band[] = [
  lat({
    id: 'p2p-on-rtxpro6000-gen5',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P on, PCIe Gen5 (RTX PRO 6000, dual EPYC Turin)',
    kind: 'p2p-on',
    path: 'PCIe Gen5 (NODE or SYS)',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowUs: 0.36,
    highUs: 0.52,
    source: `${RTX6K} hardware/pcie-bandwidth.md, hardware/topology.md (community measurements)`,
    conditions: `bare metal, same or cross NUMA; ${P2P_MEANING}`,
  }),
  lat({
    id: 'p2p-off-rtxpro6000-gen5',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P off, host-staged (RTX PRO 6000, dual EPYC Turin)',
    kind: 'host-staged',
    path: 'PCIe Gen5 via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowUs: 12.6,
    highUs: 15.4,
    approximate: true,
    source: `${RTX6K} hardware/pcie-bandwidth.md`,
    conditions: `bare metal; published as ~14 µs (band ±10 %); ${P2P_MEANING}`,
  }),
  lat({
    id: 'p2p-on-rtxpro6000-switch-same-numa',
    links: ['PIX', 'PXB'],
    attach: 'switch',
    label: 'P2P on, Broadcom PCIe switch, same NUMA (RTX PRO 6000)',
    kind: 'p2p-on',
    path: 'PCIe switch',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowUs: 0.71,
    highUs: 0.74,
    source: `${RTX6K} hardware/asus-esc8000a-e13p-broadcom-switches.md`,
    conditions: 'ASUS ESC8000A-E13P, same NUMA node',
  }),
  lat({
    id: 'p2p-on-rtxpro6000-switch-cross-numa',
    links: ['SYS'],
    attach: 'switch',
    label: 'P2P on, Broadcom PCIe switch, cross NUMA (RTX PRO 6000)',
    kind: 'p2p-on',
    path: 'PCIe switch + SYS',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowUs: 1.27,
    highUs: 1.36,
    source: `${RTX6K} hardware/asus-esc8000a-e13p-broadcom-switches.md`,
    conditions: 'ASUS ESC8000A-E13P, across NUMA nodes',
  }),
  lat({
    id: 'p2p-on-ada-genoa',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P on, PCIe Gen4 root ports (RTX 6000 Ada, 2-socket Genoa)',
    kind: 'p2p-on',
    path: 'PCIe Gen4 (NODE and SYS)',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowUs: 1.21,
    highUs: 1.44,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: 'one GPU per root port, bare metal',
  }),
  lat({
    id: 'p2p-off-ada-genoa',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P off, host-staged (RTX 6000 Ada, 2-socket Genoa)',
    kind: 'host-staged',
    path: 'PCIe Gen4 via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowUs: 10.27,
    highUs: 14.22,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: `bare metal, NODE and SYS pairs; ${P2P_MEANING}`,
  }),
  lat({
    id: 'p2p-on-ada-wrx90',
    links: ['PHB'],
    attach: 'direct',
    label: 'P2P on, PHB (RTX 6000 Ada ×2, Threadripper PRO WRX90)',
    kind: 'p2p-on',
    path: 'PHB',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowUs: 1.12,
    highUs: 1.14,
    source: `${STELLINE} hardware/puget-threadripper-pro-wrx90.md`,
    conditions: 'bare metal, one socket',
  }),
  lat({
    id: 'p2p-off-ada-wrx90',
    links: ['PHB'],
    attach: 'direct',
    label: 'P2P off, host-staged (RTX 6000 Ada ×2, WRX90)',
    kind: 'host-staged',
    path: 'PHB via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowUs: 10.46,
    highUs: 10.9,
    source: `${STELLINE} hardware/puget-threadripper-pro-wrx90.md`,
    conditions: 'bare metal, one socket',
  }),
  lat({
    id: 'p2p-on-4090-sys',
    links: ['SYS'],
    label: 'P2P on, SYS (RTX 4090 ×8, 2× EPYC 7542, P2P driver)',
    kind: 'p2p-on',
    path: 'SYS',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX 4090',
    lowUs: 1.17,
    highUs: 1.69,
    source: CHLC,
    conditions: 'bare metal, P2P-unlocked driver',
  }),
  lat({
    id: 'p2p-off-4090-sys',
    links: ['SYS'],
    label: 'P2P off, host-staged (RTX 4090 ×8, 2× EPYC 7542, stock driver)',
    kind: 'host-staged',
    path: 'SYS via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 4090',
    lowUs: 11.3,
    highUs: 20.5,
    source: CHLC,
    conditions: 'bare metal, stock driver',
  }),
  lat({
    id: 'p2p-on-a100-nvswitch',
    links: ['NV'],
    label: 'P2P on, NVSwitch (A100-SXM4 ×8)',
    kind: 'p2p-on',
    path: 'NVLink (NVSwitch)',
    p2p: 'on',
    vm: false,
    gpuFamily: 'A100',
    lowUs: 2.94,
    highUs: 3.49,
    source: 'github.com/LLMServe/DistServe issue 3',
    conditions: 'bare metal',
  }),
  lat({
    id: 'p2p-off-a100-nvswitch',
    links: ['NV'],
    label: 'P2P off, host-staged (A100-SXM4 ×8)',
    kind: 'host-staged',
    path: 'host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'A100',
    lowUs: 23.6,
    highUs: 24.8,
    source: 'github.com/LLMServe/DistServe issue 3',
    conditions: 'bare metal',
  }),
  lat({
    id: 'p2p-on-vm-ch-clique',
    label: 'P2P on, VM with GPUDirect clique (Cloud Hypervisor)',
    kind: 'p2p-on',
    path: 'PCIe (VM)',
    p2p: 'on',
    vm: true,
    gpuFamily: 'unstated',
    lowUs: 1.4,
    highUs: 1.4,
    source: 'cloud-hypervisor/cloud-hypervisor PR 6235',
    conditions: 'VM, GPUDirect clique on',
  }),
  lat({
    id: 'p2p-off-vm-ch',
    label: 'P2P off, host-staged, VM (Cloud Hypervisor)',
    kind: 'host-staged',
    path: 'host memory (VM)',
    p2p: 'off',
    vm: true,
    gpuFamily: 'unstated',
    lowUs: 12,
    highUs: 12,
    source: 'cloud-hypervisor/cloud-hypervisor PR 6235',
    conditions: 'VM, GPUDirect clique off',
  }),
  lat({
    id: 'p2p-on-vm-proxmox-3090',
    label: 'P2P on, Proxmox VM with x-nv-gpudirect-clique (RTX 3090 ×2)',
    kind: 'p2p-on',
    path: 'PCIe (VM, q35)',
    p2p: 'on',
    vm: true,
    gpuFamily: 'RTX 3090',
    lowUs: 1.01,
    highUs: 1.01,
    source: 'github.com/noonghunna/club-3090 PR 890',
    conditions: 'Proxmox q35, QEMU x-nv-gpudirect-clique on',
  }),
  lat({
    id: 'p2p-off-vm-proxmox-3090',
    label: 'P2P off, host-staged, Proxmox VM (RTX 3090 ×2)',
    kind: 'host-staged',
    path: 'host memory (VM, q35)',
    p2p: 'off',
    vm: true,
    gpuFamily: 'RTX 3090',
    lowUs: 15.23,
    highUs: 15.23,
    source: 'github.com/noonghunna/club-3090 PR 890',
    conditions: 'Proxmox q35, clique off',
  }),
  lat({
    id: 'same-gpu-ce',
    label: 'same GPU, copy-engine small copy',
    kind: 'same-gpu',
    path: 'local (diagonal)',
    p2p: 'any',
    vm: null,
    gpuFamily: 'any',
    lowUs: 1.3,
    highUs: 3.3,
    source:
      'diagonals of the published p2pBandwidthLatencyTest matrices behind the P2P on/off bands (e.g. stelline hardware/asus-esc8000a-e12.md, LLMServe/DistServe issue 3)',
    conditions: P2P_MEANING,
  }),
  {
    id: 'p2pmark-effective-latency-8gpu',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label:
      "p2pmark 8-GPU effective latency under all-to-all load (the '5–8 µs NODE' figure is this, not a per-pair latency)",
    kind: 'effective-latency',
    metric: 'p2p-effective-latency',
    path: 'PCIe Gen5, dual Turin direct attach',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    low: 6.03 * US,
    high: 7.39 * US,
    unit: 's',
    source: `${RTX6K} hardware/pcie-bandwidth.md "p2pmark Scores"; method github.com/lukealonso/p2pmark`,
    conditions:
      'all 8 GPUs exchanging at once; a per-GPU effective latency under load, not comparable with a single-pair 16 B copy',
  },
]

type Coll = Omit<Band, 'metric' | 'unit' | 'low' | 'high' | 'kind'> & { lowUs: number; highUs: number }
const coll = (b: Coll): Band => {
  const { lowUs, highUs, ...rest } = b
  return {
    ...rest,
    kind: 'collective-measured',
    metric: 'allreduce-time',
    unit: 's',
    low: lowUs * US,
    high: highUs * US,
  }
}
/** PCIe link classes, and those that stay within one NUMA node (no SYS hop). */
const PCIE = ['PIX', 'PXB', 'PHB', 'NODE', 'SYS']
const SAME_NUMA_PCIE = ['PIX', 'PXB', 'PHB', 'NODE']
const DGX_RING = [10.0, 13.8, 16.9, 20.8, 25.2, 29.5, 33.7]

/** Measured nccl-tests all_reduce times at small sizes. */
export const COLLECTIVE_BANDS: readonly Band[] = [
  coll({
    id: 'ar-rtxpro6000-p2p-ll-4gpu',
    links: SAME_NUMA_PCIE,
    transports: ['P2P', 'SHM'],
    label: 'all_reduce, RTX PRO 6000, P2P on, LL, 4 GPUs same NUMA',
    path: 'PCIe Gen5',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    ranks: 4,
    sizes: [1024, 32768],
    lowUs: 13.2,
    highUs: 15.6,
    source: `${RTX6K} optimization/pcie-oneshot-allreduce.md`,
    conditions: '1–32 KB, NCCL LL protocol',
  }),
  coll({
    id: 'ar-rtxpro6000-p2p-ll-8gpu',
    links: PCIE,
    transports: ['P2P', 'SHM'],
    label: 'all_reduce, RTX PRO 6000, P2P on, LL, 8 GPUs',
    path: 'PCIe Gen5',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    ranks: 8,
    lowUs: 24.1,
    highUs: 26.2,
    source: `${RTX6K} optimization/pcie-oneshot-allreduce.md`,
    conditions: 'small messages (sizes not stated: compared with the floor), NCCL LL protocol',
  }),
  coll({
    id: 'ar-rtxpro6000-default-8gpu',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    transports: ['SHM'],
    label: 'all_reduce, RTX PRO 6000 ×8 dual Turin, default NCCL (Simple)',
    path: 'PCIe Gen5, direct attach',
    p2p: 'any',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    ranks: 8,
    sizes: [32768, 65536],
    lowUs: 43.2,
    highUs: 52.8,
    approximate: true,
    source: `${RTX6K} optimization/nccl-tuning.md`,
    conditions: 'published as ~48 µs at 32–64 KB (band ±10 %); NCCL chose Simple',
  }),
  coll({
    id: 'ar-4090-shm-8gpu',
    links: ['SYS'],
    transports: ['SHM'],
    launch: 'single-process',
    label: 'all_reduce, RTX 4090 ×8, SHM (no P2P), -g 8',
    path: 'SYS via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 4090',
    ranks: 8,
    sizes: [8, 65536],
    lowUs: 38.8,
    highUs: 45.7,
    source: CHLC,
    conditions: '38.8 µs at 8 B, 45.7 µs at 64 KB; 2× EPYC Rome',
  }),
  coll({
    id: 'ar-a100-nvswitch-g8',
    links: ['NV'],
    transports: ['P2P'],
    launch: 'single-process',
    label: 'all_reduce, A100 ×8 NVSwitch, -g 8 single process',
    path: 'NVLink (NVSwitch)',
    p2p: 'on',
    vm: false,
    gpuFamily: 'A100',
    ranks: 8,
    sizes: [8, 8],
    lowUs: 40.12,
    highUs: 40.12,
    source:
      'a published log shipped as test/fixtures/nccl-tests/a100-sxm4-8gpu-single-process-g8-v2.13.txt (its .source.txt says where it was found)',
    conditions: '8 B, one process driving 8 GPUs',
  }),
  ...DGX_RING.map((v, i) =>
    coll({
      id: `ar-dgx-a100-ring-1ch-n${i + 2}`,
      links: ['NV'],
      transports: ['P2P'],
      env: { NCCL_ALGO: 'Ring' },
      channels: 1,
      label: `all_reduce, DGX-A100, Ring, 1 channel, ${i + 2} GPUs`,
      path: 'NVLink (NVSwitch)',
      p2p: 'on',
      vm: false,
      gpuFamily: 'A100',
      ranks: i + 2,
      sizes: [8, 128],
      lowUs: v,
      highUs: v,
      source: 'NVIDIA/nccl-tests issue 123',
      conditions: '8–128 B, NCCL_ALGO=Ring, one channel',
    }),
  ),
]

/** NCCL's latency model constants (NVIDIA/nccl src/graph/tuning.cc @ 5067397, v2.30.7), in µs. */
export const NCCL_MODEL = {
  'PCI/LL': { base: 6.6, hop: 1.0 },
  'NVLink/LL': { base: 6.6, hop: 0.6 },
  'PCI/Simple': { base: 8.4, hop: 5.7 },
} as const

/** A link-type/protocol key of `NCCL_MODEL`. */
export type NcclModelKey = keyof typeof NCCL_MODEL

/** NCCL's ring all_reduce latency prediction base + 2(n−1)·hop as a band for `ranks` GPUs. */
export function ncclModelBand(key: NcclModelKey, ranks: number): Band {
  const m = NCCL_MODEL[key]
  const t = (m.base + 2 * (ranks - 1) * m.hop) * US
  return {
    id: `nccl-model-${key.replace('/', '-').toLowerCase()}-n${ranks}`,
    label: `NCCL model, ${key}, ring, ${ranks} GPUs: ${m.base} + 2(n−1)×${m.hop} µs`,
    kind: 'collective-model',
    metric: 'allreduce-time',
    path: key.startsWith('PCI') ? 'PCI' : 'NVLink',
    links: key.startsWith('PCI') ? PCIE : ['NV'],
    p2p: 'any',
    vm: null,
    gpuFamily: 'any',
    low: t,
    high: t,
    unit: 's',
    ranks,
    source: 'NVIDIA/nccl src/graph/tuning.cc @ 5067397 (v2.30.7)',
    conditions: "NCCL's own latency model; PCI hops cost the same whether P2P or SHM carries them",
  }
}

type Bw = Omit<Band, 'unit' | 'low' | 'high' | 'kind' | 'vm'> & { lowGB: number; highGB: number; vm?: boolean | null }
const bw = (b: Bw): Band => {
  const { lowGB, highGB, ...rest } = b
  return { vm: null, ...rest, kind: 'bandwidth', unit: 'B/s', low: lowGB * GB, high: highGB * GB }
}

/** Bandwidth bands; GB/s = 1e9 B/s. */
export const BANDWIDTH_BANDS: readonly Band[] = [
  bw({
    id: 'pcie-gen3-x16',
    label: 'PCIe Gen3 x16 per direction (theoretical)',
    metric: 'link-bw',
    path: 'PCIe Gen3',
    p2p: 'any',
    gpuFamily: 'any',
    lowGB: 15.75,
    highGB: 15.75,
    source: 'PCIe spec arithmetic: GT/s × 16 × 128/130 / 8',
    conditions: 'upper bound, no protocol overhead',
  }),
  bw({
    id: 'pcie-gen4-x16',
    label: 'PCIe Gen4 x16 per direction (theoretical)',
    metric: 'link-bw',
    path: 'PCIe Gen4',
    p2p: 'any',
    gpuFamily: 'any',
    lowGB: 31.5,
    highGB: 31.5,
    source: 'PCIe spec arithmetic: GT/s × 16 × 128/130 / 8',
    conditions: 'upper bound, no protocol overhead',
  }),
  bw({
    id: 'pcie-gen5-x16',
    label: 'PCIe Gen5 x16 per direction (theoretical)',
    metric: 'link-bw',
    path: 'PCIe Gen5',
    p2p: 'any',
    gpuFamily: 'any',
    lowGB: 63.0,
    highGB: 63.0,
    source: 'PCIe spec arithmetic: GT/s × 16 × 128/130 / 8',
    conditions: 'upper bound, no protocol overhead',
  }),
  bw({
    id: 'bw-uni-rtxpro6000-p2p',
    links: SAME_NUMA_PCIE,
    label: 'P2P unidirectional, RTX PRO 6000, Gen5, same NUMA',
    metric: 'p2p-bw-uni',
    path: 'PCIe Gen5',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowGB: 53,
    highGB: 56.6,
    source: `${RTX6K} hardware/pcie-bandwidth.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'bw-bi-rtxpro6000-p2p',
    links: SAME_NUMA_PCIE,
    label: 'P2P bidirectional, RTX PRO 6000, Gen5, same NUMA',
    metric: 'p2p-bw-bi',
    path: 'PCIe Gen5',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    lowGB: 103,
    highGB: 111,
    source: `${RTX6K} hardware/pcie-bandwidth.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'bw-uni-ada-p2p',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P unidirectional, RTX 6000 Ada, Gen4',
    metric: 'p2p-bw-uni',
    path: 'PCIe Gen4',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowGB: 26.3,
    highGB: 26.3,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'bw-uni-ada-off',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P off (host-staged) unidirectional, RTX 6000 Ada, Gen4',
    metric: 'p2p-bw-uni',
    path: 'PCIe Gen4 via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowGB: 22.1,
    highGB: 22.4,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'bw-bi-ada-p2p',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P bidirectional, RTX 6000 Ada, Gen4',
    metric: 'p2p-bw-bi',
    path: 'PCIe Gen4',
    p2p: 'on',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowGB: 52.1,
    highGB: 52.1,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'bw-bi-ada-off',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    label: 'P2P off (host-staged) bidirectional, RTX 6000 Ada, Gen4',
    metric: 'p2p-bw-bi',
    path: 'PCIe Gen4 via host memory',
    p2p: 'off',
    vm: false,
    gpuFamily: 'RTX 6000 Ada',
    lowGB: 31.4,
    highGB: 31.7,
    source: `${STELLINE} hardware/asus-esc8000a-e12.md`,
    conditions: 'bare metal',
  }),
  bw({
    id: 'busbw-ar-rtxpro6000-8gpu-default',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    transports: ['SHM'],
    label: '8-GPU all_reduce busbw, RTX PRO 6000 dual Turin, default NCCL',
    metric: 'allreduce-busbw',
    path: 'PCIe Gen5',
    p2p: 'any',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    ranks: 8,
    lowGB: 22.2,
    highGB: 22.2,
    source: `${RTX6K} optimization/nccl-tuning.md`,
    conditions: 'default channels',
  }),
  bw({
    id: 'busbw-ar-rtxpro6000-8gpu-8ch',
    links: ['NODE', 'SYS'],
    attach: 'direct',
    env: { NCCL_MIN_NCHANNELS: '8' },
    label: '8-GPU all_reduce busbw, RTX PRO 6000 dual Turin, 8 channels',
    metric: 'allreduce-busbw',
    path: 'PCIe Gen5',
    p2p: 'any',
    vm: false,
    gpuFamily: 'RTX PRO 6000 Blackwell',
    ranks: 8,
    lowGB: 37.6,
    highGB: 37.6,
    source: `${RTX6K} optimization/nccl-tuning.md`,
    conditions: 'NCCL_MIN_NCHANNELS=8',
  }),
]

/** Every static band (NCCL model bands are made per group size by `ncclModelBand`). */
export const BANDS: readonly Band[] = [...LATENCY_BANDS, ...COLLECTIVE_BANDS, ...BANDWIDTH_BANDS]

/**
 * How far past a band's edges a value still counts as inside it: 10 % of the edge. Why 10 %:
 * a published range is the min–max of a handful of runs on one machine, not a physical
 * limit; within one published p2pBandwidthLatencyTest run the small-copy latencies of one
 * link class already spread that much (8 × A100-SXM4 fixture: P2P-on pairs 2.72–3.33 µs, ±10 %
 * about their middle; the 2 × RTX 2080 Ti CANNOT pair 13.63–14.99 µs over its four cells), and
 * a "~x" source value is itself only good to about that. A band of one published value (low = high)
 * gets the same ±10 %. The measurement's own CI is used as well (see `bandDistance`).
 */
export const BAND_TOLERANCE = 0.1

/** Kept for callers of the earlier name: point bands admit the same ±BAND_TOLERANCE. */
export const POINT_TOLERANCE = BAND_TOLERANCE

/** True when `value` lies in the band widened by BAND_TOLERANCE at both edges. */
export function inBand(band: Band, value: number): boolean {
  return value >= band.low * (1 - BAND_TOLERANCE) && value <= band.high * (1 + BAND_TOLERANCE)
}
