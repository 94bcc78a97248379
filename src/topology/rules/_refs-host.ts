/** Original public sources the host findings cite (Linux kernel documentation paths are in torvalds/linux). */
export const REF = {
  pciSysfs:
    'Linux Documentation/ABI/testing/sysfs-bus-pci (current_link_speed/width, max_link_speed/width, link/*_aspm)',
  pcieRates:
    'PCIe x16 per direction: 2.5/5/8/16/32 GT/s × 16 lanes × encoding (Gen3+ 128b/130b): Gen3 ' +
    '15.75, Gen4 31.5, Gen5 63.0 GB/s',
  aspm:
    'Linux Documentation/admin-guide/kernel-parameters.txt (pcie_aspm=off, pcie_aspm.policy=); ' +
    '/sys/module/pcie_aspm/parameters/policy',
  cpuidle:
    'Linux Documentation/admin-guide/pm/cpuidle.rst (stateN/latency is the exit latency in µs; ' +
    'stateN/disable); cpupower-idle-set(1)',
  amdTuning:
    'AMD EPYC BIOS and workload tuning guides (Global C-State Control, DF C-States, APBDIS); ' +
    'Linux Documentation/admin-guide/pm/amd-pstate.rst',
  iommu:
    'Linux Documentation/ABI/testing/sysfs-kernel-iommu_groups (type: identity, DMA, DMA-FQ); ' +
    'kernel-parameters.txt (iommu=pt, iommu.passthrough=1, iommu.strict=)',
  qemuNuma: 'QEMU docs/pci_expander_bridge.txt (pxb-pcie numa_node=); Proxmox VE qm.conf (numa: 1, affinity)',
  crossNuma:
    'github.com/voipmonitor/rtx6kpro hardware/asus-esc8000a-e13p-broadcom-switches.md: P2P ' +
    'small copy 0.71–0.74 µs same NUMA, 1.27–1.36 µs cross',
} as const
