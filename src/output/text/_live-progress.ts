/**
 * Sweep progress on a terminal: a live bar (cli-progress) with the points done, the elapsed
 * time, the ETA and the point now running with how long it has run, redrawn while the point
 * runs (a real p2p_bench point runs for minutes). Lines that must stay (retries, failures) are
 * logged above the bar. Anywhere else (not a TTY, or CI set) the plain lines of `progressLine`.
 */
import cliProgress from 'cli-progress'
import type { ProgressEvent } from '../../sweep/index.ts'
import { clock, progressLine } from './_sweep-progress.ts'

/** Receives the sweep's progress events; `stop` ends the bar (idempotent). */
export interface ProgressSink {
  onProgress(e: ProgressEvent): void
  stop(): void
}

/** Where the bar goes: a terminal stream, its width, and the clock (injectable for tests). */
export interface LiveOptions {
  stream: NodeJS.WritableStream
  now?: () => number
  /** Redraws per second (default 2: elapsed and ETA tick while a point runs). */
  fps?: number
}

/** State the bar's line is drawn from. */
interface LiveState {
  started: number
  pointStarted: number
  point: string
  /** The driver's ETA at the last finished point, and when it was given. */
  eta?: { s: number; at: number }
}

/** The bar's line: "[████░░░░] 3/9 elapsed 1:02 ETA 2:10 | p2p~0-7~t1 running 0:41". */
export function liveLine(
  s: LiveState,
  done: number,
  total: number,
  now: number,
  bar: (fraction: number) => string,
): string {
  const elapsed = (now - s.started) / 1000
  const eta = s.eta ? clock(Math.max(0, s.eta.s - (now - s.eta.at) / 1000)) : '–'
  const running = s.point ? ` | ${s.point} running ${clock((now - s.pointStarted) / 1000)}` : ''
  return `[${bar(total ? done / total : 0)}] ${done}/${total} elapsed ${clock(elapsed)} ETA ${eta}${running}`
}

/** The live bar on a terminal. */
export function liveProgress(opts: LiveOptions): ProgressSink {
  const now = opts.now ?? Date.now
  const state: LiveState = { started: now(), pointStarted: now(), point: '' }
  const multi = new cliProgress.MultiBar({
    stream: opts.stream,
    fps: opts.fps ?? 2,
    gracefulExit: false,
    hideCursor: false,
    linewrap: false,
    clearOnComplete: false,
    barsize: 24,
    format: (o, p) => {
      const size = o.barsize ?? 24
      const full = Math.round(p.progress * size)
      const bar = (o.barCompleteString ?? '').slice(0, full) + (o.barIncompleteString ?? '').slice(0, size - full)
      return liveLine(state, p.value, p.total, now(), () => bar)
    },
    barCompleteChar: '█',
    barIncompleteChar: '░',
  })
  let bar: cliProgress.SingleBar | undefined
  let stopped = false
  return {
    onProgress(e) {
      if (stopped) return
      if (e.type === 'plan') {
        multi.log(progressLine(e, false) ?? '')
        bar = multi.create(e.todo, 0)
      } else if (e.type === 'point-start') {
        state.point = e.id
        state.pointStarted = now()
        bar?.update(e.index)
      } else if (e.type === 'retry') multi.log(progressLine(e, false) ?? '')
      else if (e.type === 'point') {
        state.eta = { s: e.etaS, at: now() }
        state.point = ''
        if (e.outcome.status !== 'ok') multi.log(progressLine(e, false) ?? '')
        bar?.update(e.index + 1)
      }
    },
    stop() {
      if (stopped) return
      stopped = true
      // cli-progress writes logged lines at its next redraw, and stop() does not redraw: a
      // failure logged in the last half second (the last point's) would never show.
      multi.update()
      multi.stop()
    },
  }
}

/** Plain lines, one per event that shows something (not a TTY, or CI). */
export function plainProgress(write: (s: string) => void): ProgressSink {
  return {
    onProgress(e) {
      const line = progressLine(e, false)
      if (line) write(line)
    },
    stop() {},
  }
}
