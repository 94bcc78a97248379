/**
 * Command-line details yargs leaves rough, smoothed before and after it parses: a value that
 * starts with a minus (`--sizes -8:1K:x2`), a number flag given words (`--seed abc`), an
 * `--out` where nothing can be created, usage messages on more than one line, and names from
 * files that would print as more than one line.
 */
import { existsSync, mkdtempSync, rmdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** A negative number yargs already reads as a value (`--seed -1`). */
const PLAIN_NEGATIVE = /^-\d+(?:\.\d*)?(?:e[-+]?\d+)?$/i

/**
 * `--flag -8:1K:x2` → `--flag=-8:1K:x2`: yargs reads a value starting with "-" and a digit as
 * short flags ("Unknown argument: 8"), so the flag's own check never sees it.
 */
export function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    const next = argv[i + 1]
    if (/^--[^=]+$/.test(a) && next !== undefined && /^-\d/.test(next) && !PLAIN_NEGATIVE.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

/** The text the user gave for `--name` (the last one), for a message. */
function given(argv: readonly string[], name: string): string | undefined {
  let v: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === `--${name}`) v = argv[i + 1]
    else if (a.startsWith(`--${name}=`)) v = a.slice(name.length + 3)
  }
  return v
}

export const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/**
 * The first number flag whose value is not a number (yargs turns `--seed abc` into NaN and
 * carries on), as a one-line message; undefined when all are numbers.
 */
export function badNumber(
  parsed: Record<string, unknown>,
  numberKeys: readonly string[],
  argv: readonly string[],
): string | undefined {
  for (const k of numberKeys) {
    const v = parsed[k]
    const vs = Array.isArray(v) ? v : [v]
    if (vs.some((x) => typeof x === 'number' && Number.isNaN(x))) {
      const name = kebab(k)
      return `--${name}: "${given(argv, name) ?? given(argv, k) ?? ''}" is not a number`
    }
  }
  return undefined
}

/** A yargs usage message on one line; an invalid choice as `--kind: "nope" is not one of a, b`. */
export function oneLineUsage(msg: string): string {
  const choice = /^Invalid values:\s*Argument: ([^,]+), Given: (".*?"), Choices: (.*)$/s.exec(msg.trim())
  if (choice && !choice[3]?.includes('Argument:'))
    return `--${choice[1]}: ${choice[2]} is not one of ${(choice[3] as string).replace(/"/g, '').trim()}`
  return msg.trim().replace(/\s*\n\s*/g, '; ')
}

/**
 * Why nothing can be written at `--out`, or undefined. A path that exists is left to its
 * command (append, resume, "already exists"). Otherwise its nearest existing folder must be a
 * folder where a folder can be made, which a probe made and removed at once shows: in /proc,
 * Node's recursive mkdir retries ENOENT forever, so `--out /proc/x` hung instead of failing.
 */
export function badOut(out: string): string | undefined {
  const full = resolve(out)
  let at = full
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at)
  if (at === full && existsSync(at)) return undefined
  if (!statSync(at).isDirectory()) return `--out ${printable(out)}: ${printable(at)} is not a directory`
  try {
    rmdirSync(mkdtempSync(join(at, '.gpucomm-probe-')))
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).message
    return `--out ${printable(out)}: nothing can be created in ${printable(at)} (${code})`
  }
  return undefined
}

/**
 * `s` with its line breaks and other control characters written as escapes (`\n`, `\x1b`), so
 * a file name or a value read from a file prints as one line and cannot forge another line
 * of gpucomm's or move the terminal's cursor.
 */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c.charCodeAt(0) < 0x100
          ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
          : `\\u${c.charCodeAt(0).toString(16)}`,
  )
}
