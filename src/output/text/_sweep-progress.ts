import type { ProgressEvent } from '../../sweep/index.ts'

/** Formats seconds as m:ss (or h:mm:ss). */
export function clock(s: number): string {
  const t = Math.max(0, Math.round(s))
  const h = Math.floor(t / 3600)
  const m = Math.floor((t % 3600) / 60)
  const ss = String(t % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * One progress line for an event, or undefined when the event shows nothing. On a TTY the
 * line starts with a carriage return and clears the rest (it is redrawn in place); otherwise
 * plain lines end in a newline.
 */
export function progressLine(e: ProgressEvent, tty: boolean): string | undefined {
  const end = tty ? '\x1b[K' : '\n'
  const start = tty ? '\r' : ''
  switch (e.type) {
    case 'plan':
      return (
        `sweep: ${e.todo} points to run${e.done ? `, ${e.done} already done` : ''}` +
        `${e.skipped ? `, ${e.skipped} skipped` : ''} → ${e.out}\n`
      )
    case 'point-start':
      return tty ? `${start}[${e.index + 1}/${e.todo}] ${e.id} …${end}` : undefined
    case 'retry':
      return (
        `${start}retry ${e.id} (attempt ${e.attempt}) after ${e.status}: ${e.reason}; waiting ` +
        `${e.delayS} s${tty ? '\x1b[K\n' : '\n'}`
      )
    case 'point': {
      const o = e.outcome
      const what =
        o.status === 'ok'
          ? `ok ${o.wallS.toFixed(2)} s, ${o.rows} rows`
          : `${o.status}: ${'reason' in o ? o.reason : ''}`
      const kept = e.partial
        ? ` (its ${e.partial.rows} rows are not in the set: gpucomm import ` +
          `${e.partial.files.join(' ')} --out DIR recovers them)`
        : ''
      const line =
        `[${e.index + 1}/${e.todo}] ${e.id} ${what}${kept}  elapsed ${clock(e.elapsedS)} ETA ` + `${clock(e.etaS)}`
      // A failure stays on screen; an ok point is overwritten by the next one.
      if (tty) return o.status === 'ok' && e.index + 1 < e.todo ? `${start}${line}${end}` : `${start}${line}\x1b[K\n`
      return `${line}\n`
    }
  }
}
