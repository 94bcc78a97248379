import { ncclTestsJson } from './nccl-tests/nccl-tests-json.ts'
import { ncclTestsText } from './nccl-tests/nccl-tests-text.ts'
import { nvbandwidthParser } from './nvbandwidth/nvbandwidth.ts'
import { nvbandwidthJsonParser } from './nvbandwidth/nvbandwidth-json.ts'
import { native } from './p2p/native.ts'
import { p2pBandwidthLatencyParser } from './p2p/p2p-bandwidth-latency.ts'
import { iommuGroups } from './system/iommu-groups.ts'
import { lspciNn } from './system/lspci-nn.ts'
import { lspciTv } from './system/lspci-tv.ts'
import { nvidiaSmiTopoM } from './system/nvidia-smi-topo-m.ts'
import { nvidiaSmiTopoP2p } from './system/nvidia-smi-topo-p2p.ts'
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
