/** The `meta.topology` shapes of the topology parsers, gathered for the door (index.ts). */
export type { TopoMatrix, TopoMGpu, TopoMLink } from './nvidia-smi-topo-m.ts'
export type { P2PMatrix, P2PCell } from './nvidia-smi-topo-p2p.ts'
export type { LspciTree, LspciGpu, LspciDevice } from './lspci-tv.ts'
export type { LspciList, LspciNnDevice } from './lspci-nn.ts'
export type { IommuGroups } from './iommu-groups.ts'
