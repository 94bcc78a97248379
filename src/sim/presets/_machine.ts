/**
 * Pieces of the presets' machines as the topology tools see them (SIMULATED): PCI trees for
 * `lspci -tv`, CPU lists for `nvidia-smi topo -m`. Device names are the ones lspci prints
 * from pci.ids; where a name is not in the project's fixtures it is marked as an assumption.
 */
import type { MachineSpec, PciNode, PciRoot } from '../_types.ts'

/**
 * The RTX PRO 6000 Blackwell and its HD audio function. Assumption: pci.ids' GB202GL naming,
 * in the style of the fixtures' `AD102GL [RTX 6000 Ada Generation]` / `AD102 High Definition
 * Audio Controller` lines (fixtures/lspci-tv).
 */
export const RTX_PRO_6000_PCI = 'NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Workstation Edition]'
export const RTX_PRO_6000_AUDIO = 'NVIDIA Corporation GB202 High Definition Audio Controller'

/**
 * AMD EPYC root complex and dummy host bridge functions, named as the published 2-socket
 * Genoa tree prints them (fixtures/lspci-tv/asus-esc8000a-e12-…: `Device 14a4`, `Device
 * 149f`). Turin's own device ids are not in the fixtures; these stand in for them.
 */
const AMD_ROOT_COMPLEX = 'Advanced Micro Devices, Inc. [AMD] Device 14a4'
const AMD_DUMMY_BRIDGE = 'Advanced Micro Devices, Inc. [AMD] Device 149f'

/**
 * CPU lists of a dual-socket EPYC host, 64 cores per socket with SMT, Linux numbering
 * (socket 0 then socket 1, SMT siblings after all cores). Assumption: the core count of the
 * seeds' Turin host is not published; the shape is that of the fixtures' 2-socket lists
 * (`0-51,104-155` / `52-103,156-207`).
 */
export const DUAL_EPYC_CPUS = ['0-63,128-191', '64-127,192-255'] as const

/**
 * The RTX PRO 6000 Blackwell's host link: PCIe Gen5 x16 (docs/REFERENCE.md lists it as a
 * Gen5 card; NVIDIA's product page gives PCIe 5.0 x16), trained at that on a healthy slot.
 */
export const RTX_PRO_6000_LINK = { gen: 5, width: 16 } as const

/**
 * A bare-metal dual-socket EPYC host: NUMA node = socket (NPS1), a GPU's CPU affinity the
 * DUAL_EPYC_CPUS list of its socket, AMD CPUs, the given PCI tree, RTX PRO 6000 links.
 */
export const dualEpycMachine = (socketOf: (gpu: number) => number, pci: readonly PciRoot[]): MachineSpec => ({
  numa: socketOf,
  cpuAffinity: (gpu) => DUAL_EPYC_CPUS[socketOf(gpu)] as string,
  cpuVendor: 'AuthenticAMD',
  pci,
  pcieLink: RTX_PRO_6000_LINK,
})

const hex2 = (n: number): string => n.toString(16).padStart(2, '0')

/** A GPU (function 0) and its audio function (1), both tagged with the physical GPU index. */
export const gpuFunctions = (gpu: number): PciNode[] => [
  { dev: '00.0', name: RTX_PRO_6000_PCI, gpu },
  { dev: '00.1', name: RTX_PRO_6000_AUDIO, gpu },
]

/** A root port `dev` whose secondary bus `bus` holds one GPU. */
export const rootPortGpu = (dev: string, bus: number, gpu: number): PciNode => ({
  dev,
  bus,
  children: gpuFunctions(gpu),
})

/** One EPYC root complex (its own root bus): the root complex, a dummy host bridge, and root port 01.1. */
export const epycRoot = (bus: number, port: PciNode): PciRoot => ({
  domain: 0,
  bus,
  devices: [{ dev: '00.0', name: AMD_ROOT_COMPLEX }, { dev: '01.0', name: AMD_DUMMY_BRIDGE }, port],
})

/**
 * Root port 01.1 with a PCIe switch below it: the switch's upstream port on bus `up`, its
 * downstream ports 00.0, 01.0, … on bus up+1, the k-th holding one GPU on bus up+2+k.
 */
export const switchBelowRootPort = (up: number, gpus: readonly number[]): PciNode => ({
  dev: '01.1',
  bus: up,
  children: [
    {
      dev: '00.0',
      bus: up + 1,
      children: gpus.map((g, k) => ({ dev: `${hex2(k)}.0`, bus: up + 2 + k, children: gpuFunctions(g) })),
    },
  ],
})
