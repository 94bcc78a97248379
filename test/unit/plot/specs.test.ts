import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { planCluster, runCluster } from '../../../src/cluster/index.ts'
import { chartsOf, PLOT_KINDS, renderChart } from '../../../src/output/index.ts'
import { loadSet } from '../../../src/resultset/index.ts'
import { resolveSpec } from '../../../src/sweep/index.ts'
import { checkGolden } from '../../golden.ts'
import { tmp } from '../../helpers.ts'
import { pngInfo } from '../../png.ts'
import { simSet } from '../../simset.ts'

const titles = (spec: unknown): string[] => {
  const t = (spec as { title?: string | { text: string } }).title
  return t === undefined ? [] : [typeof t === 'string' ? t : t.text]
}

/** Pairs through the simulated p2p_bench (every size and iteration), so p2p latency-vs-size charts exist. */
const BENCH = { sizes: [8, 64, 512, 4096, 32768, 262144], iters: 4 }

/** A SIMULATED 6-node node-pairs sweep with a slow NIC on node04, written to a temp dir. */
async function clusterSet(): Promise<string> {
  const spec = resolveSpec(
    {
      instrument: 'sim',
      preset: 'seed-vm',
      gpus: '0-7',
      sizes: '8,32M,128M',
      trials: 1,
      nodes: 6,
      pattern: 'node-pairs',
      inject: 'slow-nic@node04',
    },
    5,
  )
  const out = join(tmp(), 'cluster')
  await runCluster({ spec, plan: planCluster(spec, {}), out, command: ['test'] })
  return out
}

/** The set ids and the diff's A/B names change with every run: golden specs hold placeholders. */
const stable = (spec: unknown, ids: readonly string[]): unknown =>
  JSON.parse(ids.reduce((t, id) => t.split(id).join('<set>'), JSON.stringify(spec)))

test('every chart kind has a golden spec, renders to a PNG with ink, and every title of a simulated set says SIMULATED', async () => {
  const b = await simSet({ preset: 'seed-vm', seed: 12, trials: 2, bench: BENCH })
  // The diff: seed VM (A) against bare metal (B), 4 launches a side (the fewest for which p ≤ 0.05
  // can be reached), so the golden pins every verdict: p2p and 4-rank all_reduce faster, 8-rank
  // all_reduce slower, same-GPU copies unchanged, host-staged p2p mixed (1 of 12 pairs significant).
  // (Seed 11 for A drew one slow in-place 8-rank launch: p = 0.34 there, so that bar is mixed, not red.)
  const a = await simSet({ preset: 'seed-vm', seed: 5, trials: 4, bench: BENCH })
  const bm = await simSet({ preset: 'baremetal-turin', seed: 12, trials: 4, bench: BENCH })
  const c6 = await clusterSet()
  const ids = await Promise.all([a, b, bm, c6].map(async (d) => (await loadSet(d)).manifest.id))
  const seen = new Set<string>()
  for (const kind of PLOT_KINDS) {
    // The node heatmap needs a cluster sweep: a SIMULATED 6-node one with a slow NIC.
    const set = kind === 'node-heatmap' ? c6 : kind === 'diff' ? bm : b
    const charts = await chartsOf(set, kind, kind === 'diff' ? a : undefined)
    assert.ok(charts.length > 0, `${kind}: no chart`)
    for (const c of charts) {
      seen.add(c.name)
      const t = titles(c.spec)
      assert.ok(t.length > 0 && t.every((x) => x.includes('SIMULATED')), `${c.name}: ${t.join(' ')}`)
      checkGolden(`plot/${c.name}`, stable(c.spec, ids), 4)
      if (c.name === 'diff') {
        const dirs = (c.spec as { data: { values: { dir: string }[] } }).data.values.map((v) => v.dir.split(' (')[0])
        assert.deepEqual(
          [...new Set(dirs)].sort(),
          ['faster', 'mixed', 'no significant change', 'slower'],
          'diff colours',
        )
      }
      const r = await renderChart(c.spec)
      const png = pngInfo(r.png)
      assert.ok(png.width >= 600 && png.height >= 400, `${c.name}: ${png.width}×${png.height}`)
      assert.ok(png.inkFraction > 0.03 && png.colours > 8, `${c.name}: ink ${png.inkFraction}, ${png.colours} colours`)
      // Every layer drew something: no empty mark group in the SVG.
      const marks = [...r.svg.matchAll(/<g class="mark-(\w+) role-mark[^"]*"[^>]*>(<\/g>)?/g)]
      const empty = marks.filter((m) => m[2] !== undefined).map((m) => m[1])
      assert.deepEqual(empty, [], `${c.name}: empty marks`)
    }
  }
  // The kinds a performance engineer reads first: p2p latency vs size, busbw vs size, the pair heatmaps, the diff.
  for (const name of [
    'latency-p2p-latency-p2p-enabled-ce',
    'latency-nccl-all_reduce',
    'busbw-nccl-all_reduce',
    'heatmap-p2p-latency-p2p-enabled-ce',
    'groups-nccl-all_reduce',
    'diff',
    'node-heatmap',
  ])
    assert.ok(seen.has(name), `${name} missing (${[...seen].join(', ')})`)
})

test('the heatmap shows the seed VM host-staged floor on every off-diagonal pair', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 3, groups: [] })
  const [h] = (await chartsOf(set, 'heatmap')).filter((c) => c.name.includes('disabled'))
  assert.ok(h)
  const values = (h.spec as { data: { values: { src: string; dst: string; v: number }[] } }).data.values
  assert.equal(values.length, 16)
  for (const v of values) {
    if (v.src === v.dst) assert.ok(v.v > 1 && v.v < 3.5, `diagonal ${v.v}`)
    else assert.ok(v.v > 11 && v.v < 17, `${v.src}→${v.dst} ${v.v} µs`)
  }
})

test('the grouping chart carries one median per grouping and size, with its CI around it', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 5, trials: 6, p2p: false })
  const [g] = await chartsOf(set, 'groups')
  assert.ok(g)
  const values = (
    g.spec as { data: { values: { grouping: string; size: number; us: number; lo: number; hi: number }[] } }
  ).data.values
  assert.deepEqual([...new Set(values.map((v) => v.grouping))].sort(), ['ranks=4', 'ranks=8'])
  for (const v of values) assert.ok(v.lo <= v.us && v.us <= v.hi, JSON.stringify(v))
  const at8 = (gr: string) => values.find((v) => v.grouping === gr && v.size === 8)?.us ?? NaN
  assert.ok(at8('ranks=8') > at8('ranks=4'), 'an 8-rank ring has more hops than a 4-rank one')
})
