/**
 * Hand-made rows for the analyzeSet unit tests (analysis-analyze, analysis-analyze-fleet-cells):
 * series that lie exactly on α + size/β lines, three trials at each of five sizes, a minimal
 * manifest (analysis-context uses it too), and a one-call analysis of them (20 bootstrap
 * replicates: the tests read α, not its interval).
 */
import assert from 'node:assert/strict'
import type { Analysis, AnalyzeOptions } from '../../src/analysis/index.ts'
import { analyzeSet } from '../../src/analysis/index.ts'
import type { Diagnostic, Manifest, Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'

export const US = 1e-6
export const SIZES = [8, 1024, 4096, 65536, 1 << 20]
/** Three trials at each size of the line α + size/β (µs, GB/s); a p2p.latency row unless `over` says. */
export const line = (alphaUs: number, gbps: number, over: Partial<Row>): Row[] =>
  SIZES.flatMap((x) =>
    [0, 1, 2].map((trial) =>
      makeRow({
        bench: 'p2p.latency',
        metric: 'latency',
        unit: 's',
        value: alphaUs * US + x / (gbps * 1e9),
        sizeBytes: x,
        trial,
        source: { file: 'raw/a.txt', line: 1 },
        ...over,
      }),
    ),
  )
/** A P2P-disabled pair at 25 GB/s. */
export const staged = (src: number, dst: number, alphaUs: number): Row[] =>
  line(alphaUs, 25, { src, dst, p2p: 'disabled' })
export const manifest = (over: Partial<Manifest> = {}): Manifest => ({
  schema: 2,
  id: 'set-1',
  created: '2026-01-01T00:00:00Z',
  origin: 'import',
  simulated: false,
  command: [],
  gpucommVersion: '0',
  ...over,
})
/** analyzeSet of `rows` in a set at sets/one with manifest `m` and diagnostics `d`. */
export const analyzeRows = (
  rows: Row[],
  opts: AnalyzeOptions = {},
  m: Partial<Manifest> = {},
  d: Diagnostic[] = [],
): Analysis => analyzeSet({ dir: 'sets/one', manifest: manifest(m), diagnostics: d, rows }, { replicates: 20, ...opts })
/** `got` within 1e-9 of `want`, relatively. */
export const close = (got: number | undefined, want: number): void =>
  assert.ok(got !== undefined && Math.abs(got / want - 1) < 1e-9, `${got} vs ${want}`)
