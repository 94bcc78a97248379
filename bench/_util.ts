/** Shared pieces of the bench suite: metrics, medians, timed child processes, machine facts. */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'

export const ROOT = resolve(import.meta.dirname, '..')

/** One line of the bench table; `holds` is set when the metric has a budget. */
export interface Metric {
  metric: string
  value: number
  unit: string
  budget?: string
  holds?: boolean
  note?: string
}

/** The median of `v` (NaN for none). */
export function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** The run with the median wall time (of an odd number of runs). */
export const middle = <T extends { wallS: number }>(runs: readonly T[]): T =>
  [...runs].sort((a, b) => a.wallS - b.wallS)[runs.length >> 1] as T

/** A timed run of a child process: wall seconds, and peak RSS/CPU for Node children. */
export interface Timed {
  wallS: number
  cpuS?: number
  maxRssBytes?: number
  stdout: string
}

/**
 * Runs `node SCRIPT ARGS` as a child through bench/_peak.mjs, which reports the child's
 * peak RSS and CPU time (process.resourceUsage) when it exits; `nodeArgs` go before it
 * (`--import tsx` for a TypeScript script). Throws when it fails.
 */
export async function timedNode(
  script: string,
  args: readonly string[],
  opts: { stdout?: 'pipe' | 'ignore'; cwd?: string; nodeArgs?: readonly string[] } = {},
): Promise<Timed> {
  const dir = mkdtempSync(join(tmpdir(), 'gpucomm-peak-'))
  const out = join(dir, 'peak.json')
  try {
    const t0 = performance.now()
    const r = await execa(
      process.execPath,
      [...(opts.nodeArgs ?? []), join(ROOT, 'bench', '_peak.mjs'), script, ...args],
      {
        cwd: opts.cwd ?? ROOT,
        env: { GPUCOMM_PEAK_OUT: out },
        stdout: opts.stdout ?? 'pipe',
        stderr: 'pipe',
        maxBuffer: 1e9,
      },
    )
    const wallS = (performance.now() - t0) / 1000
    const p = JSON.parse(readFileSync(out, 'utf8')) as { maxRssBytes: number; cpuS: number }
    return { wallS, cpuS: p.cpuS, maxRssBytes: p.maxRssBytes, stdout: typeof r.stdout === 'string' ? r.stdout : '' }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Wall seconds of any command (no shell). */
export async function timedCommand(cmd: string, args: readonly string[]): Promise<number> {
  const t0 = performance.now()
  await execa(cmd, args, { stdout: 'ignore', stderr: 'inherit' })
  return (performance.now() - t0) / 1000
}

/** What the numbers were measured on. */
export function machineFacts(): Record<string, unknown> {
  const c = cpus()
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: c.length,
    cpuModel: c[0]?.model ?? 'unknown',
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    loadAverage1mAtStart: Number((loadavg()[0] ?? 0).toFixed(2)),
  }
}

export const mib = (bytes: number): number => Number((bytes / 2 ** 20).toFixed(1))
export const round = (v: number, digits = 3): number => Number(v.toPrecision(digits))

/** Bytes of the samples of result set `dir` on disk: its Parquet parts, and a schema-1 samples.jsonl if any. */
export function samplesBytes(dir: string): number {
  const parts = join(dir, 'samples')
  const p = existsSync(parts) ? readdirSync(parts).reduce((s, f) => s + statSync(join(parts, f)).size, 0) : 0
  const legacy = join(dir, 'samples.jsonl')
  return p + (existsSync(legacy) ? statSync(legacy).size : 0)
}
