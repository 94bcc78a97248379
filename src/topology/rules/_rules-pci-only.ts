/**
 * `nvidia-smi topo -mp` (--matrix_pci) prints PCIe paths only: NVLink is not shown, so its
 * classes say how the GPUs sit on PCIe, not whether peer copies go over PCIe. A finding says
 * so; the pairs keep the class as `pciPath`, never as a link class (see _pairs.ts).
 */
import type { Finding, TopoPair } from '../_types.ts'

/** The finding for pairs known only from a PCIe-only matrix, or undefined when there are none. */
export function pciOnlyFinding(pairs: readonly TopoPair[]): Finding | undefined {
  const only = pairs.filter((p) => p.link === undefined && p.pciPath !== undefined)
  if (only.length === 0) return undefined
  return {
    id: 'pci-only-matrix',
    severity: 'info',
    gpus: [...new Set(only.flatMap((p) => [p.a, p.b]))],
    message:
      `The topology matrix is nvidia-smi topo -mp (PCIe paths only): NVLink is not shown, so it cannot tell ` +
      `whether ${only.length === pairs.length ? 'any' : `${only.length} of ${pairs.length}`} GPU pairs ` +
      'are NVLink-connected, and no pair is called PCIe P2P from it alone; nvidia-smi topo -m shows NV# links.',
    facts: only
      .slice(0, 4)
      .map((p) => `pair ${p.a}-${p.b}: PCIe path ${p.pciPath as string} (${p.from.pciPath ?? '?'})`),
  }
}
