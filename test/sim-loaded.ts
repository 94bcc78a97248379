/**
 * SIMULATED result sets built in memory, for statistical studies that need hundreds of sets:
 * `simulate()` text read by the real parsers (the same rows an import would store), wrapped
 * as a `LoadedSet` without touching the disk. Deterministic for a given seed.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { Row } from '../src/model/index.ts'
import { detectParser, parseText } from '../src/parsers/index.ts'
import type { LoadedSet } from '../src/resultset/index.ts'
import { simulate } from '../src/sim/index.ts'

/** A sweep-like set: p2p matrices of `p2pGpus`, all_reduce on each group, `trials` times. */
export interface SimLoadedSpec {
  preset: string
  seed: number
  trials: number
  p2pGpus?: number[]
  groups?: number[][]
  sizes?: number[]
  /** p2p_bench latency copies (CE, P2P on and off) of `p2pGpus` at these sizes, `iters` iterations a launch. */
  bench?: { sizes: number[]; iters: number }
  /** `--sim-scale F`: the simulator multiplies every time by F (bandwidths ÷ F), same noise draws. */
  simScale?: number
  /** Multiplies every time and latency (and divides bandwidths): a known, real change. */
  slowdown?: number
}

/** The default sizes: 8 B … 64 MiB, ×4. */
const SIZES = Array.from({ length: 13 }, (_, i) => 8 * 4 ** i)

/**
 * Builds the set in memory. With GPUCOMM_TEST_SIM_CACHE set (only `npm run mutate` sets it, for
 * scopes that mutate neither the simulator nor the parsers), a set built once is read back from
 * that directory, so each mutant's run skips simulating and parsing the same text again.
 */
export function simLoaded(spec: SimLoadedSpec): LoadedSet {
  const dir = process.env.GPUCOMM_TEST_SIM_CACHE
  if (!dir) return build(spec)
  const file = join(dir, `${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32)}.v8`)
  if (existsSync(file)) return deserialize(readFileSync(file)) as LoadedSet
  const set = build(spec)
  mkdirSync(dir, { recursive: true })
  writeFileSync(`${file}.${process.pid}.tmp`, serialize(set))
  renameSync(`${file}.${process.pid}.tmp`, file)
  return set
}

function build(spec: SimLoadedSpec): LoadedSet {
  const rows: Row[] = []
  const read = (text: string, file: string, trial: number): void => {
    const parser = detectParser(text)
    if (!parser) throw new Error(`no parser for simulated ${file}`)
    for (const r of parseText(parser, text, { file }).rows) rows.push({ ...r, trial })
  }
  for (let trial = 1; trial <= spec.trials; trial++) {
    const base = { preset: spec.preset, seed: spec.seed, trial, ...(spec.simScale ? { scale: spec.simScale } : {}) }
    if (spec.p2pGpus) read(simulate({ ...base, format: 'p2p', gpus: spec.p2pGpus }), `p2p-t${trial}.txt`, trial)
    if (spec.p2pGpus && spec.bench) {
      const b = spec.bench
      const text = simulate({
        ...base,
        format: 'p2p-bench',
        gpus: spec.p2pGpus,
        sizes: b.sizes,
        bwSizes: [],
        iters: b.iters,
        copies: ['ce'],
        p2pModes: ['enabled', 'disabled'],
      })
      read(text, `p2p-bench-t${trial}.txt`, trial)
    }
    for (const g of spec.groups ?? [[0, 1, 2, 3, 4, 5, 6, 7]]) {
      const text = simulate({
        ...base,
        format: 'nccl-tests',
        collective: 'all_reduce',
        gpus: g,
        sizes: spec.sizes ?? SIZES,
      })
      // As a sweep labels them: the GPUs of the group, the grouping (tp8, tp4) it belongs to, and
      // the point (one launch of the grouping: its concurrent groups share it).
      const at = rows.length
      read(text, `ar-${g.join('')}-t${trial}.txt`, trial)
      for (let i = at; i < rows.length; i++) {
        const r = rows[i] as Row
        r.group = `${g[0]}-${g[g.length - 1]}`
        r.grouping = `tp${g.length}`
        r.point = `ar-tp${g.length}-t${trial}`
      }
    }
  }
  const slow = spec.slowdown ?? 1
  const shifted = slow === 1 ? rows : rows.map((r) => ({ ...r, value: reprint(r, slow) }))
  return {
    dir: `sim-${spec.preset}-${spec.seed}`,
    manifest: {
      schema: 1,
      id: `sim-${spec.seed}`,
      created: '2026-01-01T00:00:00Z',
      origin: 'import',
      simulated: true,
      command: ['test'],
      gpucommVersion: '0',
    },
    rows: shifted,
    diagnostics: [],
  }
}

/**
 * A value slowed by `f`, printed again as the tool prints it: nccl-tests fits time (µs) in 7
 * characters and bandwidths (GB/s) in 6 with the most decimals that fit (2, 1, 0);
 * p2pBandwidthLatencyTest prints two decimals.
 */
function reprint(r: Row, f: number): number {
  if (r.metric === 'wrong') return r.value
  const scale = r.unit === 's' ? 1e-6 : r.unit === 'B/s' ? 1e9 : 1
  const x = (r.unit === 'B/s' ? r.value / f : r.value * f) / scale
  const width = r.bench.startsWith('nccl.') ? (r.unit === 's' ? 7 : 6) : Infinity
  const d = [2, 1, 0].find((k) => x.toFixed(k).length <= width) ?? 0
  return Number(`${x.toFixed(d)}e${Math.round(Math.log10(scale))}`)
}
