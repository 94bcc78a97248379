import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { BANDS, FABRICS, networkReferenceRows, referenceTable } from '../../src/analysis/index.ts'
import { ROOT } from '../helpers.ts'

const DOC = join(ROOT, 'docs', 'REFERENCE.md')
const BEGIN = /<!-- bands:begin[^\n]*-->\n/
const END = '<!-- bands:end -->'

test('docs/REFERENCE.md holds every band of bands.ts with its range, conditions and source (UPDATE_GOLDEN=1 rewrites the table)', () => {
  const doc = readFileSync(DOC, 'utf8')
  const begin = BEGIN.exec(doc)
  assert.ok(begin, 'docs/REFERENCE.md has no bands:begin marker')
  const at = begin.index + begin[0].length
  const end = doc.indexOf(END, at)
  assert.ok(end > 0, 'docs/REFERENCE.md has no bands:end marker')
  const want = `${referenceTable()}\n`
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(DOC, doc.slice(0, at) + want + doc.slice(end))
  else assert.equal(doc.slice(at, end), want, 'docs/REFERENCE.md is out of step with src/bands/bands.ts')
  for (const b of BANDS) assert.ok(want.includes(`| \`${b.id}\` |`) && want.includes(b.source), b.id)
})

/** Every file under a directory. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? files(p) : [p]
  })
}

test('nothing in src/ cites a reference file the repository does not ship ("REFERENCE.md §n")', () => {
  const bad = files(join(ROOT, 'src'))
    .filter((p) => /\.ts$/.test(p))
    .flatMap((p) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .map((l, i) => [p, i + 1, l] as const)
        .filter(([, , l]) => /REFERENCE(\.md)? ?§|REFERENCE §|shared notes/.test(l)),
    )
  assert.deepEqual(
    bad.map(([p, n]) => `${p.slice(ROOT.length + 1)}:${n}`),
    [],
  )
})

test('docs/REFERENCE.md holds the network figures of bands-network.ts (UPDATE_GOLDEN=1 rewrites the table)', () => {
  const doc = readFileSync(DOC, 'utf8')
  const begin = /<!-- network:begin[^\n]*-->\n/.exec(doc)
  assert.ok(begin, 'docs/REFERENCE.md has no network:begin marker')
  const at = begin.index + begin[0].length
  const end = doc.indexOf('<!-- network:end -->', at)
  assert.ok(end > 0, 'docs/REFERENCE.md has no network:end marker')
  const want = `${networkReferenceRows().join('\n')}\n`
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(DOC, doc.slice(0, at) + want + doc.slice(end))
  else assert.equal(doc.slice(at, end), want, 'docs/REFERENCE.md is out of step with src/bands/bands-network.ts')
  for (const f of Object.values(FABRICS)) assert.ok(want.includes(f.source), f.id)
  // NCCL's NET step latency as tuning.cc publishes it (Ring LL 2.7 µs, Simple 14.0 µs).
  assert.match(want, /LL 2\.7 µs, Simple 14 µs/)
})
