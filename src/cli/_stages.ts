import type { StageSink } from '../output/index.ts'
import { noStages, stageProgress } from '../output/index.ts'
import { partBytes } from '../resultset/index.ts'
import type { Io } from './_types.ts'

/** Sets from this many bytes of samples up (about 120,000 rows) are large: their steps show progress off a terminal too. */
const LARGE_SET_BYTES = 1 << 20

/**
 * Progress of a command's steps on stderr, never stdout: a redrawn line on a terminal (not in
 * CI); plain lines elsewhere when the set in `dir` is large (or always, without a `dir`).
 */
export function stagesFor(label: string, io: Pick<Io, 'stderr' | 'isTTY'>, dir?: string): StageSink {
  const tty = io.isTTY && !process.env.CI
  if (!tty && dir !== undefined && partBytes(dir) < LARGE_SET_BYTES) return noStages
  return stageProgress({ label, write: io.stderr, tty })
}
