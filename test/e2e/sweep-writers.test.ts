/**
 * Writers of one result set: `sweep --resume` keeps the rows `import --append` added (in-process,
 * the sweep through the sim executor); as real processes, because the lock is between processes,
 * concurrent appends never lose a manifest source and an append beside a running sweep is
 * refused (exit 2, one line) instead of being overwritten by the sweep.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { BIN, cli, ROOT, tmp } from '../helpers.ts'
import { manifestOf, startSweep, sweepIn } from './_sweep.ts'

const SPEC = ['--instrument', 'sim', '--preset', 'seed-vm', '--gpus', '0-3', '--pairs', 'none']
const SPEC_ARGS = [...SPEC, '--groupings', 'tp4,tp2', '--sizes', '8:1M:x4', '--seed', '7']
/** SPEC_ARGS as the sweep command's flags. */
const SPEC_FLAGS: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-3',
  pairs: 'none',
  groupings: 'tp4,tp2',
  sizes: '8:1M:x4',
  seed: 7,
}

/** SIMULATED nccl-tests output of one collective (what a peer harness would hand over), made in-process. */
async function simLog(dir: string, name: string, collective: string, seed: number): Promise<string> {
  const r = await cli([
    'sim',
    '--preset',
    'seed-vm',
    '--format',
    'nccl-tests',
    '--collective',
    collective,
    '--seed',
    String(seed),
  ])
  assert.equal(r.code, 0, r.stderr)
  const path = join(dir, name)
  writeFileSync(path, r.stdout)
  return path
}

/** Every raw log of the sweep's launches is recorded with the sha256 of its bytes. */
function assertRawChecksums(dir: string): void {
  const x = manifestOf(dir).extra?.sweep as SweepExtra
  const launches = Object.values(x.points).flatMap((p) => p.attempts.flatMap((a) => a.launches))
  assert.ok(launches.length >= 2)
  for (const l of launches) {
    for (const [file, sum] of [
      [l.stdout, l.stdoutSha256],
      [l.stderr, l.stderrSha256],
    ])
      assert.equal(
        sum,
        createHash('sha256')
          .update(readFileSync(join(dir, file as string)))
          .digest('hex'),
        file,
      )
  }
}

const noPoint = async (dir: string): Promise<number> =>
  (await loadSet(dir)).rows.filter((r) => r.point === undefined).length

test('sweep records each raw log with its sha256; --resume keeps the rows import --append added (they belong to no point), the manifest still lists their source', async () => {
  const dir = join(tmp(), 'set')
  assert.equal((await sweepIn(SPEC_FLAGS, { out: dir })).code, 0)
  const swept = (await loadSet(dir)).rows.length
  assertRawChecksums(dir)
  const log = await simLog(tmp(), 'gather.log', 'all_gather', 3)
  const app = await cli(['import', log, '--out', dir, '--append'])
  assert.equal(app.code, 0, app.stderr)
  const added = await noPoint(dir)
  assert.ok(added > 10, `${added} rows appended`)
  const before = (await loadSet(dir)).rows.length
  assert.equal(before, swept + added)
  const r = await sweepIn({}, { resume: dir })
  assert.equal(r.code, 0, r.stderr)
  const after = await loadSet(dir)
  assert.equal(after.rows.length, before, `${before} → ${after.rows.length} rows`)
  assert.equal(await noPoint(dir), added)
  const sources = manifestOf(dir).sources ?? []
  assert.deepEqual(
    sources.map((s) => [s.path, s.rows]),
    [[log, added]],
  )
})

test('two appends at once into one set, 3 rounds: both exit 0 and both sources and all their rows are kept', async () => {
  const work = tmp()
  const logs = [await simLog(work, 'a.log', 'all_gather', 1), await simLog(work, 'b.log', 'broadcast', 2)]
  // The three rounds side by side, each in its own set (within a round the two appends race; the lock
  // itself, 4 processes trying at one instant for 5 rounds, is test/unit/lock.test.ts').
  const rounds = Array.from({ length: 3 }, (_, round) => round)
  await Promise.all(
    rounds.map(async (round) => {
      const dir = join(work, `set-${round}`)
      assert.equal((await cli(['import', logs[0] as string, '--out', dir])).code, 0)
      const one = (await loadSet(dir)).rows.length
      const runs = await Promise.all(
        logs.map((l) =>
          execa(process.execPath, [BIN, 'import', l, '--out', dir, '--append'], { cwd: ROOT, reject: false }),
        ),
      )
      for (const x of runs) assert.equal(x.exitCode, 0, String(x.stderr))
      const m = manifestOf(dir)
      assert.deepEqual(
        (m.sources ?? []).map((s) => s.path).sort(),
        [logs[0], logs[0], logs[1]].sort(),
        `round ${round}`,
      )
      const rows = (await loadSet(dir)).rows.length
      assert.equal(
        rows,
        (m.sources ?? []).reduce((s, x) => s + x.rows, 0),
      )
      assert.ok(rows > one)
    }),
  )
})

test('an append beside a running sweep is refused (exit 2, one line, the sweep named); after the sweep it is kept', async () => {
  const dir = join(tmp(), 'busy')
  const log = await simLog(tmp(), 'gather.log', 'all_gather', 4)
  const run = await startSweep(
    [...SPEC_ARGS, '--timeout', '60', '--sim-fault', 'nccl.all_reduce~tp2~t1=hang', '--out', dir],
    /sweep: \d+ points to run/,
  )
  try {
    const r = await cli(['import', log, '--out', dir, '--append'])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /another sweep is writing this result set \(pid \d+ on /)
    assert.equal(r.stderr.trim().split('\n').length, 1)
  } finally {
    run.child.kill('SIGINT')
  }
  await run.child
  assert.deepEqual(manifestOf(dir).sources ?? [], [])
  assert.equal(await noPoint(dir), 0)
  assert.equal((await cli(['import', log, '--out', dir, '--append'])).code, 0)
  assert.equal((manifestOf(dir).sources ?? []).length, 1)
  assert.ok((await noPoint(dir)) > 10)
})
