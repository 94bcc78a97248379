import { badInput } from '../errors/index.ts'
import type { Point } from '../sweep/index.ts'
import type { LaunchShape } from './_types.ts'

/** The integer factor (≥ 2) of a geometric size list of two or more sizes, or undefined. */
function factorOf(sizes: readonly number[]): number | undefined {
  const f = (sizes[1] as number) / (sizes[0] as number)
  const geometric = Number.isInteger(f) && f > 1 && sizes.every((s, i) => i === 0 || s === (sizes[i - 1] as number) * f)
  return geometric ? f : undefined
}

function ends(sizes: readonly number[]): [number, number] {
  const lo = sizes[0]
  const hi = sizes[sizes.length - 1]
  if (lo === undefined || hi === undefined) throw badInput('--sizes: no sizes given')
  return [lo, hi]
}

/**
 * nccl-tests size flags for a size list: -b MIN -e MAX with -f FACTOR (geometric) or
 * -i STEP (arithmetic). A list that is neither cannot be expressed in one run.
 */
export function ncclSizeFlags(sizes: readonly number[]): string[] {
  const [lo, hi] = ends(sizes)
  if (sizes.length === 1) return ['-b', String(lo), '-e', String(hi)]
  const f = factorOf(sizes)
  if (f !== undefined) return ['-b', String(lo), '-e', String(hi), '-f', String(f)]
  const step = (sizes[1] as number) - lo
  if (step > 0 && sizes.every((s, i) => i === 0 || s - (sizes[i - 1] as number) === step)) {
    return ['-b', String(lo), '-e', String(hi), '-i', String(step)]
  }
  throw badInput(
    '--sizes: nccl-tests takes a geometric (8:128M:x2) or arithmetic (8:1M:+64K) range, not an arbitrary list',
  )
}

/** Size flags of the native benches, which take geometric ranges only: MIN, MAX and FACTOR (-b -e -f by default). */
export function geometricFlags(sizes: readonly number[], [b, e, f] = ['-b', '-e', '-f']): string[] {
  const [lo, hi] = ends(sizes)
  if (sizes.length === 1) return [b, String(lo), e, String(hi)]
  const factor = factorOf(sizes)
  if (factor === undefined) throw badInput('--sizes: the native benches take a geometric range (e.g. 8:128M:x2)')
  return [b, String(lo), e, String(hi), f, String(factor)]
}

/** p2p_bench's latency sizes run up to 1 MiB, its bandwidth sizes from 64 KiB (the ranges of its defaults). */
const LATENCY_MAX = 1 << 20
const BANDWIDTH_MIN = 64 << 10

/** A pairs point's sizes split as p2p_bench runs them: latency up to 1 MiB, bandwidth from 64 KiB. */
export function p2pSizeSplit(sizes: readonly number[]): { latency: number[]; bandwidth: number[] } {
  return { latency: sizes.filter((s) => s <= LATENCY_MAX), bandwidth: sizes.filter((s) => s >= BANDWIDTH_MIN) }
}

/**
 * p2p_bench's --pairs for a pairs point, in device indices of the launch: every ordered pair
 * requested gives `all` (which also measures each GPU to itself: the local and host-staged floors).
 */
export function p2pPairsArg(point: Point, shape: LaunchShape): string {
  const pos = new Map(shape.gpus.map((g, i) => [g, i]))
  const req = point.pairs ?? []
  const self = req.length === shape.gpus.length && req.every(([a, b]) => a === b)
  const every = !self && req.length === shape.gpus.length * (shape.gpus.length - 1)
  return every ? 'all' : self ? 'self' : req.map(([a, b]) => `${pos.get(a)}:${pos.get(b)}`).join(',')
}

/** p2p_bench's tests and size flags for a sweep's sizes: latency over the small ones, bandwidth over the large. */
export function p2pSizeFlags(sizes: readonly number[]): string[] {
  const { latency: lat, bandwidth: bw } = p2pSizeSplit(sizes)
  const tests = [...(lat.length ? ['latency'] : []), ...(bw.length ? ['bw_uni', 'bw_bi'] : [])]
  if (tests.length === 0) throw badInput('--sizes: no sizes given')
  return [
    '--tests',
    tests.join(','),
    ...(lat.length ? geometricFlags(lat) : []),
    ...(bw.length ? geometricFlags(bw, ['-B', '-E', '-F']) : []),
  ]
}
