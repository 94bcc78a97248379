/**
 * Golden files: a value is rounded (numbers to 6 significant digits), serialized as
 * pretty JSON and compared with test/golden/<name>.json. UPDATE_GOLDEN=1 rewrites the file
 * (then read it against the source before committing); nothing else writes a golden. A missing
 * golden fails; on a missing or differing golden <name>.got is written beside it so the output
 * can be read (and diffed).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ROOT } from './helpers.ts'

export const GOLDEN = join(ROOT, 'test', 'golden')

/** Rounds every number in a JSON-like value to `digits` significant digits. */
export function roundDeep(v: unknown, digits = 6): unknown {
  if (typeof v === 'number') return v === 0 || !Number.isFinite(v) ? v : Number(v.toPrecision(digits))
  if (Array.isArray(v)) return v.map((x) => roundDeep(x, digits))
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x, digits)]))
  return v
}

/** Compares `value` with the golden file `name` (a path under test/golden, without .json). */
export function checkGolden(name: string, value: unknown, digits = 6): void {
  const path = join(GOLDEN, `${name}.json`)
  const text = `${JSON.stringify(roundDeep(value, digits), null, 1)}\n`
  mkdirSync(dirname(path), { recursive: true })
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(path, text)
    return
  }
  if (!existsSync(path)) {
    writeFileSync(path.replace(/\.json$/, '.got'), text)
    assert.fail(`${name}: golden file ${path} is missing (UPDATE_GOLDEN=1 writes it; read it before committing)`)
  }
  const want = readFileSync(path, 'utf8')
  if (want !== text) {
    writeFileSync(path.replace(/\.json$/, '.got'), text)
    assert.fail(`${name}: output differs from ${path}; see ${path.replace(/\.json$/, '.got')}`)
  }
}
