/**
 * The collective of an nccl-tests text when the text itself does not name it (no banner, no
 * command line: a peer harness saves `nccl_alltoall.log`): the one the user named
 * (`import --collective NAME`), else one the file name names, each recorded as where the name
 * came from. The text's own words, when they come, win.
 */
import { COLLECTIVES } from './_nccl-collective.ts'

/** Where a collective given before the text was read came from. */
export type NamedFrom = 'option' | 'file-name'

/** A collective known before the first line, and where from. */
export interface PresetCollective {
  name: string
  from: NamedFrom
}

const squash = (s: string): string => s.replace(/_/g, '')

/** Each collective as a pattern on a lower-case file name: its letters, underscores optional, not inside a word. */
const PATTERNS = [...COLLECTIVES].map((name) => ({
  name,
  re: new RegExp(`(?:^|[^a-z])${name.replace(/_/g, '_?')}(?![a-z])`),
}))

/**
 * The one collective a file name names (`nccl_allgather.log`, `all_reduce_perf-8gpu.txt`), or
 * undefined when it names none or two. A name inside a longer one found too (reduce in
 * all_reduce, gather in all_gather) does not count.
 */
export function collectiveInFileName(path: string): string | undefined {
  const base = (path.split(/[\\/]/).pop() ?? '').toLowerCase()
  const found = PATTERNS.filter((p) => p.re.test(base)).map((p) => p.name)
  const outer = found.filter((n) => !found.some((m) => m !== n && squash(m).includes(squash(n))))
  return outer.length === 1 ? outer[0] : undefined
}

/** The collective to assume for a text: the option's, else the file name's. */
export function presetCollective(file: string, option: string | undefined): PresetCollective | undefined {
  if (option !== undefined) return { name: option, from: 'option' }
  const named = collectiveInFileName(file)
  return named === undefined ? undefined : { name: named, from: 'file-name' }
}
