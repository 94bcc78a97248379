/** In CI a missing system package fails: .ci/run stops when apt-get fails, and packageSkip throws with CI set. */

import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { ROOT, tmp } from '../helpers.ts'
import { inCI, packageSkip, SYSTEM_SKIP } from '../system.ts'

test('packageSkip: a skip on a developer machine, a thrown failure when CI is set', () => {
  assert.equal(packageSkip(false, {}), false)
  assert.equal(packageSkip(undefined, { CI: 'true' }), false, 'nothing missing: no skip, no failure, in CI too')
  assert.equal(packageSkip('mpirun not found', {}), `${SYSTEM_SKIP}mpirun not found`)
  assert.equal(packageSkip('mpirun not found', { CI: 'false' }), `${SYSTEM_SKIP}mpirun not found`)
  assert.throws(
    () => packageSkip('mpirun not found', { CI: 'true' }),
    /CI is set and a system package is missing: mpirun not found/,
  )
  assert.throws(() => packageSkip('chromium', { CI: '1' }), /chromium/)
  assert.deepEqual(
    ['', '0', 'false', 'FALSE', 'true', '1', 'yes'].map((v) => inCI({ CI: v })),
    [false, false, false, false, true, true, true],
  )
})

/** A PATH where apt-get fails (its update or its install), `id -u` says root, and npm only leaves a mark. */
function fakePath(failAt: 'update' | 'install'): { dir: string; mark: string } {
  const dir = tmp()
  const mark = join(dir, 'npm-ran')
  const bin = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`)
    chmodSync(join(dir, name), 0o755)
  }
  bin('apt-get', `[ "$1" = ${failAt} ] && exit 100; exit 0`)
  bin('id', 'echo 0')
  bin('npm', `echo "$@" >> '${mark}'`)
  return { dir, mark }
}

for (const failAt of ['update', 'install'] as const)
  test(`.ci/run fails (exit 1) and runs no npm when apt-get ${failAt} fails`, async () => {
    const { dir, mark } = fakePath(failAt)
    const r = await execa('bash', [join(ROOT, '.ci', 'run')], {
      reject: false,
      env: { PATH: `${dir}:${process.env.PATH}` },
    })
    assert.equal(r.exitCode, 1, String(r.stderr))
    assert.match(String(r.stderr), new RegExp(`apt-get ${failAt}.* failed`))
    assert.equal(existsSync(mark), false, 'npm ci / npm test never ran')
  })

test('.ci/run goes on to npm ci and npm test (with CI set) when apt-get succeeds', async () => {
  const { dir, mark } = fakePath('update')
  writeFileSync(join(dir, 'apt-get'), '#!/bin/sh\nexit 0\n')
  writeFileSync(join(dir, 'npm'), `#!/bin/sh\necho "$CI $@" >> '${mark}'\n`)
  const r = await execa('bash', [join(ROOT, '.ci', 'run')], {
    reject: false,
    env: { PATH: `${dir}:${process.env.PATH}`, CI: '' },
    extendEnv: false,
  })
  assert.equal(r.exitCode, 0, String(r.stderr))
  assert.equal(readFileSync(mark, 'utf8'), 'true ci --no-audit --no-fund\ntrue test\n')
})
