/**
 * Progress of a job made of named steps (the analysis and report after a sweep, a cluster
 * sweep's steps, `plot` rendering its charts): on a terminal one line redrawn in place with the
 * step, its number and the time elapsed; anywhere else one plain line per step. Either way it
 * is written where it is told (stderr), never into stdout, and `done` ends it with the time taken.
 */
import { clock } from './_sweep-progress.ts'

/** Receives the steps of a job; `done` (it finished) or `stop` (it failed) ends the line, once. */
export interface StageSink {
  /** Step `index` (0-based) of `total` starts; `total` 0 when the count is not known. */
  stage(name: string, index: number, total: number): void
  done(): void
  stop(): void
}

/** Where the progress goes. */
export interface StageOptions {
  /** What the job is ("report", "analysis"), the start of every line. */
  label: string
  write: (text: string) => void
  /** A terminal: redraw one line (and tick the elapsed time every second while a step runs). */
  tty: boolean
  now?: () => number
  /** Redraws per second on a terminal (0: only when a step starts). */
  fps?: number
}

/** A sink that shows nothing (a small job off a terminal). */
export const noStages: StageSink = { stage() {}, done() {}, stop() {} }

/** The line of a running step: "report [3/6] drawing the charts … 0:12". */
export function stageLine(label: string, name: string, index: number, total: number, elapsedS: number): string {
  const n = total > 0 ? ` [${index + 1}/${total}]` : ''
  return `${label}${n} ${name} … ${clock(elapsedS)}`
}

/** Step progress on a terminal (one redrawn line) or as plain lines. */
export function stageProgress(o: StageOptions): StageSink {
  const now = o.now ?? Date.now
  const started = now()
  let current: { name: string; index: number; total: number } | undefined
  let ended = false
  const draw = (): void => {
    if (current)
      o.write(`\r${stageLine(o.label, current.name, current.index, current.total, (now() - started) / 1000)}\x1b[K`)
  }
  const fps = o.fps ?? 1
  const timer = o.tty && fps > 0 ? setInterval(draw, 1000 / fps) : undefined
  timer?.unref()
  const end = (line: string | undefined): void => {
    if (ended) return
    ended = true
    if (timer) clearInterval(timer)
    if (line !== undefined) o.write(o.tty ? `\r${line}\x1b[K\n` : `${line}\n`)
    else if (o.tty && current) o.write('\n')
  }
  return {
    stage(name, index, total) {
      if (ended) return
      current = { name, index, total }
      if (o.tty) draw()
      else o.write(`${stageLine(o.label, name, index, total, (now() - started) / 1000)}\n`)
    },
    done: () => end(`${o.label}: done in ${clock((now() - started) / 1000)}`),
    // A failed job: the line ends where it stood (the error follows on its own line).
    stop: () => end(undefined),
  }
}
