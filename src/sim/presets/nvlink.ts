/**
 * nvlink: an A100-SXM4-like box, 8 GPUs on NVSwitch (NV12 between every pair). Copy numbers
 * come from the published 8 × A100 p2pBandwidthLatencyTest run in the fixtures
 * (fixtures/p2pBandwidthLatencyTest/8x-a100-sxm4-nvswitch-shared-busid-ce), collective numbers
 * from NCCL's model (docs/REFERENCE.md) and the A100 `-g 8` nccl-tests fixture.
 */
import type { LinkParams, Preset } from '../_types.ts'
import {
  BARE_METAL_NOISE,
  ceMemcpyTransport,
  DIRECT_P2P_HOST_MODEL,
  NCCL_BASE_LL_US,
  NCCL_BASE_SIMPLE_US,
  NVLINK_HOP_LL_US,
  NVLINK_HOP_SIMPLE_US,
  pciTransport,
  ringTransport,
} from './_common.ts'

/** P2P off on A100 ×8 NVSwitch: 23.6–24.8 µs (docs/REFERENCE.md, DistServe issue 3). */
const STAGED_COPY_US = 24.2

/**
 * Host-staged bandwidth with P2P off: the A100 fixture's P2P=Disabled cells spread 7.8–20.5 GB/s
 * uni and 8.4–21.9 bidi; we take a typical 14 / 17 GB/s. The same number bounds an SHM ring
 * (assumption: NCCL over SHM on this box is not published).
 */
const STAGED_UNI_GBS = 14.0
const STAGED_BI_GBS = 17.0

const LINK: LinkParams = {
  level: 'NV',
  peerAccess: true,
  // 2.94–3.49 µs (docs/REFERENCE.md); the fixture's off-diagonal cells are 2.72–3.33.
  latEnabledUs: 3.2,
  latDisabledUs: STAGED_COPY_US,
  // Fixture CPU matrices: enabled 1.68–2.13 µs, disabled 4.73–5.80 µs off the diagonal.
  cpuLatEnabledUs: 1.85,
  cpuLatDisabledUs: 5.4,
  // Fixture: uni P2P writes 269.6–276.6 GB/s, bidi mostly 512–522 GB/s.
  bwUniEnabledGBs: 274.0,
  bwUniDisabledGBs: STAGED_UNI_GBS,
  bwBiEnabledGBs: 518.0,
  bwBiDisabledGBs: STAGED_BI_GBS,
}

/** The nvlink preset. */
export const nvlink: Preset = {
  name: 'nvlink',
  description: '8 × A100-SXM4-like GPUs on NVSwitch (NVLink between every pair), P2P on',
  gpuName: 'NVIDIA A100-SXM4-80GB',
  hostname: 'sim-nvswitch',
  // The bus numbers of the A100 `-g 8` nccl-tests fixture.
  pciBus: [0x07, 0x0a, 0x45, 0x4b, 0x84, 0x8a, 0xc0, 0xc3],
  link: () => LINK,
  // Fixture diagonal: latency 2.07–2.87 µs, CPU 2.62–3.69 µs, bandwidth 1521–1591 uni, 1550–1608 bidi.
  local: { latUs: 2.2, cpuLatUs: 3.1, bwUniGBs: 1550, bwBiGBs: 1590 },
  nccl: {
    baseLLUs: NCCL_BASE_LL_US,
    baseSimpleUs: NCCL_BASE_SIMPLE_US,
    p2pLevel: 'SYS',
    // Ring busbw 230 GB/s: the A100 `-g 8` all_reduce fixture tops out at 232 GB/s (4 GiB).
    p2p: ringTransport('P2P/NVLink', NVLINK_HOP_LL_US, NVLINK_HOP_SIMPLE_US, 230),
    // NCCL_P2P_DISABLE=1: SHM over the PCIe host path, NCCL's PCI step costs.
    shm: pciTransport('SHM', STAGED_UNI_GBS),
    shmMemcpy: ceMemcpyTransport(STAGED_COPY_US, STAGED_UNI_GBS),
  },
  // NVSwitch boxes are quiet: σ 1 % (the A100 fixture's small rows scatter about 1.5 % with
  // the launch jitter included; assumption).
  noise: { ...BARE_METAL_NOISE, sigma: 0.01 },
  // The host knobs' effect: a model, on host-staged copies only (see DIRECT_P2P_HOST_MODEL).
  host: DIRECT_P2P_HOST_MODEL,
  // SIMULATED machine: NV12 between every pair, GPUs 0–3 on NUMA 0 (CPUs 0-23) and 4–7 on
  // NUMA 1 (24-47), as the 8 × A100 topo -m fixture (ml-engineering-8x-a100-nv12-…) prints.
  // CPU vendor: AMD, as in DGX A100 (assumption; the fixture does not say). The PCI tree
  // (GPUs behind PCIe switches, NVSwitches) is not modelled: no lspci -tv.
  machine: {
    numa: (gpu) => (gpu < 4 ? 0 : 1),
    cpuAffinity: (gpu) => (gpu < 4 ? '0-23' : '24-47'),
    cpuVendor: 'AuthenticAMD',
    nvlinks: 12,
    // A100 SXM4's host link: PCIe Gen4 x16 (NVIDIA's A100 datasheet).
    pcieLink: { gen: 4, width: 16 },
  },
}
