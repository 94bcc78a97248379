/**
 * What the charts say, read from their specs: the seed VM's floor as a labelled rule on a
 * per-link-class latency curve, a heatmap scaled on the pairs that says "no peer access", a
 * diff chart naming A and B and how many cells it shows, subtitles naming the result set.
 */
import assert from 'node:assert/strict'
import { hostname } from 'node:os'
import { test } from 'node:test'
import { chartsOf } from '../../../src/output/index.ts'
import { loadSet } from '../../../src/resultset/index.ts'
import { simSet } from '../../simset.ts'

type Layer = {
  data?: { values: Record<string, unknown>[] }
  mark: { type: string } | string
  encoding?: Record<string, unknown>
}
type Spec = {
  title: { text: string; subtitle?: string | string[] }
  layer: Layer[]
  data?: { values: Record<string, unknown>[] }
}
const markOf = (l: Layer): string => (typeof l.mark === 'string' ? l.mark : l.mark.type)

const BENCH = { sizes: [8, 64, 512, 4096, 32768, 262144], iters: 4 }

test('seed VM: p2p latency vs size per link class, the ~13.7 µs floor a rule named in the legend, every x tick labelled', async () => {
  const dir = await simSet({ preset: 'seed-vm', seed: 4, groups: [], bench: BENCH })
  const [c] = (await chartsOf(dir, 'latency')).filter((x) => x.name === 'latency-p2p-latency-p2p-enabled-ce')
  assert.ok(c)
  const spec = c.spec as unknown as Spec
  const line = spec.layer.find((l) => markOf(l) === 'line')
  const series = [...new Set(line?.data?.values.map((v) => String(v.series)))]
  // Each floor is told in its series' legend entry (labels beside the rules overprinted).
  assert.deepEqual(
    series.map((v) => v.replace(/; floor α [\d.]+ µs\)$/, ')')).sort(),
    ['GPU pairs (12 pairs)', 'same GPU (4 GPUs)'].sort(),
  )
  const floor = series.find((l) => l.startsWith('GPU pairs (12 pairs; floor α'))
  assert.ok(floor, series.join(' | '))
  assert.ok(spec.layer.some((l) => markOf(l) === 'rule' && l.data?.values.some((v) => v.series === floor)))
  const us = Number(/α ([\d.]+) µs/.exec(floor)?.[1])
  assert.ok(us > 13 && us < 14.5, floor)
  const x = line?.encoding?.x as { axis: { values: number[]; labelOverlap: boolean } }
  assert.equal(x.axis.labelOverlap, false)
  assert.ok(x.axis.values.length <= 8 && x.axis.values.length >= 4, `${x.axis.values.length} ticks`)
  const subtitle = [spec.title.subtitle ?? []].flat().join(' ')
  assert.match(subtitle, new RegExp(`result set ${(await loadSet(dir)).manifest.id}`))
  assert.ok(!subtitle.includes(hostname()), subtitle)
})

test('heatmap: colours scaled on the pairs (not the 1.4 µs diagonal), "no peer access" in the VM title', async () => {
  const dir = await simSet({ preset: 'seed-vm', seed: 4, groups: [], bench: BENCH })
  const [h] = (await chartsOf(dir, 'heatmap')).filter((x) => x.name.includes('enabled'))
  assert.ok(h)
  const spec = h.spec as unknown as Spec
  assert.match(spec.title.text, /no peer access/)
  const colour = spec.layer[0]?.encoding?.color as { scale: { domain: [number, number] } }
  const [lo, hi] = colour.scale.domain
  assert.ok(lo > 12 && hi < 16, `domain ${lo}–${hi}`)
  // The pairs differ by noise alone: their numbers all print in one colour, not white and black at random.
  type Cond = { test: string; value: string }
  const text = spec.layer.find((l) => markOf(l) === 'text')?.encoding?.color as { condition: Cond | Cond[] }
  const white = [text.condition].flat().find((c) => c.value === 'white')
  const dark = Number(/datum\.v > ([\d.]+)/.exec(white?.test ?? '')?.[1])
  const pairs = (spec.data?.values ?? []).filter((v) => v.self === false).map((v) => Number(v.v))
  assert.ok(pairs.length > 0 && pairs.every((v) => v <= dark), `white text above ${dark}: ${pairs.join(' ')}`)
  const bare = await simSet({ preset: 'baremetal-turin', seed: 4, groups: [], bench: BENCH })
  const [b] = (await chartsOf(bare, 'heatmap')).filter((x) => x.name.includes('enabled'))
  assert.doesNotMatch((b?.spec as unknown as Spec).title.text, /no peer access/)
})

test('diff chart: equal cells grouped into one bar each, largest |delta| first, "N of M shown", A and B named', async () => {
  const spec = { seed: 6, groups: [], bench: BENCH }
  const a = await simSet({ preset: 'baremetal-turin', ...spec })
  const b = await simSet({ preset: 'seed-vm', ...spec })
  const [d] = await chartsOf(b, 'diff', a)
  const s = d?.spec as unknown as Spec
  const sub = [s.title.subtitle ?? []].flat().join('\n')
  assert.match(sub, new RegExp(`A = ${(await loadSet(a)).manifest.id} \\(SIMULATED\\)`))
  const m = /(\d+) of (\d+) groups of equal cells shown/.exec(sub)
  assert.ok(m && Number(m[1]) <= 30 && Number(m[2]) >= Number(m[1]), sub)
  const bars = s.data?.values ?? []
  const pct = bars.map((v) => Math.abs(Number(v.pct)))
  assert.deepEqual(
    pct,
    [...pct].sort((x, y) => y - x),
    'largest |delta| first',
  )
  assert.ok(bars.every((v) => Number(v.lo) <= Number(v.pct) && Number(v.pct) <= Number(v.hi)))
  assert.ok(bars.some((v) => String(v.cell).includes('peer access: yes → no')))
  // The cross-GPU pairs of one kind are one bar ("12 cross-GPU pairs"), not a bar per pair.
  assert.ok(
    bars.some((v) => /· \d+ cross-GPU pairs/.test(String(v.cell))),
    bars.map((v) => v.cell).join('\n'),
  )
  assert.ok(
    bars.every((v) => !/\d→\d/.test(String(v.cell))),
    'no bar of a single pair',
  )
  const labels = bars.map((v) => String(v.cell))
  assert.equal(new Set(labels).size, labels.length, 'each group once')
})

/** A heatmap's cells (rows with src, dst and self), wherever the spec keeps its data. */
const cellsOf = (spec: Spec) =>
  [...(spec.data?.values ?? []), ...spec.layer.flatMap((l) => l.data?.values ?? [])].filter((v) => 'self' in v)

test('p2p_bench bounce rows (P2P off, staged by the bench) get their own heatmap: one cell per pair in each; P2P off labels its diagonal "not run"', async () => {
  const bench = { sizes: [8, 64], iters: 3, p2pModes: ['enabled', 'disabled', 'bounce'] as const }
  const dir = await simSet({ preset: 'seed-vm', seed: 5, groups: [], bench })
  const maps = (await chartsOf(dir, 'heatmap')).filter((c) => c.name.startsWith('heatmap-p2p-latency'))
  assert.deepEqual(maps.map((c) => c.name).sort(), [
    'heatmap-p2p-latency-p2p-bounce-ce',
    'heatmap-p2p-latency-p2p-disabled-ce',
    'heatmap-p2p-latency-p2p-enabled-ce',
  ])
  for (const c of maps) {
    const cells = cellsOf(c.spec as unknown as Spec)
    const keys = cells.map((v) => `${v.src}>${v.dst}`)
    assert.equal(new Set(keys).size, keys.length, `${c.name}: a pair drawn twice`)
  }
  // P2P off inside one GPU is not measured (the bench skips it): its diagonal says so, grey, never
  // blank, and the caption tells why; the bounce map has the diagonal measured.
  const diagonal = (name: string) =>
    cellsOf(maps.find((c) => c.name === name)?.spec as unknown as Spec).filter((v) => v.self === true)
  const off = diagonal('heatmap-p2p-latency-p2p-disabled-ce')
  assert.deepEqual(
    off.map((v) => `${v.src}>${v.dst} ${v.v} ${v.text}`),
    [0, 1, 2, 3].map((g) => `GPU${g}>GPU${g} null same GPU\nnot run`),
  )
  const caption = maps.find((c) => c.name === 'heatmap-p2p-latency-p2p-disabled-ce')?.caption ?? ''
  assert.match(caption, /never leaves the GPU.*skips it with P2P off.*"not run"/)
  const bounce = diagonal('heatmap-p2p-latency-p2p-bounce-ce')
  assert.ok(bounce.length === 4 && bounce.every((v) => typeof v.v === 'number' && v.v > 0))
  assert.doesNotMatch(maps.find((c) => c.name.endsWith('bounce-ce'))?.caption ?? '', /not run/)
})
