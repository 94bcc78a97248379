/**
 * baremetal-turin: 8 × RTX PRO 6000 Blackwell on bare metal, dual AMD EPYC Turin, each GPU on
 * its own root port, GPUs 0–3 on socket 0 and 4–7 on socket 1. P2P works (~0.4 µs pairs);
 * pairs within a socket are NODE, across sockets SYS.
 */
import type { LinkParams, Preset } from '../_types.ts'
import {
  BARE_METAL_NOISE,
  DIRECT_P2P_HOST_MODEL,
  gen5BareMetalNccl,
  gen5PeerLink,
  RTX_PRO_6000_LOCAL,
  RTX_PRO_6000_NAME,
} from './_common.ts'
import { dualEpycMachine, epycRoot, rootPortGpu } from './_machine.ts'

/** P2P off on this machine (µs): "~14 µs" (docs/REFERENCE.md, RTX PRO 6000 dual Turin row). */
const STAGED_COPY_US = 14.0

/** Same socket: 0.36–0.52 µs P2P latency (docs/REFERENCE.md), bandwidth at the top of 53–56.6 / 103–111 (docs/REFERENCE.md). */
const NODE: LinkParams = gen5PeerLink('NODE', 0.4, 'near', STAGED_COPY_US)

/** Across sockets: the upper part of the same 0.36–0.52 µs range, bandwidth at the bottom of it (assumption). */
const SYS: LinkParams = gen5PeerLink('SYS', 0.48, 'far', STAGED_COPY_US)

const socket = (gpu: number): number => (gpu < 4 ? 0 : 1)

/** Invented: one root port per GPU, socket 0 low buses, socket 1 high buses. */
const PCI_BUS = [0x01, 0x21, 0x41, 0x61, 0x81, 0xa1, 0xc1, 0xe1]

/** The baremetal-turin preset. */
export const baremetalTurin: Preset = {
  name: 'baremetal-turin',
  description: '8 × RTX PRO 6000 Blackwell, bare metal, dual EPYC Turin, P2P on (NODE within a socket, SYS across)',
  gpuName: RTX_PRO_6000_NAME,
  hostname: 'sim-turin',
  pciBus: PCI_BUS,
  link: (src, dst) => (socket(src) === socket(dst) ? NODE : SYS),
  local: RTX_PRO_6000_LOCAL,
  // NCCL uses no P2P across a host bridge on AMD with > 2 GPUs (PATH_PXB), so NODE and SYS
  // groups run over SHM unless NCCL_P2P_LEVEL says otherwise (docs/REFERENCE.md, paths.cc).
  // SHM/CE-memcpy: every step a host-staged copy-engine copy (docs/REFERENCE.md: ~14 µs).
  // Across the sockets, SHM rings run Simple from the smallest message (AMD_XGMI_SIMPLE).
  nccl: gen5BareMetalNccl('PXB', STAGED_COPY_US),
  noise: BARE_METAL_NOISE,
  // The host knobs' effect: a model, on host-staged copies only (see DIRECT_P2P_HOST_MODEL).
  host: DIRECT_P2P_HOST_MODEL,
  // SIMULATED machine: socket s holds root complexes 00, 20, 40, 60 (s = 0) or 80, a0, c0, e0
  // (s = 1), one GPU on root port 01.1 of each (the layout of the Genoa fixture's tree, where
  // such GPUs are NODE within a socket and SYS across); NUMA node = socket (NPS1).
  machine: dualEpycMachine(
    socket,
    PCI_BUS.map((bus, gpu) => epycRoot(bus - 1, rootPortGpu('01.1', bus, gpu))),
  ),
}
