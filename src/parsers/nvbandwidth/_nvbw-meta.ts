/** The facts an nvbandwidth output states about itself (text and JSON alike). */
import { SIM_MARKER } from '../../model/index.ts'
import { optionValue } from '../_matrix-common.ts'
import type { BufferSource, NvbwDevice } from './_nvbw-testcases.ts'

/** One matrix of a testcase, summarized. */
export interface NvbwMatrixMeta {
  key: string
  description: string
  line: number
  rows: number
  columns: number
  /** Rows emitted and N/A cells skipped. */
  emitted: number
  na: number
}

/** One testcase as the output reports it. */
export interface NvbwTestcaseMeta {
  /** null for a text-mode `Waived:` line, which does not name the test. */
  name: string | null
  status: 'running' | 'passed' | 'waived' | 'error' | 'not found' | string
  line: number
  matrices: NvbwMatrixMeta[]
  error?: string
  /** The `sum` field of the JSON output. */
  sum?: number
  /** Set when no `Running …` line named the testcase and its SUM line did. */
  nameFrom?: 'SUM line'
}

/** A summary line: SUM, COEFFICIENT_OF_VARIATION, MIN/MAX/AVG (-v), `&&&& PERF` (--perfFormatter). */
export interface NvbwSummary {
  kind: string
  key: string
  value: number
  unit?: string
  line: number
}

/** ParseOutput.meta of both nvbandwidth parsers. */
export interface NvbwMeta {
  tool: 'nvbandwidth'
  format: 'text' | 'json'
  version: string | null
  gitVersion: string | null
  mpiVersion?: string
  /** As printed (v0.5–v0.8 print the driver's CUDA version on both lines). */
  cudaRuntimeVersion: number | null
  cudaDriverVersion: number | null
  driverVersion: string | null
  hostname?: string
  devices: NvbwDevice[]
  testcases: NvbwTestcaseMeta[]
  summaries: NvbwSummary[]
  /** Copy size of the bandwidth rows and where it came from (nvbandwidth does not print it). */
  bufferSize: { bytes: number | null; source: BufferSource }
  commandLine: string | null
  /** The closing NOTE (text) or a complete document (JSON) was seen. */
  complete: boolean
  runs: number
  error?: string
  warning?: string
  simulated?: boolean
}

/** A fresh meta with nothing known. */
export function emptyMeta(format: 'text' | 'json'): NvbwMeta {
  return {
    tool: 'nvbandwidth',
    format,
    version: null,
    gitVersion: null,
    cudaRuntimeVersion: null,
    cudaDriverVersion: null,
    driverVersion: null,
    devices: [],
    testcases: [],
    summaries: [],
    bufferSize: { bytes: null, source: 'unknown' },
    commandLine: null,
    complete: false,
    runs: 0,
  }
}

/** Most testcases, devices and summaries kept in meta (a 50 MB log must not grow it without bound). */
export const NVBW_META_CAP = 1024

/**
 * Notes a line outside the matrices in `meta`: the simulator's marker sets `simulated`, the
 * first nvbandwidth command line is kept as `commandLine`. False when the line is neither.
 */
export function noteRunLine(meta: NvbwMeta, t: string): boolean {
  if (t.startsWith(SIM_MARKER)) meta.simulated = true
  else if (/(?:^|[\s/])nvbandwidth(?:\s|$)/.test(t) && !meta.commandLine) meta.commandLine = t
  else return false
  return true
}

/** The buffer size (MiB) a command line's `-b`/`--bufferSize` asks for; null without a positive integer one. */
export function commandBufferMiB(commandLine: string | null): number | null {
  if (commandLine === null) return null
  const b = Number(optionValue(commandLine, ['-b', '--bufferSize']))
  return Number.isSafeInteger(b) && b > 0 ? b : null
}
