/**
 * Hardening of the command line against careless and hostile use (issue: hardening): a killed
 * import leaves no half-written set, bad input is one line and exit 2, nothing is written
 * before the input is known good, exports keep the SIMULATED label.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa } from 'execa'
import { BIN, bin, cli, FIXTURES, ROOT, snapshot, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

const A100 = join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt')

// Each test has its own sets and processes: three at a time.
suite('hardening', { concurrency: 3 }, () => {
  test('SIGKILL in the middle of an import leaves no set without a manifest', async () => {
    const dir = tmp()
    const big = join(dir, 'big.log')
    const text = readFileSync(A100, 'utf8')
    writeFileSync(big, text.repeat(Math.ceil(40e6 / text.length)))
    const out = join(dir, 'set')
    const child = execa(process.execPath, [BIN, 'import', big, '--out', out], { cwd: ROOT, reject: false })
    // Wait until rows are being written (a part, or a part's temp file, in the set or wherever it
    // is being built), then kill. Up to two minutes: on a loaded machine the first part of
    // 131,072 rows can take that long.
    const writing = (): boolean =>
      readdirSync(dir).some((e) => {
        const s = join(dir, e, 'samples')
        return existsSync(s) && readdirSync(s).some((f) => /\.parquet(\.\d+\.tmp)?$/.test(f))
      })
    for (let i = 0; i < 2400 && !writing(); i++) await sleep(50)
    assert.ok(writing(), 'the import never started writing rows')
    child.kill('SIGKILL')
    await child
    assert.ok(!existsSync(out) || existsSync(join(out, 'manifest.json')), `${out} holds rows but no manifest`)
  })

  test('export of a simulated set labels every row SIMULATED (csv column, jsonl field); a real set has no such label', async () => {
    const set = await simSet({ preset: 'seed-vm', seed: 63 })
    const csv = await cli(['export', set, '--format', 'csv'])
    const [head, ...lines] = csv.stdout.trim().split('\n')
    const at = (head ?? '').split(',').indexOf('simulated')
    assert.ok(at >= 0, head)
    assert.ok(lines.length > 10 && lines.every((l) => l.split(',')[at] === 'SIMULATED'))
    const jsonl = await cli(['export', set, '--format', 'jsonl'])
    const rows = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { simulated?: boolean })
    assert.ok(rows.length > 10 && rows.every((r) => r.simulated === true))
    const real = join(tmp(), 'real')
    assert.equal((await cli(['import', A100, '--out', real])).code, 0)
    assert.doesNotMatch((await cli(['export', real, '--format', 'csv'])).stdout, /simulated|SIMULATED/)
  })

  test('paths that cannot be written are bad input: one line, exit 2, nothing overwritten', async () => {
    const dir = tmp()
    const set = await simSet({ preset: 'seed-vm', seed: 64, groups: [] })
    const file = join(dir, 'a-file')
    writeFileSync(file, 'keep me')
    const cases = [
      ['import', A100, '--out', file],
      ['import', A100, '--out', join(file, 'sub')],
      ['report', set, '--out', join(dir, 'missing', 'r.html')],
      ['report', set, '--out', dir],
      ['export', set, '--format', 'parquet'],
      ['export', set, '--format', 'parquet', '--out', file],
      ['export', set, '--format', 'parquet', '--out', join(dir, 'missing', 'x.parquet')],
      ['export', set, '--out', join(file, 'x.jsonl')],
    ]
    // The first through the installed bin (what the process prints, warnings included), the rest in-process.
    for (const [k, args] of cases.entries()) {
      const r = k === 0 ? await bin(args) : await cli(args)
      assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}: ${r.stderr}`)
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /)
    }
    assert.equal(readFileSync(file, 'utf8'), 'keep me')
  })

  test('import --append refuses real rows into a SIMULATED set and the reverse: exit 2, the set unchanged', async () => {
    const sim = await simSet({ preset: 'seed-vm', seed: 65, groups: [] })
    const before = snapshot(sim)
    const r = await cli(['import', A100, '--out', sim, '--append'])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /real output cannot be appended to .*, a SIMULATED result set/)
    assert.deepEqual(snapshot(sim), before)
    const real = join(tmp(), 'real')
    assert.equal((await cli(['import', A100, '--out', real])).code, 0)
    const simText = join(tmp(), 'sim.txt')
    writeFileSync(simText, (await cli(['sim', '--preset', 'seed-vm', '--format', 'p2p'])).stdout)
    const back = await cli(['import', simText, '--out', real, '--append'])
    assert.equal(back.code, 2, back.stderr)
    assert.match(back.stderr, /SIMULATED output cannot be appended/)
  })
})
