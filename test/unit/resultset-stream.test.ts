/**
 * The commands that read a set without holding its rows (issue 17): export writes the stored
 * rows chunk by chunk (streamRows); show, compare, report and plot read rows replayed from
 * loadSamples. Each prints byte for byte what it printed from every row loaded as an object
 * (loadSet), on a generated set of several parts and more rows than one chunk.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { compare, compareSet, resolveModel } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { csvHeader, csvRecords, rowsToCsv, rowsToJsonl, showLines, showTable } from '../../src/output/index.ts'
import {
  Appender,
  CHUNK_ROWS,
  loadSamples,
  loadSet,
  newManifest,
  streamRows,
  writeManifest,
} from '../../src/resultset/index.ts'
import { genSet } from '../diff-gen.ts'
import { cli, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

/** A generated set of 12,000 rows (4 pairs × 3 sizes × 500 values × 2 metrics, 5 launches) in 3 parts. */
async function partsSet(simulated: boolean): Promise<string> {
  const dir = join(tmp(), 'set')
  const set = genSet({ seed: 7, pairs: 4, sizes: 3, n: 500, launches: 5 }, { simulated, dir })
  writeManifest(dir, set.manifest)
  const app = await Appender.open(dir)
  for (const [a, b] of [
    [0, 5000],
    [5000, 5001],
    [5001, set.rows.length],
  ])
    await app.append(set.rows.slice(a, b))
  app.close()
  return dir
}

test('streamRows: every stored row in order, fields intact, in chunks of at most CHUNK_ROWS', async () => {
  const dir = await partsSet(false)
  const all = (await loadSet(dir)).rows
  assert.ok(all.length > 2 * CHUNK_ROWS, `${all.length} rows`)
  const got: Row[] = []
  const sizes: number[] = []
  const s = await streamRows(dir, (rows) => {
    sizes.push(rows.length)
    got.push(...rows)
  })
  assert.equal(s.count, all.length)
  assert.ok(Math.max(...sizes) <= CHUNK_ROWS && sizes.length >= 3, sizes.join(' '))
  assert.deepEqual(got, all)
})

test('export jsonl and csv, to stdout and to a file: byte for byte the text of all rows loaded at once', async () => {
  for (const simulated of [false, true]) {
    const dir = await partsSet(simulated)
    const all = (await loadSet(dir)).rows
    const csv = rowsToCsv(all, simulated)
    const jsonl = rowsToJsonl(all, simulated)
    assert.equal(csvHeader(simulated) + csvRecords(all, simulated), csv)
    assert.equal((await cli(['export', dir, '--format', 'csv'])).stdout, csv)
    assert.equal((await cli(['export', dir, '--format', 'jsonl'])).stdout, jsonl)
    const out = join(tmp(), 'rows.csv')
    assert.equal((await cli(['export', dir, '--format', 'csv', '--out', out])).code, 0)
    assert.equal(readFileSync(out, 'utf8'), csv)
    assert.equal(jsonl.split('\n').length - 1, all.length)
    assert.equal(simulated, jsonl.includes('"simulated":true'))
  }
})

test('show (table and --json) prints from replayed rows what it prints from the rows in memory', async () => {
  const dir = await partsSet(true)
  const set = await loadSet(dir)
  const s = await loadSamples(dir)
  assert.deepEqual(showLines(s.rows), showLines(set.rows))
  const text = await cli(['show', dir])
  assert.equal(text.code, 0, text.stderr)
  assert.ok(text.stdout.endsWith(showTable(set.rows)), text.stdout)
  assert.match(text.stdout, new RegExp(`^SIMULATED result set .*, ${set.rows.length} rows\\n`))
  const json = JSON.parse((await cli(['show', dir, '--json'])).stdout) as { lines: unknown }
  assert.deepEqual(json.lines, showLines(set.rows))
})

const TP = [
  [0, 1, 2, 3],
  [0, 1],
  [2, 3],
]

test('compare and its decode model print from replayed rows what they print from the rows in memory', async () => {
  const dir = await simSet({
    preset: 'seed-vm',
    seed: 5,
    trials: 3,
    groups: TP,
    sizes: [8, 1024, 65536, 1048576],
    bench: { sizes: [8, 1024, 65536], iters: 5 },
  })
  const model = resolveModel('glm-5')
  assert.ok(model)
  const set = await loadSet(dir)
  for (const opts of [{ by: 'grouping', model }, { by: 'trial', pool: true }, { by: 'p2p' }]) {
    const fromRows = JSON.stringify(compareSet(set, opts))
    assert.equal(JSON.stringify(await compare(dir, opts)), fromRows, opts.by)
    assert.ok(fromRows.length > 2000, fromRows)
  }
  const d = compareSet(set, { model }).decode
  assert.ok(d?.p2pReadings && d.plans.some((p) => p.allreduceTime !== null), JSON.stringify(d))
  // Iterations of one launch (5 per pair and size) and concurrent groups (the pairs of a trial).
  const gen = await partsSet(false)
  const opts = { by: 'trial' }
  const c = await compare(gen, opts)
  assert.equal(JSON.stringify(c), JSON.stringify(compareSet(await loadSet(gen), opts)))
  assert.deepEqual(
    c.benches[0]?.sizes[0]?.groupings.map((g) => [g.combined, g.groups.length, g.groups[0]?.n]),
    [
      ['max', 4, 100],
      ['max', 4, 100],
      ['max', 4, 100],
      ['max', 4, 100],
      ['max', 4, 100],
    ],
  )
})

test('the decode model reads all_reduce and sendrecv iterations from replayed rows as from the rows in memory', async () => {
  const rows: Row[] = []
  let line = 0
  for (const [bench, grouping, ranks] of [
    ['nccl.all_reduce', 'tp8', 8],
    ['nccl.all_reduce', 'tp4', 4],
    ['nccl.sendrecv', 'pp', 2],
  ] as const)
    for (const sizeBytes of [8, 4096, 1 << 20, 1 << 24])
      for (const trial of [0, 1, 2])
        for (let iteration = 0; iteration < 5; iteration++)
          rows.push(
            makeRow({
              bench,
              metric: 'time',
              unit: 's',
              // Iteration 0 is the slow one: the median of a launch is not its first value.
              value: (ranks * 2e-6 + sizeBytes * 1e-11) * (iteration === 0 ? 3 : 1 + iteration * 0.01 + trial * 0.001),
              sizeBytes,
              ranks,
              grouping,
              placement: 'out-of-place',
              trial,
              iteration,
              source: { file: 'raw/generated.json', line: ++line },
            }),
          )
  const dir = join(tmp(), 'set')
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: ['generated-decode-rows'] }))
  const app = await Appender.open(dir)
  await app.append(rows)
  app.close()
  const model = resolveModel('glm-5')
  assert.ok(model)
  const c = await compare(dir, { model })
  assert.equal(JSON.stringify(c), JSON.stringify(compareSet(await loadSet(dir), { model })))
  assert.deepEqual(
    c.decode?.plans.map((p) => [p.grouping, p.allreduceFrom, p.sendRecvFrom]),
    [
      ['tp8', 'interpolated', 'no pipeline boundary'],
      ['tp4', 'interpolated', 'nccl.sendrecv median at the payload'],
    ],
  )
})
