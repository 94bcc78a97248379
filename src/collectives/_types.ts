/** busbw / algbw as nccl-tests' doc/PERFORMANCE.md writes it (n = ranks). */
export type BusFactor = '2(n-1)/n' | '(n-1)/n' | '1'

/**
 * One NCCL collective as gpucomm knows it: its nccl-tests shape (read by the parsers and
 * printed by the simulator), its bus factor, the steps of NCCL's ring model (present when
 * the simulator models it) and whether coll_bench runs it.
 */
export interface CollectiveDef {
  /** nccl-tests' name (its binary is `<name>_perf`). */
  name: string
  /** Reduces: the redop column shows an operator, not `none`. */
  reduction: boolean
  /** Has a root: the root column shows a rank, not -1. */
  rooted: boolean
  /** The size column is the total over ranks: size = count × type size × n. */
  sizeIsTotal: boolean
  bus: BusFactor
  /** nccl-tests prints N/A for the in-place #wrong (no in-place check). */
  inPlaceUnchecked?: boolean
  /** Only the text names it (the rows cannot tell it from the others). */
  textOnly?: boolean
  /** Sequential steps of one call in NCCL's ring model on n ranks; set when the simulator models it. */
  ringSteps?: (n: number) => number
  /** gpucomm's coll_bench runs it (native/README.md). */
  native?: boolean
}

/** busbw / algbw of a factor on n ranks. */
export function busFactor(f: BusFactor, n: number): number {
  return f === '2(n-1)/n' ? (2 * (n - 1)) / n : f === '(n-1)/n' ? (n - 1) / n : 1
}
