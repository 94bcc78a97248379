/** Sources and link-class lists the band tables share. */
export const GB = 1e9
export const RTX6K = 'github.com/voipmonitor/rtx6kpro'
export const STELLINE = 'github.com/luigifcruz/stelline'
export const CHLC = 'blog.chlc.cc/p/rtx4090-gpudirect-p2p-unlocked'
export const P2P_MEANING =
  'p2pBandwidthLatencyTest latency: 100 back-to-back 16 B cudaMemcpyPeerAsync, GPU-event ' +
  'time / 100 (a pipelined per-copy cost)'
/** PCIe link classes, and those that stay within one NUMA node (no SYS hop). */
export const PCIE = ['PIX', 'PXB', 'PHB', 'NODE', 'SYS']
export const SAME_NUMA_PCIE = ['PIX', 'PXB', 'PHB', 'NODE']
