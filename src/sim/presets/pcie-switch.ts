/**
 * pcie-switch: 8 × RTX PRO 6000 Blackwell behind two Broadcom PCIe switches of four GPUs each
 * (ASUS ESC8000A-E13P layout), one switch per CPU socket. P2P works everywhere; pairs on one
 * switch never touch the CPU, pairs across switches cross both sockets.
 */
import type { LinkParams, Preset } from '../_types.ts'
import { DUAL_EPYC_CPUS, epycRoot, switchBelowRootPort } from './_machine.ts'
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

/** P2P off: not published for this board; taken as bare metal's ~14 µs (REFERENCE §1). */
const STAGED_COPY_US = 14.0

/** CPU enqueue times as on the Genoa fixture (see baremetal-turin.ts). */
const COMMON = {
  peerAccess: true,
  latDisabledUs: STAGED_COPY_US,
  cpuLatEnabledUs: 1.5,
  cpuLatDisabledUs: 5.8,
  bwUniDisabledGBs: GEN5_STAGED_UNI_GBS,
  bwBiDisabledGBs: GEN5_STAGED_BI_GBS,
}

/** Same switch: 0.71–0.74 µs (REFERENCE §1, rtx6kpro asus-esc8000a-e13p). Bandwidth: Gen5 P2P, near (assumption). */
const SAME_SWITCH: LinkParams = {
  ...COMMON,
  level: 'PIX',
  latEnabledUs: 0.725,
  bwUniEnabledGBs: GEN5_P2P_UNI_NEAR_GBS,
  bwBiEnabledGBs: GEN5_P2P_BI_NEAR_GBS,
}

/** Across switches (and sockets): 1.27–1.36 µs (same source). Bandwidth: Gen5 P2P, far (assumption). */
const CROSS_SWITCH: LinkParams = {
  ...COMMON,
  level: 'SYS',
  latEnabledUs: 1.315,
  bwUniEnabledGBs: GEN5_P2P_UNI_FAR_GBS,
  bwBiEnabledGBs: GEN5_P2P_BI_FAR_GBS,
}

const sw = (gpu: number): number => (gpu < 4 ? 0 : 1)

/** The pcie-switch preset. */
export const pcieSwitch: Preset = {
  name: 'pcie-switch',
  description: '8 × RTX PRO 6000 Blackwell behind two Broadcom PCIe switches of 4 (one per socket), P2P on',
  gpuName: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition',
  hostname: 'sim-switch',
  // Invented: four downstream ports per switch.
  pciBus: [0x13, 0x14, 0x15, 0x16, 0x93, 0x94, 0x95, 0x96],
  link: (src, dst) => (sw(src) === sw(dst) ? SAME_SWITCH : CROSS_SWITCH),
  local: RTX_PRO_6000_LOCAL,
  nccl: {
    baseLLUs: NCCL_BASE_LL_US,
    baseSimpleUs: NCCL_BASE_SIMPLE_US,
    // NCCL's default P2P level (PATH_PXB, REFERENCE §2): groups on one switch use P2P,
    // groups that span both switches fall back to SHM.
    p2pLevel: 'PXB',
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
    shmMemcpy: {
      label: 'SHM/CE-memcpy',
      hopLLUs: STAGED_COPY_US,
      hopSimpleUs: STAGED_COPY_US + (PCI_HOP_SIMPLE_US - PCI_HOP_LL_US),
      busBwLLGBs: TURIN_SHM_BUSBW_GBS * LL_BW_FRACTION,
      busBwSimpleGBs: TURIN_SHM_BUSBW_GBS,
    },
  },
  noise: BARE_METAL_NOISE,
  // SIMULATED machine: on each socket one root complex (00, 80), its root port 01.1 leading
  // to one switch (upstream port on bus 11 / 91, downstream ports on 12 / 92, GPUs on 13–16 /
  // 93–96). NVML: PIX within a switch (one switch between the GPUs), SYS across the sockets.
  machine: {
    numa: sw,
    cpuAffinity: (gpu) => DUAL_EPYC_CPUS[sw(gpu)] as string,
    cpuVendor: 'AuthenticAMD',
    pci: [epycRoot(0x00, switchBelowRootPort(0x11, [0, 1, 2, 3])), epycRoot(0x80, switchBelowRootPort(0x91, [4, 5, 6, 7]))],
  },
}
