/**
 * pcie-switch: 8 × RTX PRO 6000 Blackwell behind two Broadcom PCIe switches of four GPUs each
 * (ASUS ESC8000A-E13P layout), one switch per CPU socket. P2P works everywhere; pairs on one
 * switch never touch the CPU, pairs across switches cross both sockets.
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
import { dualEpycMachine, epycRoot, switchBelowRootPort } from './_machine.ts'

/** P2P off: not published for this board; taken as bare metal's ~14 µs (docs/REFERENCE.md). */
const STAGED_COPY_US = 14.0

/** Same switch: 0.71–0.74 µs (docs/REFERENCE.md, rtx6kpro asus-esc8000a-e13p). Bandwidth: Gen5 P2P, near (assumption). */
const SAME_SWITCH: LinkParams = gen5PeerLink('PIX', 0.725, 'near', STAGED_COPY_US)

/** Across switches (and sockets): 1.27–1.36 µs (same source). Bandwidth: Gen5 P2P, far (assumption). */
const CROSS_SWITCH: LinkParams = gen5PeerLink('SYS', 1.315, 'far', STAGED_COPY_US)

const sw = (gpu: number): number => (gpu < 4 ? 0 : 1)

/** The pcie-switch preset. */
export const pcieSwitch: Preset = {
  name: 'pcie-switch',
  description: '8 × RTX PRO 6000 Blackwell behind two Broadcom PCIe switches of 4 (one per socket), P2P on',
  gpuName: RTX_PRO_6000_NAME,
  hostname: 'sim-switch',
  // Invented: four downstream ports per switch.
  pciBus: [0x13, 0x14, 0x15, 0x16, 0x93, 0x94, 0x95, 0x96],
  link: (src, dst) => (sw(src) === sw(dst) ? SAME_SWITCH : CROSS_SWITCH),
  local: RTX_PRO_6000_LOCAL,
  // NCCL's default P2P level (PATH_PXB, docs/REFERENCE.md): groups on one switch use P2P,
  // groups that span both switches fall back to SHM.
  nccl: gen5BareMetalNccl('PXB', STAGED_COPY_US),
  noise: BARE_METAL_NOISE,
  // The host knobs' effect: a model, on host-staged copies only (see DIRECT_P2P_HOST_MODEL).
  host: DIRECT_P2P_HOST_MODEL,
  // SIMULATED machine: on each socket one root complex (00, 80), its root port 01.1 leading
  // to one switch (upstream port on bus 11 / 91, downstream ports on 12 / 92, GPUs on 13–16 /
  // 93–96). NVML: PIX within a switch (one switch between the GPUs), SYS across the sockets.
  machine: dualEpycMachine(sw, [
    epycRoot(0x00, switchBelowRootPort(0x11, [0, 1, 2, 3])),
    epycRoot(0x80, switchBelowRootPort(0x91, [4, 5, 6, 7])),
  ]),
}
