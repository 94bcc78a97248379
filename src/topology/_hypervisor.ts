/**
 * Hypervisor detection from what the guest can see: the `hypervisor` CPU flag in
 * /proc/cpuinfo, DMI `sys_vendor` / `product_name`, and systemd-detect-virt's answers.
 */
import type { FsView } from '../machine/index.ts'
import type { HypervisorInfo } from './_types.ts'

const VM_VENDOR =
  /QEMU|KVM|VMware|innotek|VirtualBox|Xen|Parallels|Bochs|OpenStack|Proxmox|Nutanix|Cloud Hypervisor|BHYVE|Red Hat|Google Compute|Amazon EC2/i
const VM_PRODUCT = /Virtual Machine|KVM|VMware|VirtualBox|HVM domU|Standard PC \((?:Q35|i440FX)/i

/** systemd-detect-virt's answers (`--vm`, `--container`), as printed; undefined when not run. */
export interface VirtAnswers {
  vm?: string
  container?: string
}

/** CPU vendor and the hypervisor flag from /proc/cpuinfo text. */
function readCpuinfo(text: string | undefined): { vendor?: string; hypervisorFlag?: boolean } {
  if (text === undefined) return {}
  const vendor = /^vendor_id\s*:\s*(\S+)/m.exec(text)?.[1]
  const flags = /^flags\s*:(.*)$/m.exec(text)?.[1]
  return {
    ...(vendor ? { vendor } : {}),
    ...(flags !== undefined ? { hypervisorFlag: /(^|\s)hypervisor(\s|$)/.test(flags) } : {}),
  }
}

/** Pure: combines the signals into one verdict with its sources. */
export function judgeHypervisor(s: {
  cpuFlag?: boolean
  sysVendor?: string
  productName?: string
  virt?: VirtAnswers
  from: string[]
}): HypervisorInfo {
  const vmVirt = s.virt?.vm !== undefined && s.virt.vm !== '' && s.virt.vm !== 'none'
  const container = s.virt?.container !== undefined && s.virt.container !== '' && s.virt.container !== 'none'
  const dmi =
    (s.sysVendor !== undefined && VM_VENDOR.test(s.sysVendor)) ||
    (s.productName !== undefined && VM_PRODUCT.test(s.productName))
  const detected = s.cpuFlag === true || dmi || vmVirt
  const known =
    s.cpuFlag !== undefined || s.sysVendor !== undefined || s.productName !== undefined || s.virt !== undefined
  const info: HypervisorInfo = {
    detected,
    kind: detected ? 'vm' : container ? 'container' : known ? 'none' : 'unknown',
    from: s.from,
  }
  if (s.cpuFlag !== undefined) info.cpuFlag = s.cpuFlag
  if (s.sysVendor !== undefined) info.sysVendor = s.sysVendor
  if (s.productName !== undefined) info.productName = s.productName
  if (s.virt?.vm !== undefined) info.virt = s.virt.vm
  if (container) info.container = s.virt?.container
  return info
}

/** Reads the signals through `fs` (when given) and judges them. */
export function detectHypervisor(
  fs: FsView | undefined,
  virt: VirtAnswers | undefined,
): { hypervisor: HypervisorInfo; cpuVendor?: string } {
  const from: string[] = []
  const cpu = readCpuinfo(fs?.text('/proc/cpuinfo'))
  if (cpu.hypervisorFlag !== undefined)
    from.push(`/proc/cpuinfo flags: hypervisor ${cpu.hypervisorFlag ? 'present' : 'absent'}`)
  const sysVendor = fs?.text('/sys/class/dmi/id/sys_vendor')
  const productName = fs?.text('/sys/class/dmi/id/product_name')
  if (sysVendor !== undefined) from.push(`/sys/class/dmi/id/sys_vendor: ${sysVendor}`)
  if (productName !== undefined) from.push(`/sys/class/dmi/id/product_name: ${productName}`)
  if (virt?.vm !== undefined) from.push(`systemd-detect-virt --vm: ${virt.vm}`)
  if (virt?.container !== undefined) from.push(`systemd-detect-virt --container: ${virt.container}`)
  const hypervisor = judgeHypervisor({ cpuFlag: cpu.hypervisorFlag, sysVendor, productName, virt, from })
  return cpu.vendor ? { hypervisor, cpuVendor: cpu.vendor } : { hypervisor }
}
