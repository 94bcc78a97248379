/**
 * Sweep progress as people see it. On a terminal: a live bar with the points done, elapsed,
 * ETA and the running point with its own clock, redrawn while the point runs; a point that
 * hangs is logged above the bar. Without a terminal, or with CI set: plain lines with no
 * carriage returns or escape codes. The bar's redraws are read in-process (every byte the bar
 * writes to a terminal stand-in); a real process in a tmux pane shows the screen people get.
 */
import assert from 'node:assert/strict'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { suite, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa } from 'execa'
import { sweepCommand } from '../../src/cli/_sweep-flow.ts'
import type { Executor } from '../../src/exec/index.ts'
import { liveLine } from '../../src/output/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'
import { systemSkip } from '../system.ts'
import { sweepIn } from './_sweep.ts'

const TMUX = ['/usr/bin/tmux', '/usr/local/bin/tmux'].find((p) => existsSync(p))
const skip = systemSkip(TMUX ? false : 'tmux is not installed (apt-get install tmux)')

/** A 2-point sweep whose p2p point hangs until the no-output timeout. */
const FLAGS: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-1',
  pairs: 'all',
  groupings: 'tp2',
  sizes: '8:1K:x4',
  trials: 1,
  seed: 3,
  timeoutS: 2,
  retries: 0,
  simFaults: ['p2p~0,1~t1=hang'],
}
/** The same sweep as `gpucomm sweep` flags. */
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
  '2',
  '--retries',
  '0',
  '--sim-fault',
  'p2p~0,1~t1=hang',
  '--out',
  out,
]
const HUNG = /^\[1\/2\] p2p~0,1~t1 hung: .*elapsed \d+:\d\d ETA \d+:\d\d$/m

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

/** A terminal stand-in: the bar draws on it as on a TTY; `text` is every byte written, in order. */
function fakeTerminal(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = ''
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString()
      done()
    },
  })
  return { stream: Object.assign(w, { isTTY: true, columns: 180, rows: 40 }), text: () => text }
}

/** The distinct clocks the bar showed for the running p2p point, in order. */
const clocks = (text: string): string[] => [
  ...new Set([...text.matchAll(/p2p~0,1~t1 running (\d+:\d\d)/g)].map((m) => m[1] as string)),
]

test('on a terminal: a live bar redrawn while the point runs, the hung point logged above it', async () => {
  const term = fakeTerminal()
  const sim = simExecutor()
  // The hung point returns (killed, as the watchdog would) only once the bar has drawn its
  // clock at two different seconds: the bar redraws on its own while a point runs.
  const executor: Executor = {
    async run(req) {
      if (req.command.args.includes('hang'))
        for (let i = 0; clocks(term.text()).length < 2; i++) {
          if (i > 600) assert.fail(`the bar never redrew the running point's clock:\n${term.text()}`)
          await sleep(50)
        }
      return sim.run(req)
    },
  }
  const r = await sweepCommand(
    { flags: FLAGS, out: join(tmp('gpucomm-live-'), 'set'), command: ['test'], root: tmp() },
    { stdout: () => {}, stderr: () => {}, isTTY: true, tty: term.stream },
    { executor },
  )
  assert.equal(r.code, 1)
  const text = term.text()
  const [a, b] = clocks(text)
  const at = (c: string | undefined) =>
    text.search(new RegExp(`\\[[█░]{24}\\] 0/2 elapsed \\d+:\\d\\d ETA – \\| p2p~0,1~t1 running ${c}`))
  assert.ok(at(a) >= 0 && at(b) > at(a), text)
  const later = at(b)
  const hung = text.search(/\[1\/2\] p2p~0,1~t1 hung: .*elapsed \d+:\d\d ETA \d+:\d\d/)
  assert.ok(hung > later, text)
  // The bar is drawn again below the logged line, and ends full.
  assert.match(text.slice(hung), /\[█{24}\] 2\/2 elapsed \d+:\d\d ETA \d+:\d\d/)
})

test('no terminal: plain lines only', async () => {
  const r = await sweepIn(FLAGS, { out: join(tmp('gpucomm-pipe-'), 'set') })
  assert.equal(r.code, 1, r.stderr)
  assert.match(r.stderr, /^sweep: 2 points to run/m)
  assert.match(r.stderr, HUNG)
  assert.match(r.stderr, /^\[2\/2\] nccl\.all_reduce~tp2~t1 ok /m)
  assert.doesNotMatch(r.stderr, /[\r\x1b█░]/)
})

// The real process in a tmux pane, on a terminal and with CI set, side by side.
suite('gpucomm sweep in a tmux pane', { skip, concurrency: 2 }, () => {
  test('on a terminal: the hung point above the full bar', { timeout: 120_000 }, async () => {
    const { pane, done } = await inTmux(join(tmp('gpucomm-live-'), 'set'), '')
    try {
      const end = await waitFor(pane, /^result set: /m, 100)
      assert.match(end, HUNG)
      assert.match(end, /\[█{24}\] 2\/2 elapsed/)
      assert.ok(end.search(HUNG) < end.search(/\[█{24}\] 2\/2 elapsed/), end)
    } finally {
      await done()
    }
  })

  test('CI set on a terminal: plain lines only', { timeout: 120_000 }, async () => {
    const { pane, done } = await inTmux(join(tmp('gpucomm-ci-'), 'set'), '1')
    try {
      const end = await waitFor(pane, /^result set: /m, 100)
      assert.match(end, HUNG)
      assert.doesNotMatch(end, /[█░]|running \d/)
    } finally {
      await done()
    }
  })
})
