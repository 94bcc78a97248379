/**
 * GeForce RTX 4090 and RTX 5090 on NVIDIA's stock driver have P2P disabled: peer access is
 * reported unavailable and copies are staged through host memory (8 × RTX 4090: 11.3–20.5 µs
 * per small copy on the stock driver, 1.17–1.69 µs with a P2P-enabled one,
 * blog.chlc.cc/p/rtx4090-gpudirect-p2p-unlocked). Patched open kernel modules enable it
 * (github.com/tinygrad/open-gpu-kernel-modules for the 4090, github.com/aikitoria/open-gpu-kernel-modules
 * for the RTX 50 series). The driver in use is not in the input, so the GPU name is weak
 * evidence: it counts only where nothing the tools reported says otherwise.
 */
import type { Evidence } from './_types.ts'

const CONSUMER_NO_P2P = /\bRTX\s*(4090|5090)\b/i

/** The GeForce model whose stock driver disables P2P ("RTX 4090"), or undefined. */
export function stockNoP2p(name: string | undefined): string | undefined {
  if (!name || /RTX\s*PRO/i.test(name)) return undefined
  const m = CONSUMER_NO_P2P.exec(name)
  return m ? `RTX ${m[1]}` : undefined
}

/** Where the fact is published. */
const STOCK_NO_P2P_SOURCE =
  'blog.chlc.cc/p/rtx4090-gpudirect-p2p-unlocked; github.com/tinygrad/open-gpu-kernel-modules; ' +
  'github.com/aikitoria/open-gpu-kernel-modules'

/** The weak evidence a GPU name gives (strength 2, a configuration fact), or undefined. */
export function stockNoP2pEvidence(name: string | undefined, nameSource: string): Evidence | undefined {
  const model = stockNoP2p(name)
  if (!model) return undefined
  return {
    strength: 2,
    fact:
      `${model} on NVIDIA's stock driver has P2P disabled (copies staged through host memory); a patched ` +
      'driver enables it, and the input does not say which driver ran (weak evidence)',
    source: `${nameSource}; ${STOCK_NO_P2P_SOURCE}`,
  }
}
