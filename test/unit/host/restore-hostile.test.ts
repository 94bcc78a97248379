/**
 * A result set's `host-restore.json` is data that may be hostile (sets are copied, attached to
 * tickets, downloaded): restoring one writes only cpuidle `disable` files under the sysfs root
 * in use, only the values a knob records, never through a link; anything else refuses the whole
 * record (exit 2) before a byte is written. GENERATED stand-in roots.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { HarnessError } from '../../../src/errors/index.ts'
import { applyPendingRestore, applyWrites, RESTORE_FILE } from '../../../src/host/index.ts'
import { tmp } from '../../helpers.ts'

/** A stand-in root with cpu0/cpuidle/state2/disable = 1 (as a killed shallow point leaves it). */
function setup(): { root: string; knob: string; set: string; victim: string } {
  const root = tmp('gpucomm-restore-root-')
  const dir = join(root, 'sys/devices/system/cpu/cpu0/cpuidle/state2')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'disable'), '1\n')
  const set = tmp('gpucomm-restore-set-')
  const victim = join(tmp('gpucomm-restore-victim-'), 'authorized_keys')
  writeFileSync(victim, 'untouched\n')
  return { root, knob: join(dir, 'disable'), set, victim }
}
const record = (set: string, root: string, writes: unknown[]): void =>
  writeFileSync(
    join(set, RESTORE_FILE),
    JSON.stringify({ schema: 1, kind: 'gpucomm-host-restore', point: 'p', root, pid: 1, at: '', writes }),
  )
const refused = (fn: () => unknown, msg: RegExp): void =>
  assert.throws(fn, (e: unknown) => e instanceof HarnessError && e.code === 2 && msg.test(e.message))

test('a record naming any other file, value, root or a link is refused whole; nothing is written', () => {
  const { root, knob, set, victim } = setup()
  const good = { path: knob, before: '0', after: '1' }
  const link = join(root, 'sys/devices/system/cpu/cpu0/cpuidle/state3')
  mkdirSync(link)
  symlinkSync(victim, join(link, 'disable'))
  const cases: [unknown[], string, RegExp][] = [
    [[good, { path: victim, before: 'CONTENT', after: 'x' }], root, /is not a knob file gpucomm changes/],
    [
      [{ path: `${root}/sys/devices/system/cpu/cpu0/cpuidle/state2/../../../../../../../x`, before: '0' }],
      root,
      /not a knob file/,
    ],
    [[{ ...good, before: 'ssh-rsa AAAA' }], root, /is not a value gpucomm records/],
    [[{ path: join(link, 'disable'), before: '0', after: '1' }], root, /is a link or not a plain file/],
    [[{ path: join(root, 'sys/devices/system/cpu/cpu9/cpuidle/state2/disable'), before: '0' }], root, /does not exist/],
    [[good], '/', /recorded for sysfs root "\/", not /],
    [['x'], root, /not an object/],
  ]
  for (const [writes, recRoot, msg] of cases) {
    record(set, recRoot, writes)
    refused(() => applyPendingRestore(set, root), msg)
    assert.equal(readFileSync(victim, 'utf8'), 'untouched\n')
    assert.equal(readFileSync(knob, 'utf8'), '1\n', 'the good entry is not applied either')
    assert.ok(readFileSync(join(set, RESTORE_FILE), 'utf8').length > 0, 'the record is kept')
  }
  // The live root refuses a record made under a stand-in root (and the other way round).
  record(set, root, [good])
  refused(() => applyPendingRestore(set), /recorded for sysfs root/)
})

test('a record gpucomm wrote restores under its root', () => {
  const { root, knob, set } = setup()
  writeFileSync(knob, '0\n')
  const undo = applyWrites(set, 'p', [{ path: knob, before: '0', after: '1' }], root)
  assert.equal(readFileSync(knob, 'utf8'), '1')
  assert.equal(JSON.parse(readFileSync(join(set, RESTORE_FILE), 'utf8')).root, root)
  // As a SIGKILL leaves it: the record stays, a later restore under the same root applies it.
  assert.deepEqual(applyPendingRestore(set, root), { restored: 1, point: 'p' })
  assert.equal(readFileSync(knob, 'utf8'), '0')
  undo()
})
