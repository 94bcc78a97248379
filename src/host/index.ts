/**
 * Host doctor: the power, link, IOMMU and NUMA state of the host (read from sysfs, a capture
 * or nvidia-smi -q) and the findings that relate it to a host-staged copy's floor.
 */

export type { Knob, KnobContext, KnobEffect, KnobWrite } from './_knobs.ts'
export { DEEP_EXIT_S, hostEffect, KNOBS, parseHostAxis } from './_knobs.ts'
export type { LoadedLink, LoadSource, UnderLoadRecord } from './_load.ts'
export { applyUnderLoad, highest, readSysfsLinks, readUnderLoad, UNDER_LOAD_FILE } from './_load.ts'
export type { HostReadOptions } from './_read.ts'
export { genOf, iommuParams, readHostFacts } from './_read.ts'
export type { RestoreRecord } from './_restore.ts'
export { applyPendingRestore, applyWrites, RESTORE_FILE } from './_restore.ts'
export type { CpuPower, HostFacts, HostGpu, IdleState, IommuState, LinkReading, NumaState } from './_types.ts'
