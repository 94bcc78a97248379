/**
 * Command-line details yargs leaves rough, smoothed before and after it parses: a value that
 * starts with a minus (`--sizes -8:1K:x2`), a number flag given words (`--seed abc`), and
 * usage messages on more than one line.
 */

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

const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

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
