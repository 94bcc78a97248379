import { badInput } from '../errors/index.ts'

/**
 * nccl-tests size flags for a size list: -b MIN -e MAX with -f FACTOR (geometric) or
 * -i STEP (arithmetic). A list that is neither cannot be expressed in one run.
 */
export function ncclSizeFlags(sizes: readonly number[]): string[] {
  const lo = sizes[0]
  const hi = sizes[sizes.length - 1]
  if (lo === undefined || hi === undefined) throw badInput('--sizes: no sizes given')
  if (sizes.length === 1) return ['-b', String(lo), '-e', String(hi)]
  const f = (sizes[1] as number) / lo
  if (Number.isInteger(f) && f > 1 && sizes.every((s, i) => i === 0 || s === (sizes[i - 1] as number) * f)) {
    return ['-b', String(lo), '-e', String(hi), '-f', String(f)]
  }
  const step = (sizes[1] as number) - lo
  if (step > 0 && sizes.every((s, i) => i === 0 || s - (sizes[i - 1] as number) === step)) {
    return ['-b', String(lo), '-e', String(hi), '-i', String(step)]
  }
  throw badInput('--sizes: nccl-tests takes a geometric (8:128M:x2) or arithmetic (8:1M:+64K) range, not an arbitrary list')
}
