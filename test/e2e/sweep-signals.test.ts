/**
 * SIGTERM, SIGHUP and SIGKILL of a real `gpucomm sweep` while its benchmark hangs (sim
 * --fault hang): afterwards no process of that sweep is left in the process table (/proc,
 * found by a marker variable every child inherits), and `--resume` completes the set.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { execa } from 'execa'
import type { SweepExtra } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'
import { CLEAN_ENV, manifestOf, sweepIn, TWO_GPU_SIM } from './_sweep.ts'

const SPEC = ['--instrument', 'sim', '--preset', 'seed-vm', '--gpus', '0-1', '--pairs', 'all', '--collectives']
const ARGS = [...SPEC, 'all_reduce', '--groupings', 'tp2', '--sizes', '8', '--trials', '1', '--seed', '5']
const HANG = ['--sim-fault', 'all_reduce=hang', '--timeout', '300']
/** ARGS as the sweep command's flags. */
const FLAGS: SpecInput = {
  ...TWO_GPU_SIM,
  sizes: '8',
  trials: 1,
  seed: 5,
}

/** Processes whose environment holds `MARK=id`, with their command lines (the process table, /proc). */
function marked(id: string): { pid: number; cmd: string }[] {
  const needle = `GPUCOMM_SIGNAL_TEST=${id}`
  const out: { pid: number; cmd: string }[] = []
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue
    try {
      if (!readFileSync(`/proc/${e}/environ`, 'latin1').split('\0').includes(needle)) continue
      if (!running(Number(e))) continue
      out.push({ pid: Number(e), cmd: readFileSync(`/proc/${e}/cmdline`, 'latin1').split('\0').join(' ') })
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return out
}

/** Whether `pid` is a process that has not ended (a zombie has ended; only its parent's wait is missing). */
function running(pid: number): boolean {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] !== 'Z'
  } catch {
    return false
  }
}

/** Whether a raw stdout log in `dir` has bytes. */
function printed(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => f.endsWith('.stdout') && statSync(join(dir, f)).size > 0)
  } catch {
    return false
  }
}

async function waitFor<T>(what: string, f: () => T | undefined, ms: number): Promise<T> {
  const t0 = Date.now()
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const NO_PROC = existsSync('/proc/self/environ') ? false : 'needs /proc (Linux) to read the process table'

// The three signals side by side: each sweep is found by its own marker.
suite('a real sweep stopped by a signal', { concurrency: 3 }, () => {
  for (const [sig, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGKILL', null],
  ] as const) {
    test(`${sig} of a sweep with a hanging benchmark leaves no process behind and a resumable set`, {
      skip: systemSkip(NO_PROC),
    }, async () => {
      const id = randomUUID()
      const dir = join(tmp('gpucomm-signal-'), 'out')
      const harness = execa(process.execPath, [BIN, 'sweep', ...ARGS, ...HANG, '--out', dir], {
        reject: false,
        cwd: ROOT,
        env: { ...CLEAN_ENV, GPUCOMM_SIGNAL_TEST: id },
        extendEnv: true,
      })
      try {
        const hung = await waitFor(
          'the hanging benchmark',
          () => marked(id).find((p) => p.pid !== harness.pid && / sim .*--fault hang/.test(p.cmd)),
          120_000,
        )
        // Its banner has arrived: it sits in the hang now (not still starting up).
        const raw = join(dir, 'raw', 'nccl.all_reduce~tp2~t1')
        await waitFor('the banner', () => (printed(raw) ? true : undefined), 120_000)
        harness.kill(sig)
        const r = await harness
        assert.equal(r.exitCode ?? null, code, String(r.stderr))
        // The whole sweep is gone: the benchmark, its group and the reaper (it ends once its work
        // is done). A process being torn down loses its environment before it becomes a zombie,
        // so the benchmark is also waited for by its pid.
        const gone = (): true | undefined => (marked(id).length === 0 && !running(hung.pid) ? true : undefined)
        await waitFor(`no process of the sweep (benchmark pid ${hung.pid})`, gone, 30_000)
        if (code !== null) {
          assert.equal(existsSync(join(dir, 'sweep.lock')), false, 'the lock is released')
          assert.equal((manifestOf(dir).extra?.sweep as SweepExtra).interrupted, true)
          assert.match(String(r.stdout), new RegExp(`interrupted \\(${sig}\\): .*--resume ${dir}`))
        } else
          assert.equal(existsSync(join(dir, 'sweep.lock')), true, 'SIGKILL leaves its lock (stale: the pid is gone)')
        // The resume in-process, through the sim executor (the same driver, no benchmark process).
        const resumed = await sweepIn(FLAGS, { resume: dir })
        assert.equal(resumed.code, 0, resumed.stderr)
        const outcomes = Object.values(manifestOf(dir).outcomes ?? {})
        assert.equal(outcomes.length, 2)
        assert.ok(
          outcomes.every((o) => o.status === 'ok'),
          JSON.stringify(outcomes),
        )
        assert.equal(
          existsSync(join(dir, 'sweep.lock')),
          false,
          `the resumed sweep released the lock: ${resumed.stderr}`,
        )
      } finally {
        for (const p of marked(id)) process.kill(p.pid, 'SIGKILL')
      }
    })
  }
})
