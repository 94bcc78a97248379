/**
 * baremetal-turin: 8 × RTX PRO 6000 Blackwell on bare metal, dual AMD EPYC Turin, each GPU on
 * its own root port, GPUs 0–3 on socket 0 and 4–7 on socket 1. P2P works (~0.4 µs pairs);
 * pairs within a socket are NODE, across sockets SYS.
 */
import type { LinkParams, Preset } from '../_types.ts'
import { DUAL_EPYC_CPUS, epycRoot, rootPortGpu } from './_machine.ts'
import {
  BARE_METAL_NOISE,
  GEN5_P2P_BI_FAR_GBS,
  GEN5_P2P_BI_NEAR_GBS,
  GEN5_P2P_BUSBW_GBS,
  GEN5_P2P_UNI_FAR_GBS,
  GEN5_P2P_UNI_NEAR_GBS,
  GEN5_STAGED_BI_GBS,
  GEN5_STAGED_UNI_GBS,
  LL_BW_FRACTION,
  NCCL_BASE_LL_US,
  NCCL_BASE_SIMPLE_US,
  PCI_HOP_LL_US,
  PCI_HOP_SIMPLE_US,
  RTX_PRO_6000_LOCAL,
  TURIN_SHM_BUSBW_GBS,
} from './_common.ts'

/** P2P off on this machine (µs): "~14 µs" (REFERENCE §1, RTX PRO 6000 dual Turin row). */
const STAGED_COPY_US = 14.0

/** Shared by both pair classes. CPU enqueue times from the 2-socket Genoa RTX 6000 Ada fixture
 * (enabled 1.41–1.74 µs, disabled 5.24–6.53 µs off the diagonal); the nearest published host. */
const COMMON = {
  peerAccess: true,
  latDisabledUs: STAGED_COPY_US,
  cpuLatEnabledUs: 1.5,
  cpuLatDisabledUs: 5.8,
  bwUniDisabledGBs: GEN5_STAGED_UNI_GBS,
  bwBiDisabledGBs: GEN5_STAGED_BI_GBS,
}

/** Same socket: 0.36–0.52 µs P2P latency (REFERENCE §1), bandwidth at the top of 53–56.6 / 103–111 (§3). */
const NODE: LinkParams = {
  ...COMMON,
  level: 'NODE',
  latEnabledUs: 0.4,
  bwUniEnabledGBs: GEN5_P2P_UNI_NEAR_GBS,
  bwBiEnabledGBs: GEN5_P2P_BI_NEAR_GBS,
}

/** Across sockets: the upper part of the same 0.36–0.52 µs range, bandwidth at the bottom of it (assumption). */
const SYS: LinkParams = {
  ...COMMON,
  level: 'SYS',
  latEnabledUs: 0.48,
  bwUniEnabledGBs: GEN5_P2P_UNI_FAR_GBS,
  bwBiEnabledGBs: GEN5_P2P_BI_FAR_GBS,
}

const socket = (gpu: number): number => (gpu < 4 ? 0 : 1)

/** The baremetal-turin preset. */
export const baremetalTurin: Preset = {
  name: 'baremetal-turin',
  description: '8 × RTX PRO 6000 Blackwell, bare metal, dual EPYC Turin, P2P on (NODE within a socket, SYS across)',
  gpuName: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition',
  hostname: 'sim-turin',
  // Invented: one root port per GPU, socket 0 low buses, socket 1 high buses.
  pciBus: [0x01, 0x21, 0x41, 0x61, 0x81, 0xa1, 0xc1, 0xe1],
  link: (src, dst) => (socket(src) === socket(dst) ? NODE : SYS),
  local: RTX_PRO_6000_LOCAL,
  nccl: {
    baseLLUs: NCCL_BASE_LL_US,
    baseSimpleUs: NCCL_BASE_SIMPLE_US,
    // NCCL uses no P2P across a host bridge on AMD with > 2 GPUs (PATH_PXB), so NODE and SYS
    // groups run over SHM unless NCCL_P2P_LEVEL says otherwise (REFERENCE §2, paths.cc).
    p2pLevel: 'PXB',
    // NCCL's model gives a PCI step the same latency over P2P and SHM (REFERENCE §2).
    p2p: {
      label: 'P2P/IPC',
      hopLLUs: PCI_HOP_LL_US,
      hopSimpleUs: PCI_HOP_SIMPLE_US,
      busBwLLGBs: GEN5_P2P_BUSBW_GBS * LL_BW_FRACTION,
      busBwSimpleGBs: GEN5_P2P_BUSBW_GBS,
    },
    shm: {
      label: 'SHM',
      hopLLUs: PCI_HOP_LL_US,
      hopSimpleUs: PCI_HOP_SIMPLE_US,
      busBwLLGBs: TURIN_SHM_BUSBW_GBS * LL_BW_FRACTION,
      busBwSimpleGBs: TURIN_SHM_BUSBW_GBS,
    },
    // Every step a host-staged copy-engine copy (REFERENCE §1's ~14 µs), plus Simple's extra step cost.
    shmMemcpy: {
      label: 'SHM/CE-memcpy',
      hopLLUs: STAGED_COPY_US,
      hopSimpleUs: STAGED_COPY_US + (PCI_HOP_SIMPLE_US - PCI_HOP_LL_US),
      busBwLLGBs: TURIN_SHM_BUSBW_GBS * LL_BW_FRACTION,
      busBwSimpleGBs: TURIN_SHM_BUSBW_GBS,
    },
  },
  noise: BARE_METAL_NOISE,
  // SIMULATED machine: socket s holds root complexes 00, 20, 40, 60 (s = 0) or 80, a0, c0, e0
  // (s = 1), one GPU on root port 01.1 of each (the layout of the Genoa fixture's tree, where
  // such GPUs are NODE within a socket and SYS across); NUMA node = socket (NPS1).
  machine: {
    numa: socket,
    cpuAffinity: (gpu) => DUAL_EPYC_CPUS[socket(gpu)] as string,
    cpuVendor: 'AuthenticAMD',
    pci: [0x01, 0x21, 0x41, 0x61, 0x81, 0xa1, 0xc1, 0xe1].map((bus, gpu) => epycRoot(bus - 1, rootPortGpu('01.1', bus, gpu))),
  },
}
