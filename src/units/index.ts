/**
 * Units: everything inside gpucomm is in bytes, seconds and bytes/second. These helpers
 * convert at the edges: parsing size strings and formatting values for people.
 * nccl-tests' GB/s is 1e9 B/s; sizes like "128M" are binary (1 MiB = 2^20 B) as in nccl-tests.
 */
import type { Unit } from '../model/index.ts'

const BINARY: Record<string, number> = {
  '': 1,
  B: 1,
  K: 2 ** 10,
  KB: 2 ** 10,
  KIB: 2 ** 10,
  M: 2 ** 20,
  MB: 2 ** 20,
  MIB: 2 ** 20,
  G: 2 ** 30,
  GB: 2 ** 30,
  GIB: 2 ** 30,
  T: 2 ** 40,
}

/** Parses "8", "64K", "128M", "1G", "1MiB" into bytes (binary multiples); undefined if malformed. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text)
  if (!m) return undefined
  const mult = BINARY[(m[2] ?? '').toUpperCase()]
  if (mult === undefined) return undefined
  const v = Number(m[1]) * mult
  return Number.isFinite(v) ? Math.round(v) : undefined
}

/** Formats bytes with binary units: 8 B, 64 KiB, 128 MiB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${trim(v)} ${units[i]}`
}

/** Formats seconds as ns/µs/ms/s with 3–4 significant digits. */
export function formatSeconds(s: number): string {
  const a = Math.abs(s)
  if (a === 0) return '0 s'
  if (a < 1e-6) return `${trim(s * 1e9)} ns`
  if (a < 1e-3) return `${trim(s * 1e6)} µs`
  if (a < 1) return `${trim(s * 1e3)} ms`
  return `${trim(s)} s`
}

/** Formats bytes/second in decimal GB/s (1e9), the unit nccl-tests and NVIDIA tools print. */
export function formatRate(bps: number): string {
  const a = Math.abs(bps)
  if (a >= 1e9) return `${trim(bps / 1e9)} GB/s`
  if (a >= 1e6) return `${trim(bps / 1e6)} MB/s`
  if (a >= 1e3) return `${trim(bps / 1e3)} kB/s`
  return `${trim(bps)} B/s`
}

/** Formats a value in its base unit for people. */
export function formatValue(value: number, unit: Unit): string {
  if (unit === 's') return formatSeconds(value)
  if (unit === 'B/s') return formatRate(value)
  return String(value)
}

/** Rounds to `digits` significant digits (for golden files and display). */
export function roundSig(v: number, digits = 6): number {
  if (v === 0 || !Number.isFinite(v)) return v
  return Number(v.toPrecision(digits))
}

function trim(v: number): string {
  const a = Math.abs(v)
  const s = a >= 100 ? v.toFixed(1) : a >= 10 ? v.toFixed(2) : v.toFixed(3)
  return s.replace(/\.?0+$/, '')
}

/** Conversions from the units upstream tools print to base units. */
export const US = 1e-6
export const GBPS = 1e9
