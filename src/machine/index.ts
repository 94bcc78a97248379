/**
 * The machine as files and tools show it, below both the host and the topology doctors: a
 * read-only view of sysfs and /proc (live `/`, a capture, or `--sysfs-root`) and the
 * `nvidia-smi -q` link block.
 */

export { FsView } from './_fsview.ts'
export type { SmiLink } from './_nvsmi.ts'
export { parseSmiQuery } from './_nvsmi.ts'
