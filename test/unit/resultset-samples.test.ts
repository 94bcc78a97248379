/**
 * loadSamples (issue 17): the rows of a set replayed from (hash, value) pairs and one
 * representative row per group of conditions. Checked against loadSet, the rows in memory:
 * the same rows in the same order (but for iteration and source line, which no analysis
 * reads), and analyze and diff print byte for byte what they print from loadSet's rows.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { analyze } from '../../src/analysis/index.ts'
import { diffSets } from '../../src/diff/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { Appender, loadSamples, loadSet, newManifest, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

/** Rows of 2 trials × 3 iterations × 2 sizes × 2 pairs, interleaved as adversarially as possible. */
function rows(): Row[] {
  const out: Row[] = []
  let line = 0
  for (let it = 0; it < 3; it++)
    for (const trial of [0, 1])
      for (const sizeBytes of [8, 1024])
        for (const [src, dst] of [
          [0, 1],
          [1, 0],
        ] as const)
          out.push(
            makeRow({
              bench: 'p2p.latency',
              metric: 'latency',
              unit: 's',
              value: (src + 1) * 1e-6 + sizeBytes * 1e-10 + it * 1e-8 + trial * 1e-9,
              sizeBytes,
              src,
              dst,
              trial,
              iteration: it,
              p2p: 'enabled',
              timer: 'gpu',
              source: { file: 'raw/000.txt', line: ++line },
              ...(src === 1 ? { point: "p'1", env: { NCCL_ALGO: 'Ring' }, hostAxis: { cstates: 'shallow' } } : {}),
              ...(sizeBytes === 8 ? { requestedBytes: 16, peerAccess: false } : { host: 'node-1' }),
            }),
          )
  return out
}

/** A row without the fields that vary within a group (iteration, source line). */
const conditions = (r: Row): Row => {
  const { iteration: _i, ...rest } = r
  return { ...rest, source: { file: r.source.file, line: 0 } }
}

/** A set of `rows()` in two parts (10 rows, then the rest); returns its directory and rows. */
async function twoParts(): Promise<{ dir: string; all: Row[] }> {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const all = rows()
  const a = await Appender.open(dir)
  await a.append(all.slice(0, 10))
  await a.append(all.slice(10))
  a.close()
  return { dir, all }
}

test('loadSamples replays the rows of every part in order, one shared object per group of conditions', async () => {
  const { dir, all } = await twoParts()
  const s = await loadSamples(dir)
  assert.equal(s.count, all.length)
  const seen = new Set<Row>()
  const got: Row[] = []
  for (const r of s.rows) {
    seen.add(r)
    got.push(conditions({ ...r }))
  }
  assert.deepEqual(got, all.map(conditions))
  // 2 trials × 2 sizes × 2 pairs: the iterations of one launch share their object.
  assert.equal(seen.size, 8)
  // Replayable: a second pass reads the same values.
  assert.deepEqual(
    Array.from(s.rows, (r) => r.value),
    all.map((r) => r.value),
  )
})

test('loadSamples: an unreadable part is a diagnostic and the other parts load', async () => {
  const { dir } = await twoParts()
  writeFileSync(join(dir, 'samples', 'part-000002.parquet'), 'PAR1 torn')
  const s = await loadSamples(dir)
  assert.equal(s.count, 10)
  assert.equal(s.diagnostics.length, 1)
  assert.match(s.diagnostics[0]?.message ?? '', /part-000002\.parquet: /)
})

test('analyze and diff print byte for byte what they print from the rows in memory', async () => {
  const spec = { preset: 'seed-vm', groups: [[0, 1, 2, 3]], trials: 2, bench: { sizes: [8, 1024, 65536], iters: 5 } }
  const a = await simSet({ ...spec, seed: 31 })
  const b = await simSet({ ...spec, seed: 32 })
  const fromRows = JSON.stringify(await analyze(await loadSet(a)))
  assert.equal(JSON.stringify(await analyze(a)), fromRows)
  assert.ok(fromRows.includes('"fits"') && fromRows.length > 10_000, 'a real analysis')
  const d = JSON.stringify(diffSets(await loadSamples(a), await loadSamples(b), { allowSim: true }))
  assert.equal(d, JSON.stringify(diffSets(await loadSet(a), await loadSet(b), { allowSim: true })))
})

test('loadSamples groups by the columns that vary, read from the footers: per-part constants still split groups', async () => {
  // Three parts of the same 4 rows each. Within each part `host` and `env` are constant, but
  // they differ between parts (one part has none: all null); `p2p` and `timer` are the same
  // everywhere. Footer statistics say min = max in every part for host: only comparing the
  // parts tells that it varies.
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: false, command: [] }))
  const part = (host: string | undefined, k: number): Row[] =>
    [8, 1024, 8, 1024].map((sizeBytes, i) =>
      makeRow({
        bench: 'p2p.latency',
        metric: 'latency',
        unit: 's',
        value: 1e-6 * (k + 1) + i * 1e-9,
        sizeBytes,
        src: 0,
        dst: 1,
        p2p: 'enabled',
        timer: 'gpu',
        trial: 0,
        source: { file: 'raw/000.txt', line: i + 1 },
        ...(host ? { host, env: { NCCL_PROTO: host } } : {}),
      }),
    )
  const all = [...part('node-a', 0), ...part('node-b', 1), ...part(undefined, 2)]
  const a = await Appender.open(dir)
  for (let k = 0; k < 3; k++) await a.append(all.slice(4 * k, 4 * k + 4))
  a.close()
  const { openDuck } = await import('../../src/resultset/_duck.ts')
  const { varyingColumns } = await import('../../src/resultset/_varying.ts')
  const { listParts } = await import('../../src/resultset/_parts.ts')
  const db = await openDuck()
  try {
    const keys = ['bench', 'sizeBytes', 'src', 'p2p', 'timer', 'host', 'env', 'point', 'trial']
    // src is a DOUBLE column: counted as varying unless all null (its statistics leave NaN out).
    assert.deepEqual(await varyingColumns(db, listParts(dir), keys), ['sizeBytes', 'src', 'host', 'env'])
    assert.deepEqual(await varyingColumns(db, listParts(dir).slice(0, 1), keys), ['sizeBytes', 'src'])
  } finally {
    db.close()
  }
  const s = await loadSamples(dir)
  const got = Array.from(s.rows, (r) => conditions({ ...r }))
  assert.deepEqual(got, all.map(conditions))
  // 2 sizes × 3 hosts (one of them none): 6 groups, each row object shared by its 2 rows.
  assert.equal(new Set(s.rows).size, 6)
})
