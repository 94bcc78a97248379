/**
 * Report escaping by construction: every string a result set carries (row fields, manifest
 * fields, source paths, diagnostics) gets a payload, in the set and in the baseline; the page
 * must contain it only escaped, outside the script bundles.
 */
import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { Appender, loadSet, readManifest, writeManifest } from '../../src/resultset/index.ts'
import { cli, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

const PAYLOAD = '"><img src=x onerror=alert(1)>'
/** Fields whose values the row schema restricts (an enum or a number). */
const CLOSED = new Set(['metric', 'unit', 'timer', 'p2p', 'copy', 'direction', 'placement'])

/** Every string in `v` with the payload appended (keys in CLOSED left alone). */
function poison(v: unknown, key = ''): unknown {
  if (typeof v === 'string') return CLOSED.has(key) ? v : `${v}${PAYLOAD}`
  if (Array.isArray(v)) return v.map((x) => poison(x, key))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, poison(x, k)]))
  return v
}

async function poisonedSet(seed: number): Promise<string> {
  const set = await simSet({ preset: 'seed-vm', seed, trials: 2 })
  const m = readManifest(set)
  writeManifest(set, poison({ ...m, host: { hostname: 'h', env: { NCCL_DEBUG: 'INFO' } } }) as typeof m)
  // Poisoned rows go back as a part; the torn line needs the schema-1 samples.jsonl beside it.
  const { rows } = await loadSet(set)
  rmSync(join(set, 'samples'), { recursive: true })
  const app = await Appender.open(set)
  await app.append(rows.map((r) => poison(r) as Row))
  app.close()
  writeFileSync(join(set, 'samples.jsonl'), `{"torn${PAYLOAD}\n`)
  return set
}

test('a payload in every string of a set and its baseline appears only escaped in the report', async () => {
  const set = await poisonedSet(51)
  const base = await poisonedSet(52)
  const out = join(tmp(), 'r.html')
  const r = await cli(['report', set, '--baseline', base, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const page = readFileSync(out, 'utf8').replace(/<script[^>]*>[\s\S]*?<\/script>/g, '')
  assert.ok(
    !page.includes('<img'),
    `unescaped payload near: ${page.slice(page.indexOf('<img') - 200, page.indexOf('<img') + 50)}`,
  )
  assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the escaped payload is shown')
  assert.match(page, /<h3>[^<]*&lt;img/, 'a heading built from a bench name carries it escaped')
})
