/**
 * The documented commands cannot drift from the code (as benchstat runs its doc examples):
 * every `--help` example (each command's `.example(…)`) and every `gpucomm …` line of the
 * README's sh blocks is parsed by the real CLI (known command, known flags, valid choices:
 * exit 0 with the command's run replaced by a recorder; lines that need a GPU, a network or
 * files we do not have are checked this way only). The examples of the commands that read a
 * result set (show, analyze, compare, diff, export) then run for real, in-process, against one
 * small SIMULATED set, and the README's `sim` lines print their text.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { CommandDef, Io } from '../../src/cli/_types.ts'
import { COMMANDS } from '../../src/cli/commands/index.ts'
import { main } from '../../src/cli/main.ts'
import { cli, ROOT, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

/** Each command's `--help` examples, read by running its builder against a recorder. */
function helpExamples(): { command: string; line: string }[] {
  const out: { command: string; line: string }[] = []
  for (const c of COMMANDS) {
    const rec: unknown = new Proxy(
      {},
      {
        get: (_t, name) =>
          name === 'example'
            ? (line: string) => {
                out.push({ command: c.command, line })
                return rec
              }
            : () => rec,
      },
    )
    c.builder(rec as Parameters<CommandDef['builder']>[0])
  }
  return out
}

/** `gpucomm …` lines of the README's sh blocks (continuations joined, comments dropped), usage synopses left out. */
function readmeLines(): { runnable: string[]; synopses: string[] } {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const runnable: string[] = []
  const synopses: string[] = []
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = (block[1] ?? '').replace(/\\\n\s*/g, ' ')
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim()
      if (!/^(npx )?gpucomm /.test(line)) continue
      // A synopsis ("[--json]", "A|B", "…") documents the flags, not one command line.
      if (/[[\]|…]|\.\.\./.test(line)) synopses.push(line)
      else runnable.push(line.replace(/^npx /, ''))
    }
  }
  return { runnable, synopses }
}

/** Shell words of a documented line: quotes kept together, a redirection and what follows dropped. */
function words(line: string): string[] {
  const w = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '')
  const cut = w.indexOf('>')
  return (cut >= 0 ? w.slice(0, cut) : w).slice(1) // without "gpucomm"
}

const io = (): Io & { out: string[] } => {
  const out: string[] = []
  return {
    out,
    stdout: (t) => void out.push(t),
    stderr: (t) => void out.push(t),
    readStdin: async () => Buffer.alloc(0),
    isTTY: false,
  }
}

/** Parses `argv` with the real CLI, each command's run replaced by a recorder: the command that would run, or the error. */
async function parse(argv: string[]): Promise<{ code: number; ran?: string; said: string }> {
  let ran: string | undefined
  const commands = COMMANDS.map((c) => ({
    ...c,
    run: async () => {
      ran = c.command
      return 0
    },
  }))
  const o = io()
  const code = await main(argv, o, commands)
  return { code, ...(ran === undefined ? {} : { ran }), said: o.out.join('') }
}

test('every --help example and every README command line parses and reaches its command', async () => {
  const help = helpExamples()
  assert.ok(help.length >= 20, `${help.length} examples`)
  for (const c of COMMANDS) {
    const name = c.command.split(' ')[0] as string
    assert.ok(
      help.some((e) => e.line.startsWith(`gpucomm ${name}`)),
      `${name}: no --help example`,
    )
  }
  const { runnable, synopses } = readmeLines()
  assert.ok(runnable.length >= 15 && synopses.length >= 3, `${runnable.length} lines, ${synopses.length} synopses`)
  for (const line of [...help.map((e) => e.line), ...runnable]) {
    const argv = words(line)
    const r = await parse(argv)
    assert.equal(r.code, 0, `${line}: ${r.said}`)
    assert.equal(r.ran?.split(' ')[0], argv[0], line)
  }
  // The check can fail: an unknown flag is refused.
  assert.equal((await parse(['show', 'x', '--no-such-flag'])).code, 2)
})

test('the README names every chart kind and every command', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const { CHART_KINDS } = await import('../../src/output/index.ts')
  for (const k of CHART_KINDS) assert.match(readme, new RegExp(`- \`${k.id}\``), `chart kind ${k.id}`)
  for (const c of COMMANDS) assert.ok(readme.includes(`gpucomm ${c.command.split(' ')[0]}`), c.command)
})

test('the examples of commands that read a result set run for real on a small SIMULATED set', async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 1, sizes: [8, 4096, 1 << 20], trials: 2 })
  const dir = tmp('gpucomm-doc-')
  const reads = new Set(['show', 'analyze', 'compare', 'diff', 'export'])
  let ran = 0
  for (const e of helpExamples()) {
    const argv = words(e.line)
    if (!reads.has(argv[0] as string)) continue
    // Any documented result-set directory is the simulated set; a file to write goes to a temp dir.
    const args = argv.map((w, i) =>
      argv[i - 1] === '--out' ? join(dir, w) : /^(results\/\w+|vm|bare|base|head)$/.test(w) ? set : w,
    )
    const r = await cli(args)
    assert.equal(r.code, 0, `${e.line}: ${r.stderr}`)
    assert.ok(r.stdout.length > 0 || argv.includes('--out'), e.line)
    ran++
  }
  assert.ok(ran >= 8, `${ran} examples ran`)
  for (const line of readmeLines().runnable.filter((l) => l.startsWith('gpucomm sim '))) {
    const r = await cli(words(line))
    assert.equal(r.code, 0, `${line}: ${r.stderr}`)
    assert.match(r.stdout, /\S/, line)
  }
})

test('a simulated sweep without --gpus plans every GPU of its preset, as a bare sweep does', async () => {
  for (const preset of ['seed-vm', 'baremetal-turin']) {
    const r = await cli(['sweep', '--instrument', 'sim', '--preset', preset, '--dry-run'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /; gpus 0-7; pairs 56\n/, preset)
  }
})
