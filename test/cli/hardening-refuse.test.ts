/**
 * Issue #35, items 4, 5, 7 and 8 through the command line, in-process: command lines that must
 * be refused (exit 2, one line, nothing written), a damaged part through every command that
 * reads a set (one warning, the other rows used, exit 0), links in a set replaced or refused,
 * never written through, and names from files that cannot forge a line of stderr.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openDuck } from '../../src/resultset/_duck.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { sweepIn, TWO_GPU_SIM } from '../e2e/_sweep.ts'
import { cli, FIXTURES, tmp } from '../helpers.ts'

const FLAGS: SpecInput = {
  ...TWO_GPU_SIM,
  sizes: '8',
  trials: 2,
  seed: 35,
}
const NVBW_JSON = join(FIXTURES, 'nvbandwidth', 'generated-4gpu-v0.8-partial-peer-access.json')

/** Exit 2, one line on stderr matching `re`. */
function assertBad(r: { code: number; stderr: string }, re: RegExp, what: string): void {
  assert.equal(r.code, 2, `${what}: exit ${r.code}: ${r.stderr}`)
  assert.equal(r.stderr.trim().split('\n').length, 1, `${what}: ${r.stderr}`)
  assert.match(r.stderr, re, what)
}

/** A finished sim sweep of a few points (one part each). */
async function sweepSet(): Promise<string> {
  const out = join(tmp('gpucomm-refuse-'), 'set')
  const r = await sweepIn(FLAGS, { out })
  assert.equal(r.code, 0, r.stderr)
  return out
}

test('--out where nothing can be created: exit 2 at once, for every command that writes', async () => {
  const set = await sweepSet()
  const file = join(tmp(), 'plain.txt')
  writeFileSync(file, 'x')
  const runs: string[][] = [
    ['import', NVBW_JSON, '--out', '/proc/x'],
    ['plot', set, '--kind', 'latency', '--out', '/proc/x'],
    ['report', set, '--out', '/proc/x/r.html'],
    ['export', set, '--format', 'csv', '--out', '/proc/x.csv'],
    ['sweep', '--instrument', 'sim', '--preset', 'seed-vm', '--gpus', '0-1', '--out', '/proc/x'],
    ['import', NVBW_JSON, '--out', join(file, 'set')],
  ]
  for (const args of runs)
    assertBad(
      await cli(args),
      /^gpucomm: --out .*: (nothing can be created in \/proc \(E\w+\)|.* is not a directory)$/m,
      args[0] ?? '',
    )
})

test('command lines refused in one line, nothing written', async () => {
  const set = await sweepSet()
  const d = tmp()
  const banner = join(d, 'p2p.txt')
  writeFileSync(banner, '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n')
  assertBad(
    await cli(['import', banner, '--out', join(d, 'b')]),
    /p2p\.txt: no rows to import \(line 1: .*\); nothing written/,
    'banner',
  )
  assert.equal(existsSync(join(d, 'b')), false)
  assertBad(
    await cli(['report', set, '--model', 'bogus', '--out', join(d, 'r.html')]),
    /--model bogus: no such preset \(known: glm-5/,
    'model',
  )
  assert.equal(existsSync(join(d, 'r.html')), false)
  const before = readFileSync(join(set, 'manifest.json'), 'utf8')
  assertBad(
    await cli(['sweep', '--resume', set, '--out', join(d, 'other')]),
    /a resumed sweep writes into its own set; drop --out/,
    'resume --out',
  )
  assert.equal(existsSync(join(d, 'other')), false)
  assertBad(
    await cli(['sweep', '--resume', set, '--trials', '5']),
    /give --resume DIR alone to continue its sweep as planned, or its whole command line again/,
    'resume --trials',
  )
  assert.equal(readFileSync(join(set, 'manifest.json'), 'utf8'), before)
  assertBad(
    await cli(['compare', set, '--dtype-bytes', '3.5']),
    /--dtype-bytes: expected a whole number ≥ 1, got 3\.5/,
    'dtype',
  )
  // A set whose samples/ is gone: its manifest lists parts no reader can find.
  rmSync(join(set, 'samples'), { recursive: true })
  assertBad(await cli(['show', set]), /no samples\/ folder; the \d+ part\(s\) its manifest lists are missing/, 'show')
})

test('nvbandwidth -j with a top-level "error" (its data check ASSERT): the import fails, the run marked corrupt', async () => {
  const d = tmp()
  const doc = JSON.parse(readFileSync(NVBW_JSON, 'utf8'))
  doc.nvbandwidth.error = 'Invalid value when checking the pattern at 0x7f: expected 0xdeadbeef'
  const file = join(d, 'assert.json')
  writeFileSync(file, JSON.stringify(doc, null, 1))
  const r = await cli(['import', file, '--out', join(d, 'set')])
  assert.equal(r.code, 1, r.stderr)
  assert.match(r.stderr, /corrupt-run: nvbandwidth error, the run is corrupt: Invalid value when checking the pattern/)
})

/** Replaces part 2 of `set` with a Parquet file of other columns, its sha256 recorded (a hostile set). */
async function wrongSchema(set: string): Promise<string> {
  const m = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
  const file = join(set, 'samples', m.parts[1].file)
  rmSync(file)
  const db = await openDuck()
  await db.conn.run(`COPY (SELECT 1 AS bench, 'x' AS metric) TO '${file}' (FORMAT parquet)`)
  db.close()
  m.parts[1].sha256 = createHash('sha256').update(readFileSync(file)).digest('hex')
  writeFileSync(join(set, 'manifest.json'), JSON.stringify(m))
  return m.parts[1].file
}

test('a part of other columns, or with a flipped byte: every reading command and sweep --resume warn once and go on (exit 0)', async () => {
  for (const damage of ['schema', 'flip'] as const) {
    const set = await sweepSet()
    const m = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
    let part = m.parts[1].file as string
    if (damage === 'schema') part = await wrongSchema(set)
    else {
      const bytes = readFileSync(join(set, 'samples', part))
      const at = Math.floor(bytes.length / 3)
      bytes[at] = (bytes[at] as number) ^ 0x20
      writeFileSync(join(set, 'samples', part), bytes)
    }
    const out = tmp()
    const runs: string[][] = [
      ['show', set],
      ['export', set],
      ['export', set, '--format', 'csv'],
      ['export', set, '--format', 'parquet', '--out', join(out, 'x.parquet')],
      ['analyze', set],
      ['compare', set],
      ['diff', set, set],
      ['report', set, '--out', join(out, 'r.html')],
      ['plot', set, '--kind', 'heatmap', '--out', join(out, 'plots')],
    ]
    for (const args of runs) {
      const r = await cli(args)
      const what = `${damage}: ${args.slice(0, 3).join(' ')}`
      assert.equal(r.code, 0, `${what}: ${r.stderr}`)
      const warnings = r.stderr.split('\n').filter((l) => l.includes(part))
      assert.equal(warnings.length, 1, `${what}: ${r.stderr}`) // diff reads the set twice, warns once
      assert.match(warnings[0] ?? '', /^gpucomm: warning: .*: unreadable part skipped, the other rows used \(/, what)
    }
    assert.ok(readFileSync(join(out, 'x.parquet')).length > 0)
    // sweep --resume of the set with one point left to run: the part is left out, named once.
    const left = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
    delete left.outcomes[Object.keys(left.outcomes)[3] as string]
    writeFileSync(join(set, 'manifest.json'), JSON.stringify(left))
    const r = await sweepIn(FLAGS, { resume: set })
    assert.equal(r.code, 0, `${damage}: resume: ${r.stderr}`)
    const named = r.stderr.split('\n').filter((l) => l.includes(part))
    assert.equal(named.length, 1, r.stderr)
    assert.match(named[0] ?? '', /^resume: left out a damaged part: /)
  }
})

test('links in a set: samples/ refused, raw/<point>/ and report.html replaced, never written through', async () => {
  const set = await sweepSet()
  const outside = tmp('gpucomm-outside-')
  writeFileSync(join(outside, 'keep.txt'), 'untouched')
  // samples/ linked out of the set: readers and writers refuse it.
  const samples = join(set, 'samples')
  const moved = join(outside, 'samples')
  mkdirSync(moved)
  for (const f of readdirSync(samples)) writeFileSync(join(moved, f), readFileSync(join(samples, f)))
  rmSync(samples, { recursive: true })
  symlinkSync(moved, samples)
  assertBad(await cli(['show', set]), /samples: a link, not the set's own folder/, 'show through a link')
  await assert.rejects(sweepIn(FLAGS, { resume: set }), /samples: a link, not the set's own folder/)
  assert.deepEqual(
    readdirSync(moved).filter((f) => f.endsWith('.tmp')),
    [],
  )
  // report.html linked to a file outside: the page replaces the link.
  rmSync(samples)
  mkdirSync(samples)
  for (const f of readdirSync(moved)) writeFileSync(join(samples, f), readFileSync(join(moved, f)))
  symlinkSync(join(outside, 'keep.txt'), join(set, 'report.html'))
  assert.equal((await cli(['report', set, '--out', join(set, 'report.html')])).code, 0)
  assert.equal(readFileSync(join(outside, 'keep.txt'), 'utf8'), 'untouched')
  assert.match(readFileSync(join(set, 'report.html'), 'utf8'), /<html/i)
})

test('import --append: a link planted where the raw copy goes is replaced, its target untouched', async () => {
  const d = tmp()
  const set = join(d, 'set')
  assert.equal((await cli(['import', NVBW_JSON, '--out', set])).code, 0)
  const target = join(d, 'victim.txt')
  writeFileSync(target, 'untouched')
  const copy = join(d, 'again.json')
  writeFileSync(copy, readFileSync(NVBW_JSON))
  symlinkSync(target, join(set, 'raw', '001-again.json'))
  const r = await cli(['import', copy, '--append', '--out', set])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(readFileSync(target, 'utf8'), 'untouched')
  assert.equal(readFileSync(join(set, 'raw', '001-again.json'), 'utf8'), readFileSync(NVBW_JSON, 'utf8'))
})

test('--resume: a link planted at raw/<point>/ is replaced by a folder, never written through', async () => {
  const set = await sweepSet()
  const m = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
  const id = Object.keys(m.outcomes).find((k) => k.startsWith('nccl.')) as string
  delete m.outcomes[id] // the point runs again on --resume
  writeFileSync(join(set, 'manifest.json'), JSON.stringify(m))
  const outside = tmp('gpucomm-outside-')
  const raw = join(set, 'raw', id)
  rmSync(raw, { recursive: true })
  symlinkSync(outside, raw)
  const r = await sweepIn(FLAGS, { resume: set })
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(readdirSync(outside), [])
  assert.ok(readdirSync(raw).some((f) => f.endsWith('.stdout')))
})

test('a file name with a line break or an escape prints as one line', async () => {
  const d = tmp()
  const name = join(d, 'x\ngpucomm: all good\u001b[2K.txt')
  writeFileSync(name, 'not a benchmark log\n')
  const r = await cli(['import', name, '--out', join(d, 'set')])
  assertBad(r, /x\\ngpucomm: all good\\x1b\[2K\.txt: not in any format gpucomm knows/, 'newline')
})
