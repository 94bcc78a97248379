/**
 * Sweep progress as people see it. On a terminal (a tmux pane): a live bar with the points
 * done, elapsed, ETA and the running point with its own clock, redrawn while the point runs;
 * a point that hangs is logged above the bar. Without a terminal, or with CI set: plain lines
 * with no carriage returns or escape codes.
 */
import assert from 'node:assert/strict'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa } from 'execa'
import { liveLine } from '../../src/present/index.ts'
import { BIN, bin, ROOT, tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'

const TMUX = ['/usr/bin/tmux', '/usr/local/bin/tmux'].find((p) => existsSync(p))
const skip = systemSkip(TMUX ? false : 'tmux is not installed (apt-get install tmux)')

/** A 2-point sweep whose p2p point hangs until the 5 s timeout: long enough to watch it run. */
const sweepArgs = (out: string): string[] => [
  'sweep',
  '--instrument',
  'sim',
  '--preset',
  'seed-vm',
  '--gpus',
  '0-1',
  '--pairs',
  'all',
  '--groupings',
  'tp2',
  '--sizes',
  '8:1K:x4',
  '--trials',
  '1',
  '--seed',
  '3',
  '--timeout',
  '5',
  '--sim-fault',
  'p2p~0,1~t1=hang',
  '--out',
  out,
]

test('liveLine: done/total, elapsed, ETA counting down from the last point, the running point and its clock', () => {
  const s = { started: 0, pointStarted: 50_000, point: 'p2p~0,1~t1', eta: { s: 120, at: 40_000 } }
  assert.equal(
    liveLine(s, 3, 9, 62_000, () => '###'),
    '[###] 3/9 elapsed 1:02 ETA 1:38 | p2p~0,1~t1 running 0:12',
  )
  assert.equal(
    liveLine({ started: 0, pointStarted: 0, point: '' }, 0, 4, 1_000, () => ''),
    '[] 0/4 elapsed 0:01 ETA –',
  )
})

/** Runs the sweep in a detached tmux pane (CI as given) and returns a function reading the pane. */
async function inTmux(out: string, ci: string): Promise<{ pane: () => Promise<string>; done: () => Promise<void> }> {
  // The server's socket lives in the test's own temp dir (-S), removed with it; a named socket
  // (-L) stays behind in /tmp/tmux-UID after kill-server.
  const dir = tmp('gpucomm-tmux-')
  const sock = join(dir, `sock-${ci || 'tty'}`)
  const conf = join(dir, 'tmux.conf')
  writeFileSync(conf, 'set -g remain-on-exit on\n')
  const t = (args: string[]) => execa(TMUX as string, ['-S', sock, '-f', conf, ...args], { reject: false })
  await t(['new-session', '-d', '-x', '180', '-y', '40', '-c', ROOT, '-e', `CI=${ci}`])
  await t(['respawn-pane', '-k', '-t', '0', '-c', ROOT, '-e', `CI=${ci}`, process.execPath, BIN, ...sweepArgs(out)])
  return {
    pane: async () => (await t(['capture-pane', '-p', '-t', '0'])).stdout,
    done: async () => {
      await t(['kill-server'])
      rmSync(sock, { force: true })
    },
  }
}

/** Polls the pane until `re` matches, or fails after `s` seconds. */
async function waitFor(pane: () => Promise<string>, re: RegExp, s: number): Promise<string> {
  const until = Date.now() + s * 1000
  for (;;) {
    const text = await pane()
    if (re.test(text)) return text
    if (Date.now() > until) assert.fail(`pane never matched ${re}:\n${text}`)
    await sleep(250)
  }
}

test('on a terminal: a live bar redrawn while the point runs, the hung point kept above it', {
  skip,
  timeout: 120_000,
}, async () => {
  const out = join(tmp('gpucomm-live-'), 'set')
  const { pane, done } = await inTmux(out, '')
  try {
    const running = /\] 0\/2 elapsed (\d+):(\d\d) ETA – \| p2p~0,1~t1 running 0:0(\d)/
    const a = running.exec(await waitFor(pane, running, 40))
    // The same point, a later second on its clock: the line is redrawn while the point runs.
    const later = new RegExp(`p2p~0,1~t1 running 0:0([${Number(a?.[3]) + 1}-9])`)
    const b = await waitFor(pane, later, 8)
    assert.match(b, /\[[█░]{24}\] 0\/2 elapsed \d+:\d\d ETA –/)
    const end = await waitFor(pane, /^result set: /m, 60)
    assert.match(end, /^\[1\/2\] p2p~0,1~t1 hung: .*elapsed \d+:\d\d ETA \d+:\d\d$/m)
    assert.match(end, /\[█{24}\] 2\/2 elapsed/)
  } finally {
    await done()
  }
})

test('CI set on a terminal, and no terminal: plain lines only', { skip, timeout: 120_000 }, async () => {
  const out = join(tmp('gpucomm-ci-'), 'set')
  const { pane, done } = await inTmux(out, '1')
  try {
    const end = await waitFor(pane, /^result set: /m, 60)
    assert.match(end, /^\[1\/2\] p2p~0,1~t1 hung: .*elapsed \d+:\d\d ETA \d+:\d\d$/m)
    assert.doesNotMatch(end, /[█░]|running \d/)
  } finally {
    await done()
  }
  const r = await bin(sweepArgs(join(tmp('gpucomm-pipe-'), 'set')), { env: { CI: '' } })
  assert.equal(r.code, 1, r.stderr)
  assert.match(r.stderr, /^sweep: 2 points to run/m)
  assert.match(r.stderr, /^\[1\/2\] p2p~0,1~t1 hung: .*elapsed \d+:\d\d ETA \d+:\d\d$/m)
  assert.match(r.stderr, /^\[2\/2\] nccl\.all_reduce~tp2~t1 ok /m)
  assert.doesNotMatch(r.stderr, /[\r\x1b█░]/)
})
