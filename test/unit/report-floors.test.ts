/**
 * The report's floors section is grouped as the text outputs are (#32 item 2): open, one row
 * per class of fits (link class and mechanism; the groups of a grouping) with its floor against
 * its published band, and the latency charts; collapsed (<details>), the verdicts, every fit
 * and the per-pair heatmaps. Nothing is lost: every fit and every verdict is still in the page.
 * SIMULATED bare metal, p2p_bench on GPUs 0-3 (P2P on and off) and all_reduce on 8 and 4 GPUs.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyze } from '../../src/analysis/index.ts'
import { buildReport, renderHtml } from '../../src/output/index.ts'
import { escapeHtml } from '../../src/output/report/_html.ts'
import { simSet } from '../simset.ts'

/** Text outside every <details> element. */
const open = (h: string): string => h.replace(/<details>[\s\S]*?<\/details>/g, '')
const rowsOf = (h: string): number => (h.match(/<tr><td>/g) ?? []).length

test('floors: one open row per class, the verdicts, every fit and the heatmaps collapsed, none lost', async () => {
  const set = await simSet({
    preset: 'baremetal-turin',
    seed: 5,
    trials: 2,
    bench: { sizes: [8, 512, 32768], iters: 5 },
  })
  const a = await analyze(set)
  const page = renderHtml(await buildReport(set))
  const floors = /<section id="floors">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? ''
  const shown = open(floors)
  // The classes of this set (no topology captured: no link class): all_reduce on 8 and 4 GPUs; same GPU; the pairs, P2P on and off.
  const classes = [...shown.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => `${m[1]} | ${m[2]}`)
  assert.deepEqual(classes.sort(), [
    'nccl.all_reduce | 1 group of 4 ranks',
    'nccl.all_reduce | 1 group of 8 ranks',
    'p2p.latency p2p=disabled (no peer access) ce | 12 pairs',
    'p2p.latency p2p=enabled ce | 12 pairs',
    'p2p.latency p2p=enabled ce | 4 GPUs to itself',
  ])
  assert.equal(rowsOf(shown), classes.length, 'one open table: a row per class')
  // Each class's floor against its band, in the summary's words (the P2P-on pairs).
  assert.match(shown, /<td>p2p\.latency p2p=enabled ce<\/td><td>12 pairs<\/td>.*<td>within the published band P2P on, /)
  // The latency charts stay open; the per-pair heatmaps are folded under one summary line.
  assert.match(shown, /id="fig-latency-p2p-latency-p2p-disabled-ce"/)
  assert.doesNotMatch(shown, /id="fig-heatmap-/)
  assert.match(
    floors,
    /<details><summary>Per-pair floors as heatmaps \(2 charts\)<\/summary><figure class="chart" id="fig-heatmap-/,
  )
  // Nothing lost: every fit a row of the collapsed table, every verdict's words in the section.
  const fits = /<summary>All (\d+) fits[^<]*<\/summary>([\s\S]*?)<\/details>/.exec(floors)
  assert.equal(Number(fits?.[1]), a.fits.length)
  assert.equal(rowsOf(fits?.[2] ?? ''), a.fits.length)
  assert.ok(a.fits.length > 4 * classes.length, String(a.fits.length))
  for (const v of a.verdicts.filter((x) => x.kind !== 'floor')) assert.ok(floors.includes(escapeHtml(v.text)), v.text)
  for (const f of a.fits.filter((x) => x.src === undefined))
    assert.ok(floors.includes(escapeHtml(f.verdict)), f.verdict)
  // A folded chart is still drawn when opened: its spec is in the page.
  assert.match(page, /"heatmap-p2p-latency-p2p-enabled-ce":\{/)
})
