/**
 * seed-vm: the seeds' machine. 8 × RTX PRO 6000 Blackwell passed through to a Proxmox VM,
 * each GPU on its own PCIe root port, no P2P between any pair (`nvidia-smi topo -p2p` NS), so
 * every cross-GPU copy is staged through host memory and NCCL runs over SHM.
 */
import type { LinkParams, MachineSpec, Preset } from '../_types.ts'
import {
  BARE_METAL_NOISE,
  ceMemcpyTransport,
  GEN5_P2P_BUSBW_GBS,
  GEN5_STAGED_BI_GBS,
  GEN5_STAGED_UNI_GBS,
  HOST_STAGED_MODEL,
  NCCL_BASE_LL_US,
  NCCL_BASE_SIMPLE_US,
  PCI_HOP_LL_US,
  PCI_HOP_SIMPLE_US,
  pciTransport,
  RTX_PRO_6000_LOCAL,
  RTX_PRO_6000_NAME,
  ringTransport,
  TURIN_SHM_BUSBW_GBS,
} from './_common.ts'
import { RTX_PRO_6000_LINK, rootPortGpu } from './_machine.ts'

/** The host-staged per-copy floor the seed measured (µs): docs/REFERENCE.md ("A ~13.7 µs floor …"). */
const STAGED_COPY_US = 13.7

/**
 * NCCL SHM per ring step, LL (µs). Our choice: host staging by SHM, where GPUs write and poll
 * pinned host memory themselves, not the driver's copy-engine staging that costs 13.7 µs per
 * copy. The one published no-P2P 8-GPU figure is RTX 4090 ×8 over SHM, 38.8 µs at 8 B
 * (docs/REFERENCE.md, blog.chlc.cc); with NCCL's base 6.6 µs and 14 steps that is
 * (38.8 − 6.6) / 14 = 2.3 µs per step. `NCCL_SHM_USE_CUDA_MEMCPY=1` switches to the other
 * reading (every step a 13.7 µs staged copy, the decode model's per-hop reading, docs/REFERENCE.md).
 */
const SHM_HOP_LL_US = (38.8 - NCCL_BASE_LL_US) / 14
/** The same host-staging surcharge over NCCL's PCI LL step, added to its Simple step (µs). */
const STAGING_SURCHARGE_US = SHM_HOP_LL_US - PCI_HOP_LL_US

const LINK: LinkParams = {
  // Each GPU on its own root port of the guest's host bridge.
  level: 'PHB',
  // The seed: topo -p2p says NS for every pair.
  peerAccess: false,
  // Without peer access the "enabled" run falls back to staging too (FORMATS §2.2).
  latEnabledUs: STAGED_COPY_US,
  latDisabledUs: STAGED_COPY_US,
  // Enqueue cost of a staged copy: 10.34–11.08 µs in the only virtualised no-P2P capture
  // (fixtures/p2pBandwidthLatencyTest/autodl-container-2x-rtx2080ti-p2p-disabled-cannot).
  cpuLatEnabledUs: 10.7,
  cpuLatDisabledUs: 10.7,
  // Host-staged PCIe Gen5 (see _common.ts for the derivation from docs/REFERENCE.md).
  bwUniEnabledGBs: GEN5_STAGED_UNI_GBS,
  bwUniDisabledGBs: GEN5_STAGED_UNI_GBS,
  bwBiEnabledGBs: GEN5_STAGED_BI_GBS,
  bwBiDisabledGBs: GEN5_STAGED_BI_GBS,
}

/**
 * The machine as the guest sees it (SIMULATED), and why. Proxmox's q35 machine gives every
 * `hostpciN` passed with pcie=1 its own `pcie-root-port`, all on the guest's one root bus
 * (pcie.0): hostpci0–3 on ports 1–4 at 1c.0–1c.3 (Proxmox's pve-q35 config), hostpci4–7 on
 * ports 5–8 at 10.0–10.3 (qemu-server's print_pcie_root_port). The firmware numbers buses in
 * slot order, so the GPUs on 10.x get buses 01–04 and those on 1c.x 05–08 (pciBus above).
 * Every GPU pair then meets at the guest's single host bridge, so NVML (nvidia-smi topo -m)
 * says PHB for every pair, not the host's NODE/SYS: the guest sees neither the host's sockets
 * nor its root complexes (a KVM guest reporting PHB: NVIDIA/nccl issue 1674). The issue-3
 * tree of the seed host (own root bus per GPU) is the host's view; this is the guest's.
 * No NUMA in the guest (Proxmox's default numa: 0): nvidia-smi prints NUMA Affinity N/A;
 * 64 vCPUs is an assumption. DMI and the CPU flag as a q35 guest reports them (QEMU,
 * "Standard PC (Q35 + ICH9, 2009)", `hypervisor`), `cpu: host` on the Turin host
 * (AuthenticAMD). Besides the GPUs the tree holds only the q35 chipset's own functions.
 */
const MACHINE: MachineSpec = {
  numa: () => null,
  cpuAffinity: () => '0-63',
  cpuVendor: 'AuthenticAMD',
  vm: { sysVendor: 'QEMU', productName: 'Standard PC (Q35 + ICH9, 2009)' },
  // Passed-through GPUs keep their physical link (the guest's root ports are emulated).
  pcieLink: RTX_PRO_6000_LINK,
  pci: [
    {
      domain: 0,
      bus: 0,
      devices: [
        { dev: '00.0', name: 'Intel Corporation 82G33/G31/P35/P31 Express DRAM Controller' },
        ...[0, 1, 2, 3].map((k) => rootPortGpu(`10.${k}`, 1 + k, k)),
        ...[0, 1, 2, 3].map((k) => rootPortGpu(`1c.${k}`, 5 + k, 4 + k)),
        { dev: '1f.0', name: 'Intel Corporation 82801IB (ICH9) LPC Interface Controller' },
        { dev: '1f.2', name: 'Intel Corporation 82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]' },
        { dev: '1f.3', name: 'Intel Corporation 82801I (ICH9 Family) SMBus Controller' },
      ],
    },
  ],
}

/** The seed-vm preset. */
export const seedVm: Preset = {
  name: 'seed-vm',
  description: '8 × RTX PRO 6000 Blackwell in a Proxmox VM, no P2P, host-staged copies, NCCL over SHM',
  gpuName: RTX_PRO_6000_NAME,
  hostname: 'sim-pve-vm',
  // Invented: one bus per root port, as a q35 guest numbers them.
  pciBus: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
  link: () => LINK,
  // Enqueue cost on the diagonal in a VM/container: 3.27–3.55 µs (autodl fixture's CPU diagonal).
  local: { ...RTX_PRO_6000_LOCAL, cpuLatUs: 3.4 },
  nccl: {
    baseLLUs: NCCL_BASE_LL_US,
    baseSimpleUs: NCCL_BASE_SIMPLE_US,
    p2pLevel: 'PXB',
    // Never used: no pair has peer access. NCCL's PCI numbers, for completeness.
    p2p: pciTransport('P2P/IPC', GEN5_P2P_BUSBW_GBS),
    // SHM ring bandwidth as measured for default NCCL (= SHM) on RTX PRO 6000 bare metal, docs/REFERENCE.md;
    // the VM is assumed to add no bandwidth cost (its host path is the same Gen5 link).
    shm: ringTransport('SHM', SHM_HOP_LL_US, PCI_HOP_SIMPLE_US + STAGING_SURCHARGE_US, TURIN_SHM_BUSBW_GBS),
    shmMemcpy: ceMemcpyTransport(STAGED_COPY_US, TURIN_SHM_BUSBW_GBS),
  },
  // A VM jitters more than bare metal: σ 3 % and 1 % drift between trials (assumption; the
  // p2p sample itself warns of "unstable Latency" on staged copies, FORMATS §2.1).
  noise: { ...BARE_METAL_NOISE, sigma: 0.03, driftSigma: 0.01 },
  // The host knobs' effect on staged copies: a model, see HOST_STAGED_MODEL.
  host: HOST_STAGED_MODEL,
  machine: MACHINE,
}
