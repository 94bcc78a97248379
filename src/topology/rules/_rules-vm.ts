/** The rules of a virtual machine: that the GPUs are passed through, and how a GPUDirect clique restores P2P. */

import { p2pOk } from '../_pairs.ts'
import { rule } from './_rule.ts'

export const vmDetected = rule('vm-detected', ({ hypervisor }) =>
  hypervisor.detected
    ? {
        severity: 'warn',
        message:
          `Running in a virtual machine${vendorText(hypervisor)}: GPUs are passed through to it and the PCIe ` +
          `topology seen here is the one the hypervisor presents; P2P needs the hypervisor's help.`,
        facts: hypervisor.from,
      }
    : undefined,
)

export const vmGpudirectClique = rule('vm-gpudirect-clique', ({ hypervisor, pairs }) => {
  if (!hypervisor.detected || pairs.length === 0 || pairs.every(p2pOk)) return undefined
  return {
    severity: 'warn',
    message:
      'In a VM, P2P can be restored by putting the GPUs in one GPUDirect clique in the ' +
      'hypervisor (QEMU vfio-pci x-nv-gpudirect-clique=<id> on every GPU; Cloud Hypervisor has ' +
      'the same): measured 12–15 µs → 1.0–1.4 µs per small copy. Verify copied data afterwards: ' +
      'GeForce cards under VFIO with a forced clique returned wrong data.',
    facts: [
      `hypervisor detected: ${hypervisor.from.join('; ')}`,
      `${pairs.filter((p) => !p2pOk(p)).length} of ${pairs.length} pairs without reported P2P`,
    ],
    reference:
      'noonghunna/club-3090 PR 890 (Proxmox q35, x-nv-gpudirect-clique, 15.23 → 1.01 µs); ' +
      'cloud-hypervisor/cloud-hypervisor PR 6235 (12 → 1.4 µs); wrong data: NVIDIA/nccl issue ' +
      '2335, NVIDIA/cuda-samples issue 390',
  }
})

/** " (vendor, product)" as DMI names the machine, or nothing. */
function vendorText(h: { sysVendor?: string; productName?: string }): string {
  if (!h.sysVendor) return ''
  return ` (${h.sysVendor}${h.productName ? `, ${h.productName}` : ''})`
}
