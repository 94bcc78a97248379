import type { Parser } from './types.ts'
import { nvidiaSmiTopoM } from './nvidia-smi-topo-m.ts'
import { nvidiaSmiTopoP2p } from './nvidia-smi-topo-p2p.ts'
import { lspciTv } from './lspci-tv.ts'
import { lspciNn } from './lspci-nn.ts'
import { iommuGroups } from './iommu-groups.ts'
import { native } from './native.ts'

/**
 * Every parser gpucomm knows, in one explicit list (no discovery). Add a format by
 * adding its file and one line here.
 */
export const PARSERS: readonly Parser[] = [
  nvidiaSmiTopoM,
  nvidiaSmiTopoP2p,
  lspciTv,
  lspciNn,
  iommuGroups,
  native,
]
