/**
 * Every chart kind, drawn from the seed-VM and bare-metal simulator sets through the render
 * path (scene graph and PNG): no two text labels overprint, and every band the legend names is
 * drawn inside the plot where it can be seen (issue 32: "NOSYS floor α", pale bands).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TopLevelSpec } from 'vega-lite'
import type { NamedChart, SceneItem } from '../../../src/output/index.ts'
import {
  chartsOf,
  diffChart,
  findFontFiles,
  latencyChart,
  nodeHeatmapChart,
  overlappingTexts,
  PLOT_KINDS,
  renderChart,
  sceneOf,
} from '../../../src/output/index.ts'
import { pngInfo } from '../../png.ts'
import { simSet } from '../../simset.ts'
import { systemSkip } from '../../system.ts'

const skip = systemSkip(findFontFiles().length === 0 && 'no system fonts (Debian: fonts-dejavu-core)')

const BENCH = { sizes: [8, 512, 32768, 2097152], iters: 3 }

/** The band names a spec's layers draw (the `band` field of their data). */
function bandsOf(spec: TopLevelSpec): string[] {
  const layers = (spec as { layer?: { data?: { values?: { band?: string }[] } }[] }).layer ?? []
  return [...new Set(layers.flatMap((l) => (l.data?.values ?? []).map((v) => v.band).filter((b) => b !== undefined)))]
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim()

/** A band is seen: a rect or rule of it inside the plot area, ≥ 1.5 px of it there, not faint. */
function seen(items: readonly SceneItem[], band: string): boolean {
  return items.some((i) => {
    if (!(i.marktype === 'rect' || i.marktype === 'rule') || i.datum?.band !== band) return false
    const top = Math.max(i.box.y1, i.frame.y1)
    const bottom = Math.min(i.box.y2, i.frame.y2)
    return bottom - top >= 1.5 && i.opacity >= 0.5
  })
}

async function check(c: NamedChart, where: string): Promise<void> {
  const items = await sceneOf(c.spec)
  const clash = overlappingTexts(items).map(([a, b]) => `"${a.text}" × "${b.text}"`)
  assert.deepEqual(clash, [], `${where} ${c.name}: labels overprint`)
  const legend = items.filter((i) => i.role === 'legend-label').map((i) => oneLine(i.text ?? ''))
  for (const band of bandsOf(c.spec)) {
    assert.ok(legend.includes(oneLine(band)), `${where} ${c.name}: band "${oneLine(band)}" not in the legend`)
    assert.ok(seen(items, band), `${where} ${c.name}: band "${oneLine(band)}" named but not visibly drawn`)
  }
  const png = pngInfo((await renderChart(c.spec, { scale: 1 })).png)
  assert.ok(png.inkFraction > 0.02, `${where} ${c.name}: blank PNG`)
}

test('every chart kind from both presets: no overlapping labels, every named band visible', { skip }, async () => {
  const sets = {
    'seed-vm': await simSet({ preset: 'seed-vm', seed: 7, bench: BENCH }),
    'baremetal-turin': await simSet({ preset: 'baremetal-turin', seed: 7, bench: BENCH }),
  }
  const drawn = new Set<string>()
  let bands = 0
  for (const [preset, dir] of Object.entries(sets)) {
    const other = preset === 'seed-vm' ? sets['baremetal-turin'] : sets['seed-vm']
    for (const kind of PLOT_KINDS.filter((k) => k !== 'node-heatmap')) {
      for (const c of await chartsOf(dir, kind, other, true)) {
        await check(c, preset)
        drawn.add(kind)
        bands += bandsOf(c.spec).length
      }
    }
  }
  // The node heatmap needs a cluster sweep: eight nodes, one slow (a pale cross).
  const hosts = Array.from({ length: 8 }, (_, i) => `node${i}`)
  const cells = hosts.flatMap((a, i) =>
    hosts.slice(i + 1).map((b) => ({ hosts: [a, b] as const, busbwBps: a === 'node3' ? 9e9 : 23e9 + i * 1e8 })),
  )
  const ctx = { simulated: true, subject: 'result set sim-cluster' }
  await check(
    { name: 'node-heatmap', kind: 'node-heatmap', title: '', caption: '', spec: nodeHeatmapChart(cells, 'x', ctx) },
    'cluster',
  )
  drawn.add('node-heatmap')
  assert.deepEqual([...drawn].sort(), [...PLOT_KINDS].sort())
  assert.ok(bands >= 4, `${bands} bands drawn: the latency charts should show the published bands`)
})

test('two floors 20 % apart (bare metal NODE 0.40 µs, SYS 0.48 µs) do not overprint each other', { skip }, async () => {
  const sizes = [8, 512, 32768, 2097152, 134217728]
  const curve = (series: string, alpha: number) => sizes.map((z) => ({ series, sizeBytes: z, value: alpha + z / 50e9 }))
  const points = [...curve('NODE (24 pairs)', 0.4007e-6), ...curve('SYS (32 pairs)', 0.4808e-6)]
  const floors = [
    { series: 'NODE (24 pairs)', alpha: 0.4007e-6 },
    { series: 'SYS (32 pairs)', alpha: 0.4808e-6 },
  ]
  const band = { label: 'P2P on, PCIe Gen5', low: 0.36e-6, high: 0.6e-6, source: 'github.com/voipmonitor/rtx6kpro' }
  const spec = latencyChart(points, floors, [band], { simulated: true }, 'p2p.latency')
  await check({ name: 'floors', kind: 'latency', title: '', caption: '', spec }, 'bare metal')
  // Both floors are still told, with their values.
  const legend = (await sceneOf(spec)).filter((i) => i.role === 'legend-label').map((i) => i.text ?? '')
  for (const v of ['0.4007', '0.4808'])
    assert.ok(
      legend.some((l) => l.includes(`floor α ${v} µs`)),
      legend.join(' | '),
    )
})

test('the diff chart over a wide range (−97 % to +1,400 %): x tick labels apart, every row label whole', {
  skip,
}, async () => {
  const deltas = [14, 12.5, 9, 4.2, 1.1, 0.03, -0.2, -0.6, -0.97]
  const bars = deltas.map((delta, i) => ({
    label: `latency · ${24 + i} cross-GPU pairs (PHB → NODE) · p2p=enabled copy=ce · 8 B · peer access: no → yes`,
    delta,
    lo: delta - 0.05,
    hi: delta + 0.05,
    verdict: i === 5 ? ('same' as const) : delta < 0 ? ('faster' as const) : ('slower' as const),
    significant: i === 5 ? 0 : 1,
    cells: 1,
  }))
  const spec = diffChart(bars, { simulated: true }, { a: 'vm', b: 'bm', total: 9, counts: 'Of 9 tested cells 8 …' })
  await check({ name: 'diff-wide', kind: 'diff', title: '', caption: '', spec }, 'wide')
  const items = await sceneOf(spec)
  const ticks = items.filter((i) => i.role === 'axis-label' && i.opacity > 0 && /^[−-]?[\d,]+$/.test(i.text ?? ''))
  assert.ok(ticks.length >= 3, `x ticks: ${ticks.map((t) => t.text).join(' ')}`)
  const rows = items.filter((i) => i.role === 'axis-label' && (i.text ?? '').startsWith('latency'))
  assert.deepEqual(
    rows.map((r) => r.text),
    bars.map((b) => b.label),
  )
  // Every bar's change is printed beside it: at this scale a −20 % bar is a hairline.
  const values = items.filter((i) => i.marktype === 'text' && i.role === 'mark').map((i) => i.text)
  for (const v of ['+1,400 %', '−20.0 %', '−97.0 %', '~ +3.00 %'])
    assert.ok(values.includes(v), `${v}: ${values.join(' | ')}`)
})

test('a log time axis over 0.4–1,500 µs labels the P2P floors and the top: ticks ≤ 0.5 µs and ≥ 1,000 µs, none overlapping', {
  skip,
}, async () => {
  const sizes = [8, 512, 32768, 2097152, 67108864]
  const points = sizes.map((z, i) => ({
    series: 'NODE (24 pairs)',
    sizeBytes: z,
    value: ([0.4, 0.45, 2, 60, 1500][i] as number) * 1e-6,
  }))
  const spec = latencyChart(
    points,
    [{ series: 'NODE (24 pairs)', alpha: 0.4e-6 }],
    [],
    { simulated: true },
    'p2p.latency',
  )
  const items = await sceneOf(spec)
  assert.deepEqual(
    overlappingTexts(items).map(([a, b]) => `"${a.text}" × "${b.text}"`),
    [],
  )
  const ticks = items
    .filter((i) => i.role === 'axis-label' && i.opacity > 0 && /^[\d.,]+$/.test(i.text ?? ''))
    .map((i) => Number((i.text ?? '').replace(/,/g, '')))
  assert.ok(
    ticks.some((v) => v <= 0.5),
    `y ticks: ${ticks.join(' ')}`,
  )
  assert.ok(
    ticks.some((v) => v >= 1000),
    `y ticks: ${ticks.join(' ')}`,
  )
  for (const decade of [1, 10, 100]) assert.ok(ticks.includes(decade), `no ${decade} µs tick: ${ticks.join(' ')}`)
})

test('two series with the same times (host-staged NODE and SYS) keep apart by marker shape, one legend for both', {
  skip,
}, async () => {
  const sizes = [8, 512, 32768, 2097152]
  const curve = (series: string) => sizes.map((z) => ({ series, sizeBytes: z, value: 14e-6 + z / 5e9 }))
  const spec = latencyChart([...curve('NODE (24 pairs)'), ...curve('SYS (32 pairs)')], [], [], { simulated: true })
  const items = await sceneOf(spec)
  const symbols = items.filter((i) => i.marktype === 'symbol' && i.role !== 'legend-symbol' && i.datum?.series)
  assert.equal(symbols.length, 8, 'a marker per point of each series')
  const layers = (spec as { layer: { encoding?: { shape?: { scale: { domain: string[]; range: string[] } } } }[] })
    .layer
  const shape = layers.map((l) => l.encoding?.shape).find((s) => s !== undefined)
  assert.ok(shape, 'no shape encoding')
  assert.equal(new Set(shape.scale.range.slice(0, 2)).size, 2, `shapes ${shape.scale.range.join(' ')}`)
  const legends = items.filter((i) => i.role === 'legend-label').map((i) => i.text)
  assert.deepEqual(legends, ['NODE (24 pairs)', 'SYS (32 pairs)'], 'one legend entry per series')
})
