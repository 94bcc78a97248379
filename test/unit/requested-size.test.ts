/**
 * Cells keyed by the requested size: nccl-tests prints count × type size, so all_gather
 * requests below the rank count print 0 B. Rows keep the size the banner's sequence asked for,
 * cells and compare key on it (8 B and 16 B stay apart), and a run without the banner says
 * that its 0 B rows pool.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { compareSet } from '../../src/analysis/index.ts'
import { cells } from '../../src/cells/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const REAL = join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-allgather-v2.0-error-column-oob-failed.txt')

async function setOf(files: { path: string; data: Buffer }[]): Promise<ReturnType<typeof loadSet>> {
  const out = join(tmp('gpucomm-reqsize-'), 'set')
  await importFiles(files, { out, command: ['test'] })
  return loadSet(out)
}

test('real all_gather on 12 ranks: 8, 16 and 32 B requests print 0 B and stay three cells', async () => {
  const set = await setOf([{ path: 'ag.txt', data: readFileSync(REAL) }])
  const time = set.rows.filter((r) => r.metric === 'time' && r.placement === 'out-of-place')
  assert.deepEqual(
    time.slice(0, 5).map((r) => [r.requestedBytes, r.sizeBytes]),
    [
      [8, 0],
      [16, 0],
      [32, 0],
      [64, 48],
      [128, 96],
    ],
  )
  // Where the printed size is the requested one, nothing extra is stored.
  assert.ok(time.some((r) => r.sizeBytes === 2 ** 20 - 16 && r.requestedBytes === 2 ** 20))
  const c = cells(time)
  const small = c.filter((x) => x.config.sizeBytes === 0)
  assert.equal(small.length, 3)
  assert.deepEqual(
    small.map((x) => x.values.length),
    [1, 1, 1],
  )
  assert.match(small[1]?.key ?? '', / size=16 /)
  assert.equal(set.diagnostics.filter((d) => d.code === 'size-printed').length, 0)
})

test('without the banner, 0 B rows keep the printed size and a note says they pool', async () => {
  const text = readFileSync(REAL, 'utf8')
    .split('\n')
    .filter((l) => !l.includes('nThread'))
    .join('\n')
  const dir = join(tmp('gpucomm-reqsize-'), 'set')
  const { importFiles: imp } = await import('../../src/importer/index.ts')
  const summary = await imp([{ path: 'ag.txt', data: Buffer.from(text) }], { out: dir, command: ['test'] })
  const set = await loadSet(dir)
  assert.ok(set.rows.every((r) => r.requestedBytes === undefined))
  const notes = JSON.stringify(summary)
  assert.match(notes, /3 table rows print size 0 B .*keyed by the printed size, so those requests pool under 0 B/)
})

test('compare keys sizes by the request: all_gather on 8 and on 4 ranks at 8 B and 16 B', async () => {
  const files = [8, 4].flatMap((n) =>
    [0, 1, 2].map((trial) => ({
      path: `ag-${n}-t${trial}.txt`,
      data: Buffer.from(
        simulate({
          preset: 'seed-vm',
          seed: 3,
          trial,
          format: 'nccl-tests',
          collective: 'all_gather',
          gpus: [...Array(n).keys()],
          sizes: [8, 16, 32, 64],
        }),
      ),
    })),
  )
  const set = await setOf(files)
  const rows16 = set.rows.filter((r) => r.ranks === 8 && r.requestedBytes === 16)
  assert.ok(rows16.length > 0 && rows16.every((r) => r.sizeBytes === 0))
  const cmp = compareSet(set)
  const b = cmp.benches.find((x) => x.bench === 'nccl.all_gather')
  assert.deepEqual(
    b?.sizes.map((z) => z.sizeBytes),
    [8, 16, 32, 64],
  )
  // One value per trial in each grouping: the 8 B and 16 B requests of 8 ranks are not pooled under 0 B.
  for (const z of b?.sizes ?? []) for (const g of z.groupings) assert.equal(g.n, 3, `${z.sizeBytes} ${g.grouping}`)
})
