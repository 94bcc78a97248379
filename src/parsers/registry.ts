import { iommuGroups } from './iommu-groups.ts'
import { lspciNn } from './lspci-nn.ts'
import { lspciTv } from './lspci-tv.ts'
import { native } from './native.ts'
import { ncclTestsJson } from './nccl-tests-json.ts'
import { ncclTestsText } from './nccl-tests-text.ts'
import { nvbandwidthParser } from './nvbandwidth.ts'
import { nvbandwidthJsonParser } from './nvbandwidth-json.ts'
import { nvidiaSmiTopoM } from './nvidia-smi-topo-m.ts'
import { nvidiaSmiTopoP2p } from './nvidia-smi-topo-p2p.ts'
import { p2pBandwidthLatencyParser } from './p2p-bandwidth-latency.ts'
import type { Parser } from './types.ts'

/**
 * Every parser gpucomm knows, in one explicit list (no discovery). Add a format by
 * adding its file and one line here.
 */
export const PARSERS: readonly Parser[] = [
  ncclTestsText,
  ncclTestsJson,
  nvidiaSmiTopoM,
  nvidiaSmiTopoP2p,
  lspciTv,
  lspciNn,
  iommuGroups,
  native,
  p2pBandwidthLatencyParser,
  nvbandwidthParser,
  nvbandwidthJsonParser,
]
