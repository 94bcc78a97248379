/**
 * The top-level `gpucomm --help` text without loading yargs (whose import costs more than
 * node's own start-up). It is generated from the same command list (`COMMANDS`) and the
 * same usage/epilogue strings main.ts hands to yargs, and laid out with a port of the
 * subset of cliui/wrap-ansi that yargs uses for this screen. test/cli/help.test.ts checks
 * it equals yargs' own output at several widths. Text it cannot measure exactly (tabs,
 * control, zero-width or wide characters) returns undefined: the caller then asks yargs.
 */

import type { CommandDef } from './_types.ts'
import { COMMANDS } from './commands/index.ts'

/** First lines of `gpucomm --help` (yargs' `.usage`). */
export const USAGE = 'gpucomm <command> [options]\n\nMeasure how GPUs talk to each other, and explain what it finds.'
/** Last line of `gpucomm --help` (yargs' `.epilogue`). */
export const EPILOGUE = 'Exit codes: 0 ok, 1 the work failed, 2 bad input.'
/** yargs' own two options on the top-level screen, with their type hints. */
const BUILTIN_OPTIONS: readonly [string, string, string][] = [
  ['--help', 'Show help', '[boolean]'],
  ['--version', 'Show version number', '[boolean]'],
]

/** Width the help text is wrapped to: the terminal's, at most 110; 100 when not a terminal. */
export function helpWidth(): number {
  return Math.min(110, process.stdout.columns || 100)
}

interface Col {
  text: string
  width?: number
  pad: [number, number]
  right?: boolean
}
interface Line {
  text: string
  span: boolean
  hidden?: boolean
}

/** Characters that are exactly one terminal cell wide for string-width (no ANSI, no tabs). */
const NARROW = /^[\n\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u03ff\u2010-\u2027\u2030-\u205e\u2190-\u22ff]*$/

/** wrap-ansi's hard, trimming wrap of one line of one-cell characters. */
function wrapLine(s: string, cols: number): string {
  if (s.trim() === '') return ''
  const rows = ['']
  const words = s.split(' ')
  words.forEach((word, i) => {
    rows[rows.length - 1] = (rows[rows.length - 1] as string).trimStart()
    let len = (rows[rows.length - 1] as string).length
    if (i !== 0 && len > 0) {
      rows[rows.length - 1] += ' '
      len++
    }
    if (word.length > cols) {
      const breaksHere = 1 + Math.floor((word.length - (cols - len) - 1) / cols)
      if (Math.floor((word.length - 1) / cols) < breaksHere) rows.push('')
      return wrapWord(rows, word, cols)
    }
    if (len + word.length > cols && len > 0 && word.length > 0) rows.push('')
    rows[rows.length - 1] += word
  })
  return rows.map((r) => r.replace(/ +$/, '')).join('\n')
}

function wrapWord(rows: string[], word: string, cols: number): void {
  let visible = (rows[rows.length - 1] as string).length
  const chars = [...word]
  chars.forEach((ch, i) => {
    if (visible + 1 <= cols) rows[rows.length - 1] += ch
    else {
      rows.push(ch)
      visible = 0
    }
    visible++
    if (visible === cols && i < chars.length - 1) {
      rows.push('')
      visible = 0
    }
  })
}

const wrap = (text: string, cols: number): string[] =>
  text
    .normalize()
    .replaceAll('\r\n', '\n')
    .split('\n')
    .map((l) => wrapLine(l, cols))
    .join('\n')
    .split('\n')

/** cliui's layout of one row of columns into `lines` (rasterize, pad, align, inline spans). */
function renderRow(row: Col[], span: boolean, width: number, lines: Line[]): void {
  const fixed = row.reduce((a, c) => a + (c.width ?? 0), 0)
  const unset = row.filter((c) => c.width === undefined).length
  const share = unset ? Math.floor((width - fixed) / unset) : 0
  const inner = row.map((c) => (c.width ?? Math.max(share, 1 + c.pad[0] + c.pad[1])) - c.pad[0] - c.pad[1])
  const cells = row.map((c, i) => wrap(c.text, inner[i] as number))
  const height = Math.max(...cells.map((c) => c.length))
  for (let r = 0; r < height; r++) {
    let str = ''
    row.forEach((c, i) => {
      const cell = cells[i] as string[]
      if (r >= cell.length && i > 0) return // cliui leaves a short last column out
      const w = inner[i] as number
      let ts = cell[r] ?? ''
      if (w > ts.length) ts += ' '.repeat(w - ts.length)
      if (c.right) {
        const t = ts.trim()
        ts = t.length < w ? ' '.repeat(w - t.length) + t : t
      }
      str += ' '.repeat(c.pad[0]) + ts + ' '.repeat(c.pad[1])
      if (r === 0 && lines.length > 0) str = inline(str, lines[lines.length - 1] as Line)
    })
    lines.push({ text: str.replace(/ +$/, ''), span })
  }
}

/** cliui's renderInline: a row after a span joins the span's last line when it fits. */
function inline(source: string, prev: Line): string {
  const lead = (/^ */.exec(source) as RegExpExecArray)[0].length
  const target = prev.text.trimEnd().length
  if (!prev.span || lead < target) return source
  prev.hidden = true
  return prev.text.trimEnd() + ' '.repeat(lead - target) + source.trimStart()
}

/**
 * The text yargs prints for `gpucomm --help` at `width` columns (without the final
 * newline), or undefined when some text holds characters this layout cannot measure.
 */
export function topLevelHelp(
  width: number = helpWidth(),
  commands: readonly Pick<CommandDef, 'command' | 'describe'>[] = COMMANDS,
): string | undefined {
  const texts = [USAGE, EPILOGUE, ...commands.flatMap((c) => [c.command, c.describe])]
  if (!texts.every((t) => NARROW.test(t))) return undefined
  const lines: Line[] = []
  const div = (...cols: Col[]): void => renderRow(cols, false, width, lines)
  const blank: Col = { text: '', pad: [0, 0] }
  div({ text: USAGE, pad: [0, 0] })
  div(blank)
  div({ text: 'Commands:', pad: [0, 0] })
  const names = commands.map((c) => `gpucomm ${c.command}`)
  const cmdWidth = Math.min(Math.max(...names.map((n) => n.length)), Math.floor(width * 0.5)) + 4
  commands.forEach((c, i) => {
    renderRow(
      [
        { text: names[i] as string, pad: [2, 2], width: cmdWidth },
        { text: c.describe, pad: [0, 0] },
      ],
      true,
      width,
      lines,
    )
    div(blank)
  })
  div(blank)
  div({ text: 'Options:', pad: [0, 0] })
  const optWidth = Math.min(Math.max(...BUILTIN_OPTIONS.map((o) => o[0].length)), Math.floor(width * 0.5)) + 4
  for (const [flag, describe, hint] of BUILTIN_OPTIONS) {
    renderRow(
      [
        { text: flag, pad: [2, 2], width: optWidth },
        { text: describe, pad: [0, 0] },
      ],
      true,
      width,
      lines,
    )
    div({ text: hint, pad: [2, 0], right: true })
  }
  div(blank)
  div({ text: EPILOGUE, pad: [0, 0] })
  div(blank)
  return lines
    .filter((l) => !l.hidden)
    .map((l) => l.text)
    .join('\n')
    .replace(/\s*$/, '')
}
