/**
 * Which collective a nccl-tests table measured, and on how many ranks, when the text does
 * not say (log tails, logs without the command line). Every printed row is evidence:
 * the redop and root cells, size / (count × type size) and busbw / algbw (nccl-tests doc/PERFORMANCE.md:
 * busbw = algbw × 2(n-1)/n for all_reduce, (n-1)/n for the gather/scatter family, 1 for
 * broadcast/reduce/sendrecv). Candidates are intersected until one is left.
 */
import type { BusFactor, CollectiveDef } from '../../collectives/index.ts'
import { busFactor, COLLECTIVE_DEFS, collectiveDef } from '../../collectives/index.ts'
import { halfUlp } from './_nccl-tokens.ts'

/** Collectives nccl-tests ships (program `<name>_perf`). */
export const COLLECTIVES: ReadonlySet<string> = new Set(COLLECTIVE_DEFS.map((c) => c.name))

/** Bytes per element of every dtype nccl-tests prints. */
export const TYPE_SIZE: Readonly<Record<string, number>> = {
  int8: 1,
  uint8: 1,
  char: 1,
  f8e4m3: 1,
  f8e5m2: 1,
  half: 2,
  bfloat16: 2,
  int32: 4,
  uint32: 4,
  int: 4,
  float: 4,
  int64: 8,
  uint64: 8,
  double: 8,
}

/** Reduction operators nccl-tests prints in the redop column. */
export const REDOPS: ReadonlySet<string> = new Set(['sum', 'prod', 'max', 'min', 'avg', 'mulsum', 'premulsum', 'none'])

const AR_F: BusFactor = '2(n-1)/n'
const NM1: BusFactor = '(n-1)/n'
const ONE: BusFactor = '1'

/** The collectives inference can tell apart (those only the text names are left out). */
const SHAPES: readonly CollectiveDef[] = COLLECTIVE_DEFS.filter((c) => !c.textOnly)
const ALL = (1 << SHAPES.length) - 1
const mask = (pred: (s: CollectiveDef) => boolean): number =>
  SHAPES.reduce((m, s, i) => (pred(s) ? m | (1 << i) : m), 0)
const bit = (name: string): number => mask((s) => s.name === name)
const AR = bit('all_reduce')
const AG_RS = bit('all_gather') | bit('reduce_scatter')

/** Busbw factor of a collective name (1 when unknown). */
export function factorOf(name: string): BusFactor {
  return collectiveDef(name)?.bus ?? ONE
}

/** What one printed row says (cells as printed, so the rounding of each is known). */
export interface RowEvidence {
  size: number
  count: number
  type: string
  redop?: string
  root?: number
  /** Whether the table has a redop / root column at all. */
  hasRedop: boolean
  hasRoot: boolean
  algbw?: string
  busbw?: string
  /** The out-of-place and in-place wrong cells as printed (`0`, `N/A`), when printed. */
  wrongOut?: string
  wrongIn?: string
}

/** n (≥ 2) such that `bus ≈ alg × factor(n)` within print rounding and no neighbour fits; else undefined. */
export function ranksFromFactor(f: BusFactor, alg: string, bus: string): number | undefined {
  const a = Number(alg)
  const b = Number(bus)
  if (!(a >= 1) || !(b > 0) || f === ONE) return undefined
  const F = b / a
  const est = f === AR_F ? 2 / (2 - F) : 1 / (1 - F)
  if (!Number.isFinite(est) || est < 1.5 || est > 1e6) return undefined
  const ua = halfUlp(alg)
  const ub = halfUlp(bus)
  const fits = (n: number): boolean => n >= 2 && Math.abs(b - a * busFactor(f, n)) <= ub + busFactor(f, n) * ua + 1e-9
  const n = Math.round(est)
  return fits(n) && !fits(n - 1) && !fits(n + 1) ? n : undefined
}

/**
 * The rank counts n (≥ 2) whose busbw factor fits `bus ≈ alg × factor(n)` within print rounding,
 * as [lowest, highest] (highest Infinity when the factor cannot bound it); undefined when the
 * cells cannot say (factor 1, zero or unreadable cells).
 */
export function factorRange(f: BusFactor, alg: string, bus: string): [number, number] | undefined {
  const a = Number(alg)
  const b = Number(bus)
  const ua = halfUlp(alg)
  const ub = halfUlp(bus)
  if (!(a - ua > 0) || !(b > 0) || f === ONE) return undefined
  const top = f === AR_F ? 2 : 1
  const nOf = (F: number): number => (F >= top ? Infinity : top / (top - F))
  const lo = Math.max(2, Math.ceil(nOf((b - ub) / (a + ua)) - 1e-9))
  const hi = Math.floor(nOf((b + ub) / (a - ua)) + 1e-9)
  return hi >= lo ? [lo, hi] : undefined
}

/** Accumulates row evidence for one table; see the file comment. */
export class CollectiveEvidence {
  private cand = ALL
  /** Ranks inferred from the rows, when some row decided it. */
  nInferred: number | undefined
  /** Number of evidence items that contradicted the rest (ignored). */
  conflicts = 0
  /** `oldEra`: the table has the pre-2.13 `error` column (pre-2.9 all_gather/reduce_scatter had factor 1). */
  constructor(private readonly oldEra: boolean) {}

  /** The collective when the rows leave exactly one, else undefined. */
  get resolved(): string | undefined {
    return (this.cand & (this.cand - 1)) === 0 ? SHAPES[31 - Math.clz32(this.cand)]?.name : undefined
  }

  /** Names still possible. */
  get candidates(): string[] {
    return SHAPES.filter((_, i) => this.cand & (1 << i)).map((s) => s.name)
  }

  private allow(m: number): void {
    const next = this.cand & m
    if (next) this.cand = next
    else this.conflicts++
  }

  /** Adds one row; `n` is the rank count when known from the text. */
  add(e: RowEvidence, n: number | undefined): void {
    const red = e.hasRedop && e.redop !== undefined && e.redop !== 'none'
    this.allow(mask((s) => s.reduction === red))
    const rooted = e.hasRoot && e.root !== undefined && e.root >= 0
    this.allow(mask((s) => s.rooted === rooted))
    this.addSize(e, n)
    if (e.algbw !== undefined && e.busbw !== undefined) this.addFactor(e.algbw, e.busbw, n ?? this.nInferred)
    if (!this.oldEra && e.wrongOut !== undefined && e.wrongOut !== 'N/A' && e.wrongIn !== undefined) {
      const unchecked = mask((s) => s.inPlaceUnchecked === true)
      this.allow(e.wrongIn === 'N/A' ? unchecked : ALL & ~unchecked)
    }
  }

  private addSize(e: RowEvidence, n: number | undefined): void {
    const ts = TYPE_SIZE[e.type]
    if (!ts || !(e.count > 0) || n === 1) return
    const k = e.size / (e.count * ts)
    if (k === 1) this.allow(mask((s) => !s.sizeIsTotal))
    else if (Number.isInteger(k) && k >= 2) {
      this.allow(mask((s) => s.sizeIsTotal))
      if (n === undefined) this.nInferred ??= k
    }
  }

  private addFactor(alg: string, bus: string, n: number | undefined): void {
    const a = Number(alg)
    const b = Number(bus)
    if (!(a >= 1) || !(b > 0)) return
    const fitsWith = (f: BusFactor, k: number): boolean =>
      Math.abs(b - a * busFactor(f, k)) <= halfUlp(bus) + busFactor(f, k) * halfUlp(alg) + 1e-9
    if (n !== undefined) {
      let m = mask((s) => fitsWith(s.bus, n))
      if (this.oldEra && fitsWith(ONE, n)) m |= AG_RS
      this.allow(m)
      return
    }
    if (fitsWith(ONE, 2)) {
      this.allow(mask((s) => s.bus === ONE) | AR | (this.oldEra ? AG_RS : 0))
      return
    }
    const f: BusFactor = b > a ? AR_F : NM1
    const k = ranksFromFactor(f, alg, bus)
    this.allow(mask((s) => s.bus === f))
    if (k !== undefined && this.resolvedFactor() === f) this.nInferred ??= k
  }

  private resolvedFactor(): BusFactor | undefined {
    const fs = new Set(SHAPES.filter((_, i) => this.cand & (1 << i)).map((s) => s.bus))
    return fs.size === 1 ? [...fs][0] : undefined
  }

  /** Ranks from busbw/algbw once the collective is known (text or rows). */
  inferRanks(collective: string, alg: string | undefined, bus: string | undefined): void {
    if (this.nInferred !== undefined || alg === undefined || bus === undefined) return
    const k = ranksFromFactor(factorOf(collective), alg, bus)
    if (k !== undefined && !(this.oldEra && (collective === 'all_gather' || collective === 'reduce_scatter')))
      this.nInferred = k
  }
}
