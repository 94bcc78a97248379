/**
 * NVLink named by its numbers, not by the GPU's name: a P2P copy faster than any PCIe Gen5 x16
 * link can carry (the pcie-gen5-x16 band, 63 GB/s per direction before protocol overhead,
 * widened by BAND_TOLERANCE) crosses NVLink (bridge, SXM board or NVSwitch). When a pair has
 * no bandwidth figure, a small-copy floor with peer access above every published PCIe P2P
 * floor and inside the published NVLink range points the same way, as weaker evidence (the
 * NVLink range is the p2p-on bands over NV links, see _mechanism.ts RANGES).
 */

import { BAND_TOLERANCE, BANDWIDTH_BANDS } from '../bands/index.ts'
import { formatRate } from '../units/index.ts'
import type { Sourced } from './verdict/_context.ts'

const GEN5 = BANDWIDTH_BANDS.find((b) => b.id === 'pcie-gen5-x16')

/** The most a PCIe Gen5 x16 link carries per direction, plus BAND_TOLERANCE (bytes/second). */
const PCIE_MAX_BPS = (GEN5?.high ?? 63e9) * (1 + BAND_TOLERANCE)

/** "P2P unidirectional bandwidth 273.6 GB/s (GPU0→GPU1), above PCIe Gen5 x16's 63 GB/s + 10 %". */
export function overPcieText(bw: Sourced<number>, pair?: string): string {
  return (
    `P2P unidirectional bandwidth ${formatRate(bw.value)}${pair ? ` (${pair})` : ''}, above what a PCIe Gen5 x16 ` +
    `link carries (${formatRate(GEN5?.high ?? 63e9)} per direction + ${BAND_TOLERANCE * 100} %): NVLink`
  )
}

/** True when a measured P2P bandwidth is beyond PCIe. */
export const beyondPcie = (bps: number | undefined): boolean => bps !== undefined && bps > PCIE_MAX_BPS
