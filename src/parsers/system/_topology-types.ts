/** The `meta.topology` shapes of the topology parsers, gathered for the door (index.ts). */

export type { IommuGroups } from './iommu-groups.ts'
export type { LspciList, LspciNnDevice } from './lspci-nn.ts'
export type { LspciDevice, LspciGpu, LspciTree } from './lspci-tv.ts'
export type { TopoMatrix, TopoMGpu, TopoMLink } from './nvidia-smi-topo-m.ts'
export type { P2PCell, P2PMatrix } from './nvidia-smi-topo-p2p.ts'
