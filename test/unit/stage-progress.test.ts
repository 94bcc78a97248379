/**
 * Progress of the long steps (issue 32 item 4): a step line per step off a terminal, one
 * redrawn line on a terminal, ended with the time taken when the job ends and with a bare
 * newline when it fails. And after a sweep: the analysis and the report show their steps on
 * stderr while stdout, piped, holds only the closing summary, its answer first.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { sweepCommand } from '../../src/cli/_sweep-flow.ts'
import { stageProgress } from '../../src/output/index.ts'
import { tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'

/** A sink writing into `out`, its clock moved by hand. */
function sink(tty: boolean) {
  const out: string[] = []
  let t = 0
  const s = stageProgress({ label: 'report', write: (x) => void out.push(x), tty, now: () => t, fps: 0 })
  return { out, s, at: (sec: number) => void (t = sec * 1000) }
}

test('off a terminal: one plain line per step with its number, then the time taken', () => {
  const { out, s, at } = sink(false)
  s.stage('analysis', 0, 3)
  at(12)
  s.stage('charts', 1, 3)
  at(75)
  s.done()
  s.done()
  assert.deepEqual(out, ['report [1/3] analysis … 0:00\n', 'report [2/3] charts … 0:12\n', 'report: done in 1:15\n'])
})

test('on a terminal: the line is redrawn in place and ends with a newline; a failed job ends its line bare', () => {
  const ok = sink(true)
  ok.s.stage('analysis', 0, 2)
  ok.at(3)
  ok.s.stage('writing the page', 1, 2)
  ok.s.done()
  assert.deepEqual(ok.out, [
    '\rreport [1/2] analysis … 0:00\x1b[K',
    '\rreport [2/2] writing the page … 0:03\x1b[K',
    '\rreport: done in 0:03\x1b[K\n',
  ])
  const bad = sink(true)
  bad.s.stage('analysis', 0, 0)
  bad.s.stop()
  bad.s.done()
  assert.deepEqual(bad.out, ['\rreport analysis … 0:00\x1b[K', '\n'])
})

test('after a sweep: analysis and report progress on stderr; stdout is the summary, its answer first', async () => {
  const out = join(tmp(), 'set')
  let stdout = ''
  let stderr = ''
  const r = await sweepCommand(
    {
      flags: {
        instrument: 'sim',
        preset: 'seed-vm',
        gpus: '0-3',
        groupings: 'tp4,tp2',
        sizes: '8:4K:x8',
        trials: 3,
        seed: 3,
      },
      out,
      command: ['test'],
      root: tmp(),
      after: true,
    },
    { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false },
    { executor: simExecutor() },
  )
  assert.equal(r.code, 0, stderr)
  const lines = stdout.trimEnd().split('\n')
  assert.match(lines[0] ?? '', /^SIMULATED sweep \(sim, preset seed-vm\): 9 points: 9 ok$/)
  assert.equal(lines[1], 'What sets the cost of moving data between these GPUs, and why?')
  assert.match(
    lines[2] ?? '',
    /^ {2}Small copies between GPUs .*host-staged copy through pinned host memory .*floor \d+(\.\d+)?–\d+(\.\d+)? µs over 12 PHB pairs\.$/,
  )
  assert.ok(lines.indexOf('Measured:') > 2, stdout)
  assert.equal(lines.at(-1), `report: ${join(out, 'report.html')} (every fit: gpucomm analyze ${out} --all)`)
  // Then each class's floor against its published band (#32): one line per class, in the words
  // (and with the band) of the report's summary; the floor inside the range it is said to be within.
  const from = lines.indexOf('Floors against the published bands:')
  assert.ok(from > lines.indexOf('Measured:'), stdout)
  const bands = lines.slice(from + 1, lines.indexOf(`result set: ${out}`))
  const classes = [
    'tp4: 1 group of 4 ranks',
    'tp2: 2 groups of 2 ranks',
    '4 GPUs to itself',
    'p2p=disabled (no peer access) ce, 12 PHB',
    'p2p=enabled (no peer access) ce, 12 PHB',
  ]
  assert.deepEqual(
    classes.map((c) => bands.filter((l) => l.includes(c)).length),
    classes.map(() => 1),
    bands.join('\n'),
  )
  const line = bands.find((l) => l.includes('p2p=enabled (no peer access) ce, 12 PHB')) ?? ''
  const m = /floor ([\d.]+)–([\d.]+) µs; within the published band (.*) \(([\d.]+)–([\d.]+) µs;/.exec(line)
  assert.ok(m, line)
  assert.ok(Number(m[1]) >= Number(m[4]) && Number(m[2]) <= Number(m[5]), line)
  const summary = /Small copies between GPUs cost [^<]*?within the published band ([^<]*?) \(\d/.exec(
    readFileSync(join(out, 'report.html'), 'utf8'),
  )
  assert.equal(m[3], summary?.[1], 'the sweep and the report state one band')
  assert.doesNotMatch(stdout, /analysis \[|report \[|done in/)
  assert.match(stderr, /^analysis \[1\/1\] fitting every pair and group … \d:\d\d$/m)
  assert.match(stderr, /^report \[1\/5\] reading the set … /m)
  assert.match(stderr, /^report \[5\/5\] writing the page … /m)
  assert.match(stderr, /^report: done in \d:\d\d$/m)
})

test('a cluster sweep shows each step on stderr as it starts, then the time taken; stdout keeps its summary', async () => {
  const out = join(tmp(), 'cluster')
  let stdout = ''
  let stderr = ''
  const r = await sweepCommand(
    {
      flags: {
        instrument: 'sim',
        preset: 'seed-vm',
        nodes: 2,
        pattern: 'per-node',
        sizes: '8:4K:x64',
        trials: 2,
        seed: 1,
      },
      out,
      command: ['test'],
      root: tmp(),
    },
    { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false },
  )
  assert.equal(r.code, 0, stderr)
  const steps = stderr.trimEnd().split('\n').slice(0, 2)
  assert.match(steps[0] ?? '', /^cluster \[1\/2\] per-node~all_reduce~t1 … \d:\d\d$/)
  assert.match(steps[1] ?? '', /^cluster \[2\/2\] per-node~all_reduce~t2 … \d:\d\d$/)
  assert.match(stderr, /^cluster: done in \d:\d\d$/m)
  assert.match(stdout, /^cluster: 2 nodes \(SIMULATED\), 2 steps, \d+ rows$/m)
  assert.doesNotMatch(stdout, /cluster \[/)
})
