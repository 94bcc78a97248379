/** Collective bands: measured nccl-tests all_reduce times and NCCL's own latency model. */

import { US } from '../units/index.ts'
import { CHLC, PCIE, RTX6K, SAME_NUMA_PCIE } from './_band-sources.ts'
import type { Band } from './_types.ts'

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
    // P2P only: 8 GPUs span both sockets on the dual-socket hosts, and there NCCL runs SHM rings
    // with Simple, not LL (ar-rtxpro6000-default-8gpu; sim presets/_common.ts AMD_XGMI_SIMPLE).
    transports: ['P2P'],
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
      'a published log shipped as ' +
      'test/fixtures/nccl-tests/a100-sxm4-8gpu-single-process-g8-v2.13.txt (its .source.txt says ' +
      'where it was found)',
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
