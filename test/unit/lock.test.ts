/**
 * The result-set lock: created atomically with its content (never seen empty, never taken by
 * two processes at once), a stale lock broken, a live one refused or waited for, and a release
 * that removes only its own lock.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { mock, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa, execaSync } from 'execa'
import { distIsFresh } from '../../bin/dist-fresh.js'
import { acquireLock, LOCK_FILE } from '../../src/exec/index.ts'
import { ROOT, tmp } from '../helpers.ts'

/**
 * The lock module a child process imports, and node's arguments for it: dist/'s compiled twin
 * when dist/ is newer than every source (bin/gpucomm.js' rule; ~0.1 s of CPU a child), else the
 * source through tsx (~0.4 s).
 */
const CHILD = distIsFresh(ROOT)
  ? { lib: join(ROOT, 'dist', 'exec', 'index.js'), node: [] }
  : { lib: join(ROOT, 'src', 'exec', 'index.ts'), node: ['--import', 'tsx'] }

const lockOf = (dir: string): { pid: number; by?: string } =>
  JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number; by?: string }

test('processes that try at the same instant: exactly one holds the lock, every other is refused (5 rounds)', async () => {
  const { lib } = CHILD
  // Four processes; each round they wait for "go-R", try once, say they tried; the winner holds
  // the lock until all four have tried, so every refusal is a real collision.
  const script = `
    const { acquireLock } = await import(${JSON.stringify(lib)})
    const fs = await import('node:fs')
    const w = process.argv.at(-1)
    const nap = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
    const count = (p) => fs.readdirSync(w).filter((f) => f.startsWith(p)).length
    fs.writeFileSync(w + '/ready-' + process.pid, '')
    for (let r = 0; r < 5; r++) {
      while (!fs.existsSync(w + '/go-' + r)) nap()
      let release, msg = 'won'
      try { release = acquireLock(w + '/set-' + r) } catch (e) { msg = 'refused: ' + e.message }
      fs.writeFileSync(w + '/tried-' + r + '-' + process.pid, '')
      while (release && count('tried-' + r + '-') < 4) nap()
      release?.()
      console.log(r + ' ' + msg)
    }`
  const w = tmp()
  const runs = [0, 1, 2, 3].map(() =>
    execa(process.execPath, [...CHILD.node, '--input-type=module', '-e', script, '--', w], {
      cwd: ROOT,
      reject: false,
    }),
  )
  const count = (prefix: string): number => readdirSync(w).filter((f) => f.startsWith(prefix)).length
  for (let r = 0; r < 5; r++) {
    while (count(r === 0 ? 'ready-' : `tried-${r - 1}-`) < 4 || existsSync(join(w, `set-${r - 1}`, LOCK_FILE)))
      await sleep(20)
    mkdirSync(join(w, `set-${r}`))
    writeFileSync(join(w, `go-${r}`), '')
  }
  const lines = (await Promise.all(runs)).flatMap((x) => String(x.stdout).trim().split('\n'))
  for (let r = 0; r < 5; r++) {
    const mine = lines.filter((l) => l.startsWith(`${r} `)).map((l) => l.slice(2))
    assert.equal(mine.length, 4)
    assert.equal(mine.filter((o) => o === 'won').length, 1, `round ${r}: ${mine.join(' | ')}`)
    for (const o of mine.filter((x) => x !== 'won')) assert.match(o, /another sweep is writing this result set/)
    assert.deepEqual(readdirSync(join(w, `set-${r}`)), [], 'the winner released it and no temp file is left')
  }
})

test('a stale lock (its process is gone) is taken over; a live one is refused with the holder named', () => {
  const dir = tmp()
  const gone = execaSync(process.execPath, ['-e', 'console.log(process.pid)']).stdout
  writeFileSync(join(dir, LOCK_FILE), `${JSON.stringify({ pid: Number(gone), host: hostname(), started: 'x' })}\n`)
  const release = acquireLock(dir)
  assert.equal(lockOf(dir).pid, process.pid)
  assert.throws(() => acquireLock(dir, { by: 'import' }), /another sweep is writing this result set \(pid \d+ on /)
  release()
  assert.equal(existsSync(join(dir, LOCK_FILE)), false)
})

test('release removes only its own lock; a sweep is not waited for, an import is until it releases', async () => {
  const dir = tmp()
  const first = acquireLock(dir, { by: 'import' })
  assert.equal(lockOf(dir).by, 'import')
  // Another process's lock replaced ours (a breaker judged ours stale): our release leaves it alone.
  const other = `${JSON.stringify({ pid: process.ppid, host: hostname(), started: 'y', by: 'sweep' })}\n`
  writeFileSync(join(dir, LOCK_FILE), other)
  first()
  assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), other)
  // The lock's waits are Atomics.wait (sleepSync): counted, not timed, so load cannot decide it.
  const waits = mock.method(Atomics, 'wait')
  try {
    assert.throws(() => acquireLock(dir, { waitMs: 5000 }), /another sweep is writing/)
  } finally {
    waits.mock.restore()
  }
  assert.equal(waits.mock.callCount(), 0, 'a sweep holding the lock is not waited for')
  // A live import in another process that lets go after about a second.
  const { lib } = CHILD
  const dir2 = tmp()
  const holder = execa(
    process.execPath,
    [
      ...CHILD.node,
      '--input-type=module',
      '-e',
      `const { acquireLock } = await import(${JSON.stringify(lib)}); const r = acquireLock(process.argv.at(-1), { by: 'import' }); console.log('held'); setTimeout(r, 1000)`,
      '--',
      dir2,
    ],
    { cwd: ROOT, reject: false, buffer: false },
  )
  await new Promise<void>((res) => holder.stdout?.once('data', () => res()))
  assert.throws(() => acquireLock(dir2, { by: 'import' }), /another import is writing/)
  const release = acquireLock(dir2, { by: 'import', waitMs: 20_000 })
  assert.equal(lockOf(dir2).pid, process.pid)
  release()
  await holder
})
