/**
 * Host restore when something fails (src/host/_restore.ts): a knob write that fails undoes
 * every write made before it; an undo that fails keeps the restore record, so a later
 * `gpucomm restore` (applyPendingRestore) can still put the values back, and keeps it in turn when
 * one of its own writes fails. GENERATED stand-in roots.
 */
import assert from 'node:assert/strict'
import fs, { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { join } from 'node:path'
import { mock, test } from 'node:test'
import { applyPendingRestore, applyWrites, RESTORE_FILE } from '../../../src/host/index.ts'
import { tmp } from '../../helpers.ts'

/** A stand-in root with cpu0's cpuidle state1 and state2 `disable` files at 0. */
function setup(): { root: string; knobs: string[]; set: string } {
  const root = tmp('gpucomm-restore-root-')
  const knobs = [1, 2].map((s) => {
    const dir = join(root, `sys/devices/system/cpu/cpu0/cpuidle/state${s}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'disable'), '0')
    return join(dir, 'disable')
  })
  return { root, knobs, set: tmp('gpucomm-restore-set-') }
}
const listeners = () => ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s))
const read = (p: string) => readFileSync(p, 'utf8')

test('a knob write that fails undoes the writes before it, throws naming the point, and leaves no handler', () => {
  const { root, knobs, set } = setup()
  const [a, b] = knobs as [string, string]
  const before = listeners()
  // b's directory is gone: its write fails after a's succeeded.
  rmSync(join(b, '..'), { recursive: true })
  assert.throws(
    () =>
      applyWrites(
        set,
        'p1',
        [
          { path: a, before: '0', after: '1' },
          { path: b, before: '0', after: '1' },
        ],
        root,
      ),
    /^Error: host knob for p1: .*ENOENT.*; every change undone$/,
  )
  assert.equal(read(a), '0', 'the write that succeeded is undone')
  assert.deepEqual(listeners(), before, 'no exit or signal handler left behind')
  // b's undo failed too (its file cannot be written): the record stays, naming both writes.
  const rec = JSON.parse(read(join(set, RESTORE_FILE)))
  assert.deepEqual(
    rec.writes.map((w: { path: string }) => w.path),
    [a, b],
  )
})

test('an undo that fails keeps the restore record; gpucomm restore applies it once the file is writable', () => {
  const { root, knobs, set } = setup()
  const [a, b] = knobs as [string, string]
  const before = listeners()
  const undo = applyWrites(
    set,
    'p3',
    [
      { path: a, before: '0', after: '1' },
      { path: b, before: '0', after: '1' },
    ],
    root,
  )
  assert.deepEqual([read(a), read(b)], ['1', '1'])
  assert.deepEqual(
    listeners(),
    before.map((n) => n + 1),
    'one exit and one handler per signal while the writes stand',
  )
  // b cannot be written back (a directory now stands where the file was).
  rmSync(b)
  mkdirSync(b)
  undo()
  assert.equal(read(a), '0', 'the undo that could be made is made')
  assert.deepEqual(listeners(), before, 'the handlers are removed even when an undo fails')
  const rec = JSON.parse(read(join(set, RESTORE_FILE)))
  assert.equal(rec.point, 'p3')
  assert.deepEqual(rec.writes, [
    { path: a, before: '0', after: '1' },
    { path: b, before: '0', after: '1' },
  ])
  undo()
  assert.ok(existsSync(join(set, RESTORE_FILE)), 'a second call does nothing (idempotent), the record stays')
  // The file is back (as after a reboot of the node): the kept record restores it.
  rmSync(b, { recursive: true })
  writeFileSync(b, '1')
  writeFileSync(a, '1')
  assert.deepEqual(applyPendingRestore(set, root), { restored: 2, point: 'p3' })
  assert.deepEqual([read(a), read(b)], ['0', '0'])
  assert.equal(existsSync(join(set, RESTORE_FILE)), false, 'a complete restore removes the record')
})

test('a successful undo removes the record', () => {
  const { root, knobs, set } = setup()
  const [a] = knobs as [string]
  const undo = applyWrites(set, 'p4', [{ path: a, before: '0', after: '1' }], root)
  assert.ok(existsSync(join(set, RESTORE_FILE)), 'the record is written before the knob')
  undo()
  assert.equal(read(a), '0')
  assert.equal(existsSync(join(set, RESTORE_FILE)), false)
})

test('gpucomm restore: a value that cannot be written back keeps the record, names the file, and writes the rest', () => {
  const { root, knobs, set } = setup()
  const [a, b] = knobs as [string, string]
  for (const k of knobs) writeFileSync(k, '1')
  const writes = knobs.map((path) => ({ path, before: '0', after: '1' }))
  const text = JSON.stringify({ schema: 1, kind: 'gpucomm-host-restore', point: 'p5', root, pid: 1, at: '', writes })
  writeFileSync(join(set, RESTORE_FILE), text)
  // b refuses the write as sysfs does for a user without the right (a plain file passes the
  // record's checks; root may write any file here, so the refusal is made at node:fs).
  const real = fs.writeFileSync
  mock.method(fs, 'writeFileSync', (...args: Parameters<typeof real>) => {
    if (args[0] === b) throw new Error(`EACCES: permission denied, open '${b}'`)
    return real(...args)
  })
  syncBuiltinESMExports()
  try {
    assert.throws(
      () => applyPendingRestore(set, root),
      (e: Error) =>
        e.message ===
        `restore incomplete, ${join(set, RESTORE_FILE)} kept: ${b}: EACCES: permission denied, open '${b}'`,
    )
  } finally {
    mock.restoreAll()
    syncBuiltinESMExports()
  }
  assert.deepEqual([read(a), read(b)], ['0', '1'], 'the value that could be written back is')
  assert.equal(read(join(set, RESTORE_FILE)), text, 'the record is kept as it was')
  // Once the file takes writes again, the kept record finishes the job.
  assert.deepEqual(applyPendingRestore(set, root), { restored: 2, point: 'p5' })
  assert.deepEqual([read(a), read(b)], ['0', '0'])
  assert.equal(existsSync(join(set, RESTORE_FILE)), false)
})
