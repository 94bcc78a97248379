// The child of `npm run mutate:inproc`: node --import tsx scripts/_inproc-child.mjs BOX OUT IDS TEST...
// Imports the test files once (node:test replaced by a collector), runs them without a mutant
// (they must pass), then with each mutant of IDS active in turn (Stryker's mutant switching),
// appending one JSON line per mutant to OUT. With STATIC=<id> in the environment it imports
// with that mutant active from the start and runs the tests once (a mutant of module-level code).
import { appendFileSync, readFileSync } from 'node:fs'
import { register } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const SHIM = `globalThis.__inprocTests ??= [];
export function test(name, a, b) {
  const fn = typeof a === 'function' ? a : b;
  if (!(typeof a === 'object' && a?.skip)) globalThis.__inprocTests.push({ name, fn });
}
/** A suite's body runs at once: its tests join the list (a skipped suite adds none). */
export function suite(name, a, b) {
  const fn = typeof a === 'function' ? a : b;
  if (!(typeof a === 'object' && a?.skip)) fn();
}
export default test;`
const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === 'node:test') return { url: ${JSON.stringify(`data:text/javascript,${encodeURIComponent(SHIM)}`)}, shortCircuit: true };
  return next(specifier, context);
}`
register(`data:text/javascript,${encodeURIComponent(HOOK)}`)

/** Calls of a mutant past this count end its run as a timeout (an endless loop). */
const HIT_LIMIT = 2e6
const [box, out, idsFile, ...tests] = process.argv.slice(2)
const ns = (globalThis.__stryker__ ??= {})
const only = process.env.STATIC
if (only) ns.activeMutant = only
globalThis.__inprocTests = []
for (const f of tests) await import(pathToFileURL(join(box, f)).href)
const all = globalThis.__inprocTests

/** Runs every test; the mutant's fate. */
async function fate(id) {
  ns.activeMutant = id
  ns.hitCount = 0
  ns.hitLimit = HIT_LIMIT
  try {
    for (const t of all) await t.fn({})
    return { id, status: 'Survived' }
  } catch (e) {
    const why = String(e?.message ?? e).split('\n')[0]
    return { id, status: why.includes('Hit count limit') ? 'Timeout' : 'Killed', why: why.slice(0, 120) }
  } finally {
    ns.activeMutant = undefined
    ns.hitCount = undefined
  }
}

if (only) {
  appendFileSync(out, `${JSON.stringify({ ...(await fate(only)), static: true })}\n`)
} else {
  const statics = Object.keys(ns.mutantCoverage?.static ?? {})
  appendFileSync(`${out}.static`, `${JSON.stringify(statics)}\n`)
  const base = await fate(undefined)
  if (base.status !== 'Survived') throw new Error(`the tests fail without any mutant: ${base.why}`)
  const ids = JSON.parse(readFileSync(idsFile, 'utf8')).filter((id) => !statics.includes(id))
  for (const id of ids) appendFileSync(out, `${JSON.stringify(await fate(id))}\n`)
}
