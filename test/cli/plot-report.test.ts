import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { findFontFiles } from '../../src/output/index.ts'
import { readManifest, writeManifest } from '../../src/resultset/index.ts'
import { cli, tmp } from '../helpers.ts'
import { pngInfo } from '../png.ts'
import { simSet } from '../simset.ts'
import { packageSkip } from '../system.ts'

const skip = packageSkip(findFontFiles().length === 0 && 'no system fonts (Debian: fonts-dejavu-core)')
if (skip) console.log(`# skipping PNG checks: ${skip}`)

test('gpucomm plot writes .vl.json, .svg and a real .png for each kind', { skip }, async () => {
  const a = await simSet({ preset: 'seed-vm', seed: 21 })
  const b = await simSet({ preset: 'seed-vm', seed: 22 })
  for (const kind of ['latency', 'heatmap', 'groups', 'diff']) {
    const out = tmp()
    const r = await cli(['plot', b, '--kind', kind, '--out', out, ...(kind === 'diff' ? ['--baseline', a] : [])])
    assert.equal(r.code, 0, r.stderr)
    const names = readdirSync(out)
    const pngs = names.filter((n) => n.endsWith('.png'))
    assert.ok(pngs.length > 0, `${kind}: ${names.join(' ')}`)
    for (const p of pngs) {
      const stem = p.slice(0, -4)
      assert.ok(names.includes(`${stem}.vl.json`) && names.includes(`${stem}.svg`))
      const svg = readFileSync(join(out, `${stem}.svg`), 'utf8')
      assert.match(svg, /<text[^>]*>[^<]*SIMULATED/, `${p}: title text in the SVG`)
      const info = pngInfo(readFileSync(join(out, p)))
      assert.ok(info.width >= 400 && info.height >= 200, `${p}: ${info.width}x${info.height}`)
      assert.ok(info.inkFraction > 0.01, `${p}: blank (${info.inkFraction})`)
      assert.ok(info.colours > 8, `${p}: ${info.colours} colours`)
    }
  }
})

test('plot --kind diff without --baseline, and a missing set, are bad input', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 1, groups: [] })
  assert.equal((await cli(['plot', set, '--kind', 'diff', '--out', tmp()])).code, 2)
  assert.equal((await cli(['plot', '/nonexistent/set', '--kind', 'latency', '--out', tmp()])).code, 2)
})

test('the report is one self-contained file with every section and no network references', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 31, trials: 2 })
  const base = await simSet({ preset: 'seed-vm', seed: 32, trials: 2 })
  const out = join(tmp(), 'r.html')
  const r = await cli(['report', set, '--baseline', base, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const html = readFileSync(out, 'utf8')
  for (const id of ['floors', 'groupings', 'diff', 'provenance']) assert.match(html, new RegExp(`<section id="${id}">`))
  assert.match(html, /SIMULATED DATA/)
  assert.match(html, /Decode model: GLM-5/)
  assert.doesNotMatch(html, /<script[^>]+src=/)
  assert.doesNotMatch(html, /<link[^>]+href=["']?https?:/)
  assert.ok(html.includes('vegaEmbed') && html.length > 500_000, 'vega bundles inlined')
  // The summary names each floor's mechanism with its evidence and band, from the analysis.
  const summary = /<ol class="summary">([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? ''
  assert.match(
    summary,
    /host-staged copy through pinned host memory \(no peer access\) \(evidence: [^)]*CANNOT Access Peer/,
  )
  assert.match(summary, /within the published band /)
  // The diff's tables: one per bench and metric, values in human units (no 1.000e+7, 0.00001047, Infinity%, raw bytes).
  const diff = /<section id="diff">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? ''
  assert.match(diff, /<h3>p2p\.latency latency \(/)
  assert.match(diff, /<h3>nccl\.all_reduce time \(/)
  const tables = [...diff.matchAll(/<table[^>]*>[\s\S]*?<\/table>/g)].map((m) => m[0]).join('\n')
  assert.match(tables, /<td>\d+(\.\d+)? (ns|µs) ±/)
  assert.match(tables, /<td>(8 B|1 KiB)<\/td>/)
  assert.doesNotMatch(tables, /\d[eE][+-]?\d|\d\.\d{5,}|Infinity|NaN|<td>\d{3,}<\/td>/)
})

test('strings from a result set appear only escaped in the report', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 41, groups: [] })
  const evil = '<script>alert(1)</script>'
  const m = readManifest(set)
  writeManifest(set, { ...m, host: { hostname: evil, env: { NCCL_DEBUG: evil } }, command: ['gpucomm', evil] })
  const out = join(tmp(), 'r.html')
  assert.equal((await cli(['report', set, '--out', out])).code, 0)
  const html = readFileSync(out, 'utf8')
  assert.ok(!html.includes(evil), 'raw script tag from the set must not appear')
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'escaped form appears')
  assert.ok(existsSync(out))
})
