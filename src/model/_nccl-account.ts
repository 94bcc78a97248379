/** NCCL's own account of one point, as a row stores it (read by src/nccl-log from NCCL_DEBUG=INFO lines). */

/** What NCCL said about one point. */
export interface NcclAccount {
  version?: string
  /** Distinct transports, sorted, e.g. ["P2P/IPC"], ["SHM"], ["NET/IB/GDRDMA"]. */
  transports: string[]
  /** Largest collective channel count NCCL reported. */
  channels?: number
  /** Transports per channel, e.g. {"00": ["P2P/IPC"], "01": ["SHM"]} (at most 64 channels). */
  perChannel?: Record<string, string[]>
  /** Distinct algorithms and protocols the tuner chose, sorted. */
  algos: string[]
  protos: string[]
  /** Per collective and size, what the tuner chose (deduplicated, at most 64 entries). */
  choices: { collective: string; bytes: number; algo: string; proto: string }[]
  /** Env settings NCCL acknowledged ("NCCL_PROTO set by environment to LL"). */
  envSet: Record<string, string>
  /** NCCL INFO lines seen. */
  infoLines: number
  /** Hosts the lines' `host:pid:tid [dev]` prefixes name, first seen first (at most 4,096). */
  hosts?: string[]
}
