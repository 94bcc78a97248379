/**
 * `gpucomm sim`: as a real process, its output byte for byte, MPI/Slurm ranks (read from the
 * process's environment) and the faults that are process behaviour (hang, crash: a signal); the
 * rest in-process (the same command through `main`, whose return is the exit code): determinism,
 * the faults that end in an exit code, bad input, import → simulated.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { execa } from 'execa'
import { SIM_MARKER } from '../../src/model/index.ts'
import { detectParser } from '../../src/parsers/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { BIN, cli, ROOT, tmp } from '../helpers.ts'

const BASE = [
  'sim',
  '--preset',
  'seed-vm',
  '--format',
  'nccl-tests',
  '--gpus',
  '0-7',
  '--sizes',
  '8:64M:x2',
  '--seed',
  '4',
]
/** Launcher variables stripped from the test's own environment, so only what a test sets counts. */
const CLEAN = Object.fromEntries(
  [
    'OMPI_COMM_WORLD_RANK',
    'OMPI_COMM_WORLD_SIZE',
    'PMI_RANK',
    'PMI_SIZE',
    'SLURM_PROCID',
    'SLURM_NTASKS',
    'SLURM_STEP_NUM_TASKS',
  ].map((k) => [k, undefined]),
)

const run = (args: readonly string[], env: Record<string, string> = {}, timeout = 30_000) =>
  execa(process.execPath, [BIN, ...args], {
    reject: false,
    cwd: ROOT,
    timeout,
    env: { ...CLEAN, ...env },
    extendEnv: true,
    stripFinalNewline: false,
  })

// Three tests at a time: most wait on their processes.
suite('gpucomm sim as a process', { concurrency: 3 }, () => {
  test('prints exactly what simulate() returns, exit 0; the same flags twice give the same bytes', async () => {
    const a = await run(BASE)
    const b = await cli(BASE)
    assert.equal(a.exitCode, 0)
    assert.equal(b.code, 0)
    assert.equal(a.stdout, b.stdout)
    assert.equal(
      a.stdout,
      simulate({
        preset: 'seed-vm',
        format: 'nccl-tests',
        gpus: [0, 1, 2, 3, 4, 5, 6, 7],
        sizes: Array.from({ length: 24 }, (_, i) => 8 * 2 ** i),
        seed: 4,
      }),
    )
    assert.equal(a.stdout.split('\n')[0], SIM_MARKER)
    const c = await cli([...BASE.slice(0, -1), '5'])
    assert.notEqual(a.stdout, c.stdout)
  })

  test('under mpirun / srun: rank 0 prints the whole log with one rank line per rank; other ranks print nothing', async () => {
    const other = await run(BASE, { OMPI_COMM_WORLD_RANK: '1', OMPI_COMM_WORLD_SIZE: '2' })
    assert.equal(other.exitCode, 0)
    assert.equal(other.stdout, '')
    const pmi = await run(BASE, { PMI_RANK: '3', PMI_SIZE: '4' })
    assert.equal(pmi.stdout, '')
    const zero = await run(BASE, { OMPI_COMM_WORLD_RANK: '0', OMPI_COMM_WORLD_SIZE: '2' })
    assert.match(zero.stdout, /# nThread 1 nGpus 4 /)
    const ranks = zero.stdout.split('\n').filter((l) => l.startsWith('#  Rank'))
    assert.equal(ranks.length, 8)
    assert.equal(new Set(ranks.map((l) => /Pid +(\d+)/.exec(l)?.[1])).size, 2, 'two processes of four GPUs each')
    const slurm = await run(BASE, { SLURM_PROCID: '0', SLURM_NTASKS: '8' })
    assert.match(slurm.stdout, /# nThread 1 nGpus 1 /)
    assert.equal(
      new Set(
        slurm.stdout
          .split('\n')
          .filter((l) => l.startsWith('#  Rank'))
          .map((l) => /Pid +(\d+)/.exec(l)?.[1]),
      ).size,
      8,
    )
    const uneven = await run(BASE, { SLURM_PROCID: '0', SLURM_NTASKS: '3' })
    assert.equal(uneven.exitCode, 2)
    assert.match(uneven.stderr, /cannot be spread evenly over 3/)
  })

  test('--fault hang: prints the banner, then never exits until killed', async () => {
    // Waits for the banner (however long node takes to start on a loaded machine), then 2 s
    // more: a hang that ends, or prints the table, within them fails.
    const child = run([...BASE, '--fault', 'hang'], {}, 120_000)
    let out = ''
    let ended = false
    void child.finally(() => void (ended = true))
    await new Promise<void>((res) => {
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString()
        if (/# {2}Rank {2}7 Group/.test(out)) res()
      })
      void child.finally(() => res())
    })
    await new Promise((r) => setTimeout(r, 2000))
    assert.equal(ended, false, `the hang ended by itself: ${out}`)
    child.kill('SIGTERM')
    const r = await child
    assert.equal(r.signal, 'SIGTERM')
    assert.match(r.stdout, /# {2}Rank {2}7 Group/)
    assert.doesNotMatch(r.stdout, /# {7}size/)
  })

  test('--fault crash: part of the table, then death by SIGABRT', async () => {
    const r = await run([...BASE, '--fault', 'crash'])
    assert.equal(r.signal, 'SIGABRT')
    assert.match(r.stdout, /^ {11}8 /m)
    assert.doesNotMatch(r.stdout, /Avg bus bandwidth/)
  })

  test('--fault exit: part of the table and an nccl-tests failure line, exit status 1', async () => {
    const r = await cli([...BASE, '--fault', 'exit'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, /Test NCCL failure .*simulated fault/)
    assert.doesNotMatch(r.stdout, /Avg bus bandwidth/)
  })

  test('--fault truncated: stops mid-row without a newline, exit 0; garbage: no known format, exit 0', async () => {
    const t = await cli([...BASE, '--fault', 'truncated'])
    assert.equal(t.code, 0)
    assert.ok(!t.stdout.endsWith('\n'))
    assert.doesNotMatch(t.stdout, /Out of bounds/)
    const g = await cli([...BASE, '--fault', 'garbage'])
    assert.equal(g.code, 0)
    assert.equal(g.stdout.split('\n')[0], SIM_MARKER)
    assert.equal(detectParser(g.stdout.split('\n').slice(2).join('\n')), undefined)
  })

  test('--fault corrupt: non-zero #wrong cells, a FAILED footer and the failure trace, exit 1 as nccl-tests does', async () => {
    const r = await cli([...BASE, '--fault', 'corrupt'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, /# Out of bounds values : [1-9]\d* FAILED/)
    const wrong = r.stdout
      .split('\n')
      .filter((l) => /^\s+\d+\s+\d+\s+float/.test(l))
      .filter((l) => l.trim().split(/\s+/)[8] !== '0')
    assert.ok(wrong.length >= 1)
    assert.match(r.stdout, / \.\. sim-pve-vm pid \d+: Test failure common\.cu:1189/)
  })

  test('bad input: one line naming the problem, exit 2, nothing on stdout', async () => {
    for (const [args, msg] of [
      [['--preset', 'nope'], /--preset nope: unknown preset \(known: seed-vm, baremetal-turin, pcie-switch, nvlink\)/],
      [['--gpus', '0-9'], /GPU 8 does not exist in preset seed-vm/],
      [['--sizes', '8:4:x2'], /maximum is below the minimum/],
      [['--env', 'NCCL_P2P_LEVEL=FAR'], /NCCL_P2P_LEVEL=FAR/],
      [['--format', 'p2p', '--fault', 'corrupt'], /--fault corrupt needs --format nccl-tests/],
    ] as const) {
      const given = new Set<string>(args.filter((a) => a.startsWith('--')))
      const defaults = ['--preset', 'seed-vm', '--format', 'nccl-tests'].flatMap((a, i, all) =>
        i % 2 === 0 && !given.has(a) ? [a, all[i + 1] as string] : [],
      )
      const r = await cli(['sim', ...defaults, ...args])
      assert.equal(r.code, 2, args.join(' '))
      assert.equal(r.stdout, '')
      assert.match(r.stderr, msg)
      assert.equal(r.stderr.trim().split('\n').length, 1)
    }
  })

  test('gpucomm import of simulated output gives a manifest with "simulated": true', async () => {
    const dir = tmp()
    for (const format of ['nccl-tests', 'p2p'] as const) {
      const text = simulate({ preset: 'seed-vm', format, seed: 1, sizes: [8, 1024] })
      assert.ok(detectParser(text), `a registered parser detects simulated ${format} text`)
      const file = join(dir, `${format}.txt`)
      writeFileSync(file, text)
      const out = join(dir, `set-${format}`)
      const r = await cli(['import', file, '--out', out])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /\[SIMULATED\]/)
      assert.equal(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).simulated, true)
    }
  })
})
