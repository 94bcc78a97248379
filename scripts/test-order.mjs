// The order and grouping of a run's test files, from the seconds each file took in earlier runs
// (scripts/file-times.mjs), kept in the ignored .cache/ as Jest keeps its own. The longest files
// start first, so the run does not end on one long file with a core idle beside it; the shared
// groups get about equal seconds. A file without a past time (a new file) starts among the first;
// on a fresh clone, with none known, the listed order stays. The order changes how long a run
// takes, never what it runs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

/** The per-file seconds of earlier runs, keyed by the path relative to `root`; {} when none. */
export function readPast(file) {
  try {
    const past = JSON.parse(readFileSync(file, 'utf8'))
    return past && typeof past === 'object' && !Array.isArray(past) ? past : {}
  } catch {
    return {}
  }
}

/** Adds this run's seconds (keyed by absolute path) to the file of earlier ones; others keep theirs. */
export function savePast(file, root, perFile) {
  const past = existsSync(file) ? readPast(file) : {}
  for (const [f, sec] of Object.entries(perFile)) past[relative(root, resolve(f))] = Math.round(sec * 100) / 100
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(past, null, 1)}\n`)
}

/** `files` longest first by `past`; files without a past time first, in their given order. */
export function longestFirst(files, past) {
  const sec = (f) => past[f] ?? Number.POSITIVE_INFINITY
  return files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => sec(b.f) - sec(a.f) || a.i - b.i)
    .map((x) => x.f)
}

/**
 * Splits `files` into `n` groups of about equal past seconds: longest first, each to the group with
 * the fewest seconds so far (ties: the lower group). A file without a past time counts as the
 * median of the known ones (1 s when none is known).
 */
export function balance(files, past, n) {
  const known = files
    .map((f) => past[f])
    .filter((s) => typeof s === 'number')
    .sort((a, b) => a - b)
  const typical = known.length ? known[Math.floor(known.length / 2)] : 1
  const weight = Object.fromEntries(files.map((f) => [f, past[f] ?? typical]))
  const groups = Array.from({ length: n }, () => ({ files: [], sec: 0 }))
  for (const f of longestFirst(files, weight)) {
    const g = groups.reduce((min, x) => (x.sec < min.sec ? x : min))
    g.files.push(f)
    g.sec += weight[f]
  }
  return groups.map((g) => g.files)
}
