/**
 * report and plot read a set through loadSamples (issue 17): rows replayed from 12 bytes each,
 * and for the busbw charts the stored busbw rows streamed again (the count of sizes printed
 * as 0 B needs their source lines). Each page and chart is byte for byte what the rows
 * loaded as objects (loadSet) give.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { buildReport, busbwCharts, chartContext, chartsOf, reportPage } from '../../src/output/index.ts'
import { CHART_KINDS } from '../../src/output/report/kinds/index.ts'
import { Appender, loadSet, newManifest, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

const SPEC = {
  preset: 'seed-vm',
  trials: 2,
  groups: [
    [0, 1, 2, 3],
    [0, 1],
    [2, 3],
  ],
  sizes: [8, 1024, 65536, 1048576],
  bench: { sizes: [8, 1024, 65536], iters: 5 },
}
/** A page without the time it was generated at. */
const page = (p: { generated: string }): string => JSON.stringify({ ...p, generated: '' })

test('report: the page built from replayed rows is the page built from the rows in memory', async () => {
  const dir = await simSet({ ...SPEC, seed: 11 })
  const baseline = await simSet({ ...SPEC, seed: 12 })
  const opts = { baseline, allowSim: true }
  const fromRows = page(await reportPage(await loadSet(dir), opts))
  assert.equal(page(await buildReport(dir, opts)), fromRows)
  for (const id of ['floors', 'groupings', 'diff', 'provenance']) assert.ok(fromRows.includes(`"id":"${id}"`), id)
})

test('plot: every chart kind draws from replayed rows what it draws from the rows in memory', async () => {
  const dir = await simSet({ ...SPEC, seed: 13 })
  const baseline = await simSet({ ...SPEC, seed: 14 })
  const set = await loadSet(dir)
  let drawn = 0
  for (const k of CHART_KINDS) {
    const fromRows = await k.build(set, chartContext(set), { baseline, allowSim: true })
    assert.equal(JSON.stringify(await chartsOf(dir, k.id, baseline, true)), JSON.stringify(fromRows), k.id)
    drawn += fromRows.length
  }
  assert.ok(drawn >= 8, `${drawn} charts`)
})

test('busbw: sizes printed as 0 B are counted by printed line, as the stored rows say, not per group', async () => {
  // One log that prints the same all_gather table twice (two runs, one trial): 0 B at 4 lines.
  const rows: Row[] = []
  for (const first of [10, 40])
    for (const [k, sizeBytes] of [0, 0, 64, 1024, 65536].entries())
      rows.push(
        makeRow({
          bench: 'nccl.all_gather',
          metric: 'busbw',
          unit: 'B/s',
          value: 1e9 * (k + 1) + first,
          sizeBytes,
          requestedBytes: k < 2 ? 8 * (k + 1) : sizeBytes,
          ranks: 4,
          placement: 'out-of-place',
          source: { file: 'raw/000-all_gather.txt', line: first + k },
        }),
      )
  const dir = join(tmp(), 'set')
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: ['generated-busbw-rows'] }))
  const app = await Appender.open(dir)
  await app.append(rows)
  app.close()
  const set = await loadSet(dir)
  const want = busbwCharts(set.rows, chartContext(set))
  assert.match(JSON.stringify(want), /4 sizes printed as 0 B/)
  assert.equal(JSON.stringify(await chartsOf(dir, 'busbw')), JSON.stringify(want))
})
