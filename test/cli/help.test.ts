/**
 * The fast `gpucomm --help` (src/cli/help.ts, no yargs) against yargs' own help screen, and
 * bin/gpucomm.js' choice between the compiled dist/ and the sources.
 */

import assert from 'node:assert/strict'
import { cpSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import type { CommandDef } from '../../src/cli/_types.ts'
import { COMMANDS } from '../../src/cli/commands/index.ts'
import { topLevelHelp } from '../../src/cli/help.ts'
import { main } from '../../src/cli/main.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'

/**
 * With a terminal of `width` columns: yargs' help screen as main prints it (yargs logs through
 * console.log), and the fast help's text at the width it picks itself.
 */
async function bothHelps(
  width: number,
  commands: readonly CommandDef[] = COMMANDS,
): Promise<{ yargs: string; fast: string | undefined }> {
  const log = console.log
  const had = Object.getOwnPropertyDescriptor(process.stdout, 'columns')
  Object.defineProperty(process.stdout, 'columns', { value: width, configurable: true })
  let out = ''
  let fast: string | undefined
  console.log = (...a: unknown[]) => void (out += `${a.join(' ')}\n`)
  try {
    fast = topLevelHelp(undefined, commands)
    const code = await main(
      ['--help'],
      {
        stdout: (t) => void (out += t),
        stderr: (t) => void (out += t),
        readStdin: async () => Buffer.alloc(0),
        isTTY: false,
      },
      commands,
    )
    assert.equal(code, 0)
  } finally {
    console.log = log
    if (had) Object.defineProperty(process.stdout, 'columns', had)
    else delete (process.stdout as { columns?: number }).columns
  }
  return { yargs: out, fast: fast === undefined ? undefined : `${fast}\n` }
}

const WIDTHS = [20, 33, 40, 57, 80, 100, 110, 200]

test('the fast help equals yargs’ help screen at every width', async () => {
  for (const w of WIDTHS) {
    const h = await bothHelps(w)
    assert.equal(h.fast, h.yargs, `width ${w}`)
  }
})

test('the fast help lays out long words, line breaks and narrow non-ASCII text as yargs does', async () => {
  const mk = (command: string, describe: string): CommandDef => ({
    command,
    describe,
    builder: (y) => y,
    run: async () => 0,
  })
  const commands = [
    mk('a-very-long-command-name-that-goes-on <with..> [optional]', 'short'),
    mk('x', 'Supercalifragilisticexpialidocious-and-then-some-more-characters-without-any-space at all, then words'),
    mk('two-lines', 'first line\nsecond line  with  double spaces and trailing space '),
    mk('greek', 'α–β fit, ±2 %, ≤ 10× wc -l, “quoted” … ×'),
    mk('empty', ''),
  ]
  for (const w of WIDTHS) {
    const h = await bothHelps(w, commands)
    assert.equal(h.fast, h.yargs, `width ${w}`)
  }
})

test('text the fast help cannot measure (wide, zero-width, tabs) is left to yargs', () => {
  const mk = (describe: string) => [{ command: 'x', describe }]
  assert.equal(topLevelHelp(80, mk('GPU 通信')), undefined)
  assert.equal(topLevelHelp(80, mk('fast 🚀')), undefined)
  assert.equal(topLevelHelp(80, mk('a\tb')), undefined)
  assert.equal(topLevelHelp(80, mk('e\u0301')), undefined)
  assert.equal(typeof topLevelHelp(80, mk('plain')), 'string')
})

test('bin/gpucomm.js --help prints yargs’ screen (non-TTY width 100) and exits 0', async () => {
  const r = await execa(process.execPath, [BIN, '--help'], { cwd: ROOT })
  assert.equal(`${r.stdout}\n`, (await bothHelps(100)).yargs)
})

/** A fake package: the real bin, tsx linked in, src/cli and dist/cli that say which one ran. */
function fakePackage(): string {
  const dir = tmp('gpucomm-bin-')
  mkdirSync(join(dir, 'bin'))
  cpSync(BIN, join(dir, 'bin', 'gpucomm.js'))
  cpSync(join(dirname(BIN), 'dist-fresh.js'), join(dir, 'bin', 'dist-fresh.js'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n')
  for (const [d, ext, who] of [
    ['src', 'ts', 'sources'],
    ['dist', 'js', 'compiled'],
  ] as const) {
    mkdirSync(join(dir, d, 'cli'), { recursive: true })
    writeFileSync(
      join(dir, d, 'cli', `main.${ext}`),
      `export async function runMain(): Promise<void> { process.stdout.write('${who} ' + process.argv.slice(2).join(' ')) }\n`.replace(
        ': Promise<void>',
        ext === 'js' ? '' : ': Promise<void>',
      ),
    )
    writeFileSync(join(dir, d, 'cli', `help.${ext}`), `export const topLevelHelp = () => '${who} help'\n`)
  }
  return dir
}

test('bin runs dist/ only while it was built after every change under src/', async () => {
  const dir = fakePackage()
  const run = async (...args: string[]) =>
    (await execa(process.execPath, [join(dir, 'bin', 'gpucomm.js'), ...args])).stdout
  assert.equal(await run('show', 'x'), 'sources show x', 'no dist/.built: the sources')
  const past = new Date(Date.now() - 60_000)
  utimesSync(join(dir, 'src', 'cli', 'main.ts'), past, past)
  utimesSync(join(dir, 'src', 'cli', 'help.ts'), past, past)
  writeFileSync(join(dir, 'dist', '.built'), `${Date.now() - 30_000}\n`)
  assert.equal(await run('show', 'x'), 'compiled show x')
  assert.equal(await run('--help'), 'compiled help')
  assert.equal(await run('--help', 'x'), 'compiled --help x', 'only a bare --help takes the fast path')
  writeFileSync(join(dir, 'src', 'cli', 'help.ts'), `export const topLevelHelp = () => 'edited help'\n`)
  assert.equal(await run('--help'), 'edited help', 'a source newer than the build wins')
  assert.equal(await run('show'), 'sources show')
})
