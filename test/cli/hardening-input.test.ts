/**
 * Bad input is caught before anything is written, in one line with exit 2; a torn line in a
 * set gets the same treatment from every command that reads it (a warning with the count, the
 * other rows used, exit 0); small messages that contradicted themselves.
 */
import assert from 'node:assert/strict'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { main } from '../../src/cli/main.ts'
import { failed } from '../../src/errors/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { cli, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

const SIM = ['sweep', '--instrument', 'sim', '--preset', 'seed-vm']

/** Exit 2, one line on stderr matching `re`, no stack. */
function assertBad(r: { code: number; stderr: string }, re: RegExp, what: string): void {
  assert.equal(r.code, 2, `${what}: exit ${r.code}: ${r.stderr}`)
  assert.equal(r.stderr.trim().split('\n').length, 1, `${what}: ${r.stderr}`)
  assert.match(r.stderr, re, what)
}

test('sweep: a collective, a GPU or a size that cannot be is refused before the set is created', async () => {
  const dir = tmp()
  const cases: [string[], RegExp][] = [
    [['--gpus', '0-3', '--collectives', 'nope'], /--collectives: "nope" is not a collective \(known: all_reduce, /],
    [['--gpus', '0-3', '--collectives', 'hypercube'], /the simulator does not model hypercube/],
    [['--gpus', '0-99'], /--gpus: GPU 8 does not exist in preset seed-vm \(0-7\)/],
    [['--gpus', '0-3', '--sizes', '-8:1K:x2'], /--sizes: "-8" is not a size/],
  ]
  for (const [i, [args, re]] of cases.entries()) {
    const out = join(dir, `set-${i}`)
    assertBad(await cli([...SIM, ...args, '--out', out]), re, args.join(' '))
    assert.equal(existsSync(out), false, `${args.join(' ')}: ${out} was created`)
  }
})

test('sweep --gpus 0-4095 --pairs all --dry-run: the plan cap is stated in one line, at once', async () => {
  const t0 = performance.now()
  const r = await cli([...SIM, '--gpus', '0-4095', '--pairs', 'all', '--dry-run'])
  assertBad(r, /4096 GPUs make 16773120 ordered pairs; a plan holds at most 65536 pairs/, 'pairs cap')
  assert.ok(performance.now() - t0 < 5000, `${performance.now() - t0} ms`)
  const heap = process.memoryUsage().heapUsed
  assert.ok(heap < 1e9, `${heap} bytes of heap after the refusal`)
})

test('number flags given words, and unknown choices, are one line naming the flag', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 71, groups: [[0, 1, 2, 3]] })
  assertBad(await cli(['analyze', set, '--seed', 'abc']), /^gpucomm: --seed: "abc" is not a number$/m, 'analyze --seed')
  assertBad(await cli(['diff', set, set, '--alpha', 'x']), /--alpha: "x" is not a number/, 'diff --alpha')
  assertBad(
    await cli(['plot', set, '--kind', 'nope', '--out', join(tmp(), 'p')]),
    /^gpucomm: --kind: "nope" is not one of latency, busbw, heatmap/m,
    'plot --kind',
  )
  // A plain negative number still reaches the flag's own check.
  assertBad(
    await cli([...SIM, '--gpus', '0-3', '--trials', '-2', '--dry-run']),
    /--trials: must be a whole number ≥ 1 \(got -2\)/,
    'trials',
  )
})

test('a torn line: show, export, analyze, compare, diff, report and plot all warn once with the count and go on (exit 0)', async () => {
  const set = await simSet({
    preset: 'seed-vm',
    seed: 72,
    groups: [
      [0, 1, 2, 3],
      [0, 1],
    ],
  })
  // The rows as a schema-1 samples.jsonl (what a torn line can be in; parts are written whole).
  const lines = (await loadSet(set)).rows.map((r) => JSON.stringify(r))
  rmSync(join(set, 'samples'), { recursive: true })
  lines.splice(3, 1, '{"bench":"nccl.all_reduce","metric":"time","unit":"s","val')
  writeFileSync(join(set, 'samples.jsonl'), lines.join('\n'))
  const out = tmp()
  const runs: string[][] = [
    ['show', set],
    ['export', set, '--format', 'csv'],
    ['analyze', set],
    ['compare', set, '--by', 'grouping'],
    ['diff', set, set],
    ['report', set, '--out', join(out, 'r.html')],
    ['plot', set, '--kind', 'latency', '--out', join(out, 'charts')],
  ]
  for (const args of runs) {
    const r = await cli(args)
    assert.equal(r.code, 0, `${args[0]}: exit ${r.code}: ${r.stderr}`)
    const warnings = r.stderr.split('\n').filter((l) => l.includes('corrupt line'))
    assert.equal(warnings.length, 1, `${args[0]}: ${r.stderr}`)
    assert.match(
      warnings[0] as string,
      /^gpucomm: warning: .*samples\.jsonl: 1 corrupt line skipped, the other rows used \(line 4: not valid JSON/,
    )
  }
})

test('compare --by AXIS with nothing on that axis suggests the other axes, not the same one', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 73, p2p: false, groups: [[0, 1, 2, 3]] })
  const r = await cli(['compare', set, '--by', 'p2p'])
  assertBad(r, /no time rows carry "p2p"; try --by grouping, placement, env\.NAME or host-axis$/m, 'compare --by p2p')
  assert.doesNotMatch(r.stderr, /try --by[^"]*\bp2p\b/)
})

test('import --help: the files are required, with no contradicting "[default: []]"', async () => {
  const r = await cli(['import', '--help'])
  assert.equal(r.code, 0)
  const files = r.stdout.split('\n').find((l) => /^\s*files\s/.test(l)) ?? ''
  assert.match(files, /\[required\]/)
  assert.doesNotMatch(r.stdout, /\[default: \[\]\]/)
})

test('a failure (exit 1) naming a file with a newline or an escape is still one stderr line', async () => {
  let stderr = ''
  const io = {
    stdout: () => {},
    stderr: (t: string) => void (stderr += t),
    readStdin: async () => Buffer.from(''),
    isTTY: false,
  }
  const evil = '/tmp/x\ngpucomm: all good, nothing failed\u001b[2K'
  const code = await main(['boom'], io, [
    {
      command: 'boom',
      describe: 'fails',
      builder: (y) => y,
      run: async () => Promise.reject(failed(`${evil}: cannot read`)),
    },
  ])
  assert.equal(code, 1)
  assert.equal(stderr.split('\n').length, 2, stderr)
  assert.equal(stderr, 'gpucomm: /tmp/x\\ngpucomm: all good, nothing failed\\x1b[2K: cannot read\n')
})
