import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis, Comparison } from '../../src/analysis/index.ts'
import { analyze, compare, resolveModel } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { captureTopology } from '../../src/topology/index.ts'
import { cli, FIXTURES, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'
import { normal, seriesRows, writeSet } from './generated.ts'

const US = 1e-6
const rel = (got: number, want: number): number => Math.abs(got / want - 1)

/** generated: 4 GPUs, all ordered pairs host-staged at 13.7 µs and 25 GB/s, GPU3's pairs 2× slower; tp8 and tp4 all_reduce. */
function generatedRows(seed: number): Row[] {
  const rnd = normal(seed)
  const rows: Row[] = []
  for (let s = 0; s < 4; s++) {
    for (let d = 0; d < 4; d++) {
      if (s === d) continue
      const alpha = (s === 3 || d === 3 ? 2 : 1) * 13.7 * US
      rows.push(
        ...seriesRows(
          {
            alpha,
            beta: 25e9,
            row: { bench: 'p2p.latency', metric: 'latency', src: s, dst: d, p2p: 'disabled' },
            iterations: 3,
          },
          rnd,
        ),
      )
    }
  }
  const tp: [string, string[], number, number, number][] = [
    ['tp8', ['0-7'], 8, 38.8 * US, 10e9],
    ['tp4', ['0-3', '4-7'], 4, 20.4 * US, 15e9],
  ]
  for (const [grouping, groups, ranks, alpha, beta] of tp) {
    for (const group of groups)
      rows.push(
        ...seriesRows(
          {
            alpha,
            beta,
            row: { bench: 'nccl.all_reduce', group, ranks, grouping, placement: 'out-of-place' },
            trials: 5,
            iterations: 1,
          },
          rnd,
        ),
      )
  }
  return rows
}

let cached: { dir: string; a: Analysis } | undefined
async function generated(): Promise<{ dir: string; a: Analysis }> {
  if (!cached) {
    const dir = await writeSet(generatedRows(11), { gpuName: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition' })
    cached = { dir, a: await analyze(dir) }
  }
  return cached
}

test('analyze recovers α and β of every generated pair and group within 2 %', async () => {
  const { a } = await generated()
  const pairs = a.fits.filter((f) => f.src !== undefined)
  assert.equal(pairs.length, 12)
  for (const f of pairs) {
    const alpha = (f.src === 3 || f.dst === 3 ? 2 : 1) * 13.7 * US
    assert.ok(rel(f.alpha, alpha) < 0.02, `${f.src}→${f.dst} alpha ${f.alpha}`)
    assert.ok(rel(f.beta as number, 25e9) < 0.02, `${f.src}→${f.dst} beta ${f.beta}`)
    assert.ok(f.alphaCi[0] <= f.alpha && f.alpha <= f.alphaCi[1])
  }
  const tp8 = a.fits.find((f) => f.group === '0-7')!
  assert.ok(rel(tp8.alpha, 38.8 * US) < 0.02 && rel(tp8.beta as number, 10e9) < 0.02, JSON.stringify(tp8))
  assert.equal(tp8.ranks, 8)
  assert.equal(tp8.grouping, 'tp8')
})

test('host-staged pairs are placed in host-staged bands, and GPU3 is flagged as 2× slower than the other pairs', async () => {
  const { a } = await generated()
  const f01 = a.fits.find((f) => f.src === 0 && f.dst === 1)!
  assert.ok(f01.bands.includes('p2p-off-rtxpro6000-gen5'), f01.bands.join())
  assert.match(f01.verdict, /within 'P2P off, host-staged/)
  assert.deepEqual(
    a.outliers.map((o) => o.gpu),
    [3],
  )
  assert.ok(Math.abs(a.outliers[0]!.ratio - 2) < 0.1, String(a.outliers[0]!.ratio))
  assert.ok(a.verdicts.some((v) => v.kind === 'outlier' && /GPU3's pairs are 2\.0× slower/.test(v.text)))
  assert.equal(a.topology.source, null)
  assert.ok(a.notes.some((n) => /p2pmark/.test(n)))
  assert.ok(a.cells.length > 0 && a.cells.every((c) => c.key.startsWith('bench=')))
})

test('with a topology in the set, pairs are aggregated by link class', async () => {
  const rows = generatedRows(12).filter((r) => r.bench === 'p2p.latency' && r.src !== 3 && r.dst !== 3)
  const topology = {
    pairs: [
      { a: 0, b: 1, link: 'NODE' },
      { a: 0, b: 2, link: 'SYS' },
      { a: 1, b: 2, link: 'SYS' },
    ],
  }
  const a = await analyze(await writeSet(rows, { topology }), { cells: false })
  assert.equal(a.fits.find((f) => f.src === 1 && f.dst === 0)!.linkClass, 'NODE')
  assert.deepEqual(a.classes.map((c) => [c.linkClass, c.pairs]).sort(), [
    ['NODE', 2],
    ['SYS', 4],
  ])
  assert.match(a.topology.source ?? '', /topology/)
})

test('a topology capture under <set>/topology/ (written by the topology module from a real topo -m) joins link classes', async () => {
  // asus-esc8000a fixture: GPU0–1 and GPU2–3 are NODE, the rest SYS. GPU3 is the slow one in these rows.
  const dir = await writeSet(generatedRows(13).filter((r) => r.bench === 'p2p.latency'))
  await captureTopology(join(dir, 'topology'), {
    inputs: [join(FIXTURES, 'nvidia-smi-topo-m', 'asus-esc8000a-4x-rtx6000ada-nic-node-sys.txt')],
  })
  const a = await analyze(dir, { cells: false })
  assert.equal(a.topology.source, join(dir, 'topology'))
  assert.equal(a.fits.find((f) => f.src === 2 && f.dst === 3)!.linkClass, 'NODE')
  assert.equal(a.fits.find((f) => f.src === 0 && f.dst === 2)!.linkClass, 'SYS')
  assert.deepEqual(a.classes.map((c) => [c.linkClass, c.pairs]).sort(), [
    ['NODE', 4],
    ['SYS', 8],
  ])
  // Within SYS (8 ordered pairs, 4 touching GPU3) GPU3's pairs are 2× the others'.
  assert.ok(
    a.outliers.some((o) => o.gpu === 3 && o.linkClass === 'SYS' && Math.abs(o.ratio - 2) < 0.1),
    JSON.stringify(a.outliers),
  )
})

test('compare by grouping: tp4 wins every size, the ratio matches the generated model, and the decode model counts 156 all-reduces', async () => {
  const { dir } = await generated()
  const c: Comparison = await compare(dir, { by: 'grouping', model: resolveModel('glm-5') })
  const ar = c.benches.find((b) => b.bench === 'nccl.all_reduce')!
  assert.deepEqual(ar.groupings, ['tp4', 'tp8'])
  for (const z of ar.sizes) {
    assert.equal(z.winner, 'tp4')
    const want = (38.8 * US + z.sizeBytes / 10e9) / (20.4 * US + z.sizeBytes / 15e9)
    assert.ok(rel(z.ratio as number, want) < 0.06, `${z.sizeBytes}: ${z.ratio} vs ${want}`)
    assert.ok((z.p as number) < 0.05)
    assert.equal(z.groupings.find((g) => g.grouping === 'tp4')!.groups.length, 2)
  }
  const d = c.decode!
  assert.equal(d.payloadBytes, 786432)
  const tp8 = d.plans.find((p) => p.plan === 'TP8')!
  assert.equal(tp8.grouping, 'tp8')
  assert.equal(tp8.allreduces, 156)
  assert.ok(rel(tp8.allreduceTime as number, 38.8 * US + 786432 / 10e9) < 0.02, String(tp8.allreduceTime))
  assert.equal(tp8.commTime, 156 * (tp8.allreduceTime as number))
  assert.equal(tp8.tokPerSec, 64 / (tp8.commTime as number))
  const tp4 = d.plans.find((p) => p.plan === 'TP4×PP2')!
  assert.equal(tp4.sendRecvs, 1)
  assert.ok(rel(tp4.sendRecvTime as number, 27.4 * US + 786432 / 25e9) < 0.3, String(tp4.sendRecvTime))
  assert.equal(tp4.commTime, 156 * (tp4.allreduceTime as number) + (tp4.sendRecvTime as number))
  assert.ok(d.p2pReadings && d.p2pReadings.readings.length === 2)
})

test('CLI: analyze --json and compare --json honour the contract', async () => {
  const { dir } = await generated()
  const r = await cli(['analyze', dir, '--json', '--no-cells'])
  assert.equal(r.code, 0, r.stderr)
  const a = JSON.parse(r.stdout) as Analysis
  for (const f of a.fits) {
    assert.equal(typeof f.bench, 'string')
    assert.ok((typeof f.src === 'number' && typeof f.dst === 'number') || typeof f.group === 'string')
    assert.ok(typeof f.alpha === 'number' && f.alphaCi.length === 2 && Array.isArray(f.bands))
    assert.ok(f.beta === null || f.beta > 1e9)
  }
  assert.ok(Array.isArray(a.verdicts) && a.verdicts.length > 0)
  const c = await cli(['compare', dir, '--by', 'grouping', '--json', '--model', 'glm-5', '--batch', '32'])
  assert.equal(c.code, 0, c.stderr)
  const j = JSON.parse(c.stdout) as Comparison
  const size8 = j.benches.find((b) => b.bench === 'nccl.all_reduce')!.sizes[0]!
  assert.equal(size8.sizeBytes, 8)
  assert.ok(size8.groupings.every((g) => typeof g.median === 'number'))
  assert.equal(j.decode!.model.batch, 32)
  assert.equal(j.decode!.payloadBytes, 32 * 6144 * 2)
  const text = await cli(['analyze', dir])
  assert.match(text.stdout, /^SIMULATED analysis/)
  assert.match(text.stdout, /GPU3's pairs are 2\.0× slower/)
})

test('CLI: a missing directory, a non-result-set, an unknown model or axis are bad input (exit 2, one line)', async () => {
  const { dir } = await generated()
  const empty = tmp()
  mkdirSync(join(empty, 'x'))
  writeFileSync(join(empty, 'x', 'notes.txt'), 'hello\n')
  for (const args of [
    ['analyze', '/nonexistent/set'],
    ['analyze', join(empty, 'x')],
    ['compare', '/nonexistent/set'],
    ['compare', dir, '--model', 'llama-9'],
    ['compare', dir, '--by', 'nosuchfield'],
    ['compare', dir, '--model', 'glm-5', '--layers', '-3'],
  ]) {
    const r = await cli(args)
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  }
})

test("link-class verdicts name their mechanism, and keep the bench's own bounce apart from the driver's staging", async () => {
  const bench = { sizes: [8, 64, 512], iters: 3, p2pModes: ['enabled', 'disabled', 'bounce'] as const }
  const a = await analyze(await simSet({ preset: 'seed-vm', seed: 6, groups: [], bench }))
  const lat = a.classes.filter((c) => c.bench === 'p2p.latency')
  // Three P2P states, 12 cross pairs each (4 GPUs): bounce is not pooled with P2P disabled.
  assert.deepEqual(lat.map((c) => `${c.staging ?? c.p2p}:${c.pairs}`).sort(), [
    'bounce:12',
    'disabled:12',
    'enabled:12',
  ])
  assert.ok(
    lat.every((c) => c.mechanism?.id === 'host-staged'),
    JSON.stringify(lat.map((c) => c.mechanism?.id)),
  )
  const v = a.verdicts.filter((x) => x.kind === 'class' && x.subject.startsWith('p2p.latency'))
  assert.equal(v.length, 3)
  for (const x of v) {
    assert.equal(x.mechanism?.id, 'host-staged')
    assert.ok(x.text.endsWith(`: ${x.mechanism?.text}`), x.text)
  }
  assert.ok(v.some((x) => x.subject.includes('p2p=bounce')))
})
