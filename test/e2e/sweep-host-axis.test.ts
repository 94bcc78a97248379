/**
 * sweep --host-axis on a GENERATED stand-in sysfs root (--sysfs-root) where the knob writes
 * land: both values run, every change is undone after its point on success, on a failed
 * point, on SIGINT, SIGTERM and SIGHUP, on an exception in the harness (thrown in the driver,
 * or uncaught in the process), and after SIGKILL by `gpucomm restore` or the next run; bad
 * input changes nothing; the simulator's host model moves the staged floor.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { execa } from 'execa'
import type { Executor } from '../../src/exec/index.ts'
import { hostEffect } from '../../src/host/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { runSweep } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { BIN, cli, ROOT, tmp } from '../helpers.ts'
import { sweepIn, TWO_GPU_SIM } from './_sweep.ts'

/** A stand-in root: 2 CPUs with POLL 0 µs, C1 1 µs, C2 18 µs (all enabled). */
function fakeRoot(): string {
  const root = tmp('gpucomm-knob-root-')
  for (const cpu of [0, 1])
    [0, 1, 18].forEach((lat, s) => {
      const d = join(root, 'sys/devices/system/cpu', `cpu${cpu}`, 'cpuidle', `state${s}`)
      mkdirSync(d, { recursive: true })
      writeFileSync(join(d, 'latency'), `${lat}\n`)
      writeFileSync(join(d, 'disable'), '0\n')
    })
  return root
}
const deep = (root: string): string[] =>
  [0, 1].map((c) => readFileSync(join(root, `sys/devices/system/cpu/cpu${c}/cpuidle/state2/disable`), 'utf8').trim())
const shallow = (root: string): string[] =>
  [0, 1].map((c) => readFileSync(join(root, `sys/devices/system/cpu/cpu${c}/cpuidle/state1/disable`), 'utf8').trim())
// Seeded as FLAGS below: the real processes' points run in one order every time.
const SWEEP = ['sweep', '--instrument', 'sim', '--preset', 'seed-vm', '--gpus', '0-1', '--pairs', 'all', '--seed', '7']
const ARGS = [...SWEEP, '--collectives', 'all_reduce', '--groupings', 'tp2', '--sizes', '8', '--trials', '2']
const KNOB = (root: string): string[] => ['--host-axis', 'cstates=shallow', '--sysfs-root', root]
const HANG = ['--sim-fault', 'shallow=hang', '--timeout', '120']
/** ARGS as the sweep command's flags (the in-process runs, through the sim executor). */
const FLAGS: SpecInput = {
  ...TWO_GPU_SIM,
  sizes: '8',
  trials: 2,
  // Fixed: the gap asserted below carries each arm's own drift (30 seeds: 1.69-2.38 µs; an
  // unseeded run drew 2.68 µs once in CI).
  seed: 7,
}
const THROW_WHEN = join(ROOT, 'test/helpers/throw-when.mjs')

async function waitFor(cond: () => boolean, ms = 60_000): Promise<void> {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 100))
  }
}

// Each test has its own stand-in root and sets: three at a time.
suite('sweep --host-axis', { concurrency: 3 }, () => {
  test('bad --host-axis: exit 2, one line, nothing written or changed', async () => {
    const root = fakeRoot()
    for (const [axis, msg] of [
      ['cstates=bogus', /"bogus" is not a value of cstates \(default, shallow\)/],
      ['turbo=on', /unknown knob "turbo" \(known: cstates, numa\)/],
    ] as const) {
      const out = join(tmp('gpucomm-knob-bad-'), 'out')
      const r = await cli([...ARGS, '--host-axis', axis, '--sysfs-root', root, '--out', out])
      assert.equal(r.code, 2)
      assert.match(r.stderr, msg)
      assert.equal(r.stderr.trim().split('\n').length, 1)
      assert.equal(existsSync(out), false)
      assert.deepEqual(deep(root), ['0', '0'])
    }
  })

  test('both values run, shallow disables only the deep states during its points, everything is restored; the model moves staged copies by −2 µs', async () => {
    const root = fakeRoot()
    const out = join(tmp('gpucomm-knob-ok-'), 'out')
    const r = await sweepIn({ ...FLAGS, hostAxis: ['cstates=default,shallow'], sysfsRoot: root }, { out })
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(deep(root), ['0', '0'])
    assert.deepEqual(shallow(root), ['0', '0'])
    assert.equal(existsSync(join(out, 'host-restore.json')), false)
    const { rows } = await loadSet(out)
    const lat = (v: string): number[] =>
      rows
        .filter((x) => x.bench === 'p2p.latency' && x.timer === 'gpu' && x.src !== x.dst && x.hostAxis?.cstates === v)
        .map((x) => x.value)
    const [d, s] = [lat('default'), lat('shallow')]
    assert.ok(d.length >= 4 && s.length === d.length, `${d.length} / ${s.length}`)
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
    const gap = mean(d) - mean(s)
    assert.ok(gap > 1.5e-6 && gap < 2.5e-6, `default − shallow = ${gap * 1e6} µs`)
    const c = await cli(['compare', out, '--by', 'host-axis', '--all'])
    assert.equal(c.code, 0, c.stderr)
    assert.match(c.stdout, /cstates=default/)
    assert.match(c.stdout, /cstates=shallow/)
    // One value per launch (2 trials a side), however many iterations each launch printed; the
    // pairs of one matrix are not called concurrent groups.
    assert.match(c.stdout, /several pairs, one value per trial, the slowest pair's/)
    const ns = [...c.stdout.matchAll(/ n=(\d+)/g)].map((m) => Number(m[1]))
    assert.ok(ns.length > 0 && ns.every((n) => n === 2), `n per cell: ${[...new Set(ns)]}`)
    // Independent arms: the arms' ratio varies from launch to launch, so no interval is zero-width.
    assert.doesNotMatch(c.stdout, /± 0\.00×|CI \[(\d\.\d\d), \1\]/)
    // Arms are never pooled into one floor: each arm its own, in the answer and the class summary.
    const a = await cli(['analyze', out])
    assert.match(a.stdout, /\(cstates=default, 2 PHB pairs\), [\d.]+(–[\d.]+)? µs \(cstates=shallow, 2 PHB pairs\)/)
    assert.match(a.stdout, /^- p2p\.latency p2p=disabled cstates=shallow PHB pairs: 2 pairs/m)
  })

  test('a failed point (crash) still restores; SIGTERM restores before the process ends', async () => {
    const root = fakeRoot()
    const out = join(tmp('gpucomm-knob-crash-'), 'out')
    const r = await sweepIn(
      { ...FLAGS, hostAxis: ['cstates=default,shallow'], sysfsRoot: root, simFaults: ['shallow=crash'], retries: 0 },
      { out },
    )
    assert.equal(r.code, 1, r.stderr)
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out, 'host-restore.json')), false)
    const out2 = join(tmp('gpucomm-knob-term-'), 'out')
    const p = execa(
      process.execPath,
      [
        BIN,
        ...ARGS,
        '--host-axis',
        'cstates=shallow',
        '--sysfs-root',
        root,
        '--sim-fault',
        'shallow=hang',
        '--timeout',
        '120',
        '--out',
        out2,
      ],
      { reject: false, cwd: ROOT },
    )
    await waitFor(() => existsSync(join(out2, 'host-restore.json')) && deep(root)[0] === '1')
    p.kill('SIGTERM')
    await p
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out2, 'host-restore.json')), false)
  })

  test('SIGINT and SIGHUP restore too, and the sweep ends with 128 + the signal number', async () => {
    const root = fakeRoot()
    for (const [sig, code] of [
      ['SIGINT', 130],
      ['SIGHUP', 129],
    ] as const) {
      const out = join(tmp('gpucomm-knob-sig-'), 'out')
      const p = execa(process.execPath, [BIN, ...ARGS, ...KNOB(root), ...HANG, '--out', out], {
        reject: false,
        cwd: ROOT,
      })
      await waitFor(() => existsSync(join(out, 'host-restore.json')) && deep(root)[0] === '1')
      p.kill(sig)
      const r = await p
      assert.equal(r.exitCode, code, String(r.stderr))
      assert.deepEqual(deep(root), ['0', '0'], sig)
      assert.equal(existsSync(join(out, 'host-restore.json')), false, sig)
    }
  })

  test('an exception in the harness restores: thrown through the driver, or uncaught in the process', async () => {
    const root = fakeRoot()
    const out = join(tmp('gpucomm-knob-throw-'), 'out')
    const spec = resolveSpec(
      {
        instrument: 'sim',
        preset: 'seed-vm',
        gpus: '0-1',
        pairs: 'all',
        collectives: ['all_reduce'],
        groupings: ['tp2'],
        sizes: '8',
        trials: 1,
        hostAxis: ['cstates=shallow'],
        sysfsRoot: root,
      },
      1,
    )
    let during: string[] = []
    const executor: Executor = {
      run: async () => {
        during = deep(root)
        throw new Error('harness bug')
      },
    }
    await assert.rejects(runSweep({ spec, out, command: ['test'], deps: { executor } }), /harness bug/)
    assert.deepEqual(during, ['1', '1'], 'the knob was applied while the point ran')
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out, 'host-restore.json')), false)
    // An uncaught exception ends the process (exit 1): its exit handler restores.
    const out2 = join(tmp('gpucomm-knob-uncaught-'), 'out')
    const r = await execa(
      process.execPath,
      ['--import', THROW_WHEN, BIN, ...ARGS, ...KNOB(root), ...HANG, '--out', out2],
      { reject: false, cwd: ROOT, env: { GPUCOMM_THROW_WHEN: join(out2, 'host-restore.json') }, timeout: 120_000 },
    )
    assert.equal(r.exitCode, 1, String(r.stderr))
    assert.match(String(r.stderr), /injected harness fault/)
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out2, 'host-restore.json')), false)
  })

  test('SIGKILL leaves the restore record; gpucomm restore DIR (or the next run into DIR) puts the values back', async () => {
    const root = fakeRoot()
    const out = join(tmp('gpucomm-knob-kill-'), 'out')
    const knob = [...ARGS, '--host-axis', 'cstates=shallow', '--sysfs-root', root]
    const hang = ['--sim-fault', 'shallow=hang', '--timeout', '120']
    const kill = async (where: string[]): Promise<void> => {
      const p = execa(process.execPath, [BIN, ...knob, ...hang, ...where], { reject: false, cwd: ROOT })
      // Both CPUs' writes (one after the other): killed between them, the second stays '0'.
      await waitFor(() => existsSync(join(out, 'host-restore.json')) && deep(root).every((v) => v === '1'))
      p.kill('SIGKILL')
      await p
      assert.deepEqual(deep(root), ['1', '1'])
    }
    await kill(['--out', out])
    const r = await cli(['restore', out, '--sysfs-root', root])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /restored 2 host settings/)
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out, 'host-restore.json')), false)
    await kill(['--resume', out])
    // The next run puts the values back before its own points (which would otherwise find the
    // deep states already disabled and leave them so).
    const next = await sweepIn({ ...FLAGS, hostAxis: ['cstates=shallow'], sysfsRoot: root }, { resume: out })
    assert.equal(next.code, 0, next.stderr)
    assert.deepEqual(deep(root), ['0', '0'])
    assert.equal(existsSync(join(out, 'host-restore.json')), false)
  })

  test('the plan skips what cannot be switched here, saying why', () => {
    const root = fakeRoot()
    const base = { root, asRoot: false, simulated: false, has: () => false, busIds: {} }
    assert.match(
      hostEffect({ cstates: 'shallow' }, [0], { ...base, root: tmp() }).skip ?? '',
      /^cstates=shallow: no cpuidle states/,
    )
    assert.equal(hostEffect({ cstates: 'shallow' }, [0], base).writes.length, 2)
    assert.match(
      hostEffect({ cstates: 'shallow' }, [0], { ...base, root: '/' }).skip ?? 'none',
      /needs root|no cpuidle|^none$/,
    )
    assert.match(hostEffect({ numa: 'remote' }, [0], base).skip ?? '', /^numa=remote: only 0 NUMA nodes exposed/)
    assert.deepEqual(hostEffect({ cstates: 'default' }, [0], base), { writes: [], prefix: [], notes: [] })
  })
})
