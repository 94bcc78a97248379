/**
 * `gpucomm diff A B` end to end: the JSON contract, --fail-on-regression, formats, bad
 * directories (exit 2), the SIMULATED guard, and real imported fixtures of one system.
 */
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { DiffResult } from '../../src/diff/index.ts'
import { writeGenSet } from '../diff-gen.ts'
import { bin, cli, FIXTURES, tmp } from '../helpers.ts'

const root = tmp('gpucomm-diff-')
const A = join(root, 'a')
const B = join(root, 'b') // latency +10 %, bandwidth ÷1.1
const C = join(root, 'c') // no shift, another seed
const S = join(root, 'sim')
await writeGenSet(A, { seed: 21, pairs: 4, sizes: 3, n: 12, sigma: 0.02 })
await writeGenSet(B, { seed: 22, pairs: 4, sizes: 3, n: 12, sigma: 0.02, shift: 0.1 })
await writeGenSet(C, { seed: 23, pairs: 4, sizes: 3, n: 12, sigma: 0.02 })
await writeGenSet(S, { seed: 24, pairs: 4, sizes: 3, n: 12, sigma: 0.02 }, { simulated: true })

test('--format json: cells with key, delta (fraction), p and significant', async () => {
  const r = await cli(['diff', A, B, '--format', 'json'])
  assert.equal(r.code, 0, r.stderr)
  const j = JSON.parse(r.stdout) as DiffResult
  assert.equal(j.cells.length, 4 * 3 * 2)
  for (const c of j.cells) {
    assert.equal(typeof c.key, 'string')
    assert.ok(c.key.startsWith(`bench=${c.bench} metric=${c.metric}`))
    assert.equal(c.significant, c.p <= 0.05)
    assert.ok(c.significant, c.key)
    assert.ok(Math.abs(c.delta - (c.metric === 'latency' ? 0.1 : 1 / 1.1 - 1)) < 0.05, `${c.key} ${c.delta}`)
    assert.equal(c.a.n, 12)
  }
  assert.equal(j.geomeans.length, 2)
  assert.deepEqual([j.onlyA, j.onlyB], [[], []])
  const same = JSON.parse((await cli(['diff', A, C, '--format', 'json'])).stdout) as DiffResult
  assert.ok(same.cells.filter((c) => c.significant).length <= 2, 'no shift: almost nothing significant')
})

test('--fail-on-regression exits 1 only when a bound of the change lies beyond PCT', async () => {
  const bad = await cli(['diff', A, B, '--fail-on-regression', '5'])
  assert.equal(bad.code, 1)
  // One line per failing cell: its key, the one-sided bound and the threshold. The bound is at
  // 1 − α·R/m with R of m cells failing: all 24 of 24 here, so 95 %.
  const lines = bad.stderr.split('\n').filter((l) => l.startsWith('regression: '))
  assert.equal(lines.length, 24)
  const line =
    /^regression: bench=p2p\.(latency|bw_uni) .*: worse by at least (\S+) % \(one-sided 95 % bound\) > threshold 5\.00 %$/
  for (const l of lines) {
    const m = line.exec(l)
    assert.ok(m && Number(m[2]) > 5, l)
  }
  assert.match(
    bad.stderr,
    /^gpucomm diff: 24 cells shown worse by over 5% \(Benjamini–Hochberg q ≤ 0\.05 over 24 tested cells\)$/m,
  )
  assert.equal((await cli(['diff', A, B, '--fail-on-regression', '5', '--no-fdr'])).code, 1)
  // At 9 %, near the true 10 %: cells whose point estimate is past 9 % do not fail without the evidence.
  const near = await cli(['diff', A, B, '--fail-on-regression', '9'])
  const past = (JSON.parse((await cli(['diff', A, B, '--format', 'json'])).stdout) as DiffResult).cells.filter(
    (c) => c.worse > 0.09,
  ).length
  const failed = near.stderr.split('\n').filter((l) => l.startsWith('regression: ')).length
  assert.ok(past >= 10 && failed < past, `${failed} failed of ${past} past 9 %`)
  const ok = await cli(['diff', A, B, '--fail-on-regression', '15'])
  assert.equal(ok.code, 0)
  assert.match(ok.stderr, /no cell shown worse by over 15% \(Benjamini–Hochberg q ≤ 0\.05 over 24 tested cells\)/)
  // B → A is an improvement (faster, more bandwidth): never a regression.
  assert.equal((await cli(['diff', B, A, '--fail-on-regression', '0'])).code, 0)
  assert.equal((await cli(['diff', A, C, '--fail-on-regression', '5'])).code, 0)
  assert.equal((await cli(['diff', A, B, '--fail-on-regression', '-1'])).code, 2)
  const metric = await cli(['diff', A, B, '--metric', 'latency,speed'])
  assert.equal(metric.code, 2)
  assert.match(metric.stderr, /--metric speed: unknown metric \(known: time, latency, bandwidth, algbw, busbw\)/)
  // --metric latency: bandwidth cells are shown untested, so only latency can fail the gate.
  const lat = await cli(['diff', A, B, '--metric', 'latency', '--fail-on-regression', '5'])
  assert.match(lat.stderr, /12 cells shown worse by over 5% \(Benjamini–Hochberg q ≤ 0\.05 over 12 tested cells\)/)
})

test('text, md and csv formats', async () => {
  const t = await cli(['diff', A, C])
  assert.equal(t.code, 0)
  assert.match(t.stdout, /^A: .*\/a: sweep .*, 288 rows, 24 cells$/m)
  // One table per bench and metric: the fields common to it in the heading, the others as label columns.
  assert.match(t.stdout, /^p2p\.latency latency \(p2p=disabled copy=ce timer=gpu\)\npair\s+size\s+A\s+B\s+delta\s+p$/m)
  assert.match(
    t.stdout,
    /^0→1\s+8 B\s+\S+ µs (±|\[)\S+( \S+\])?\s+\S+ µs (±|\[)\S+( \S+\])?\s+(~|[+-]\S+%) \[\S+, \S+\]\s+p=\d\.\d{3} q=\d\.\d{3} n=12\+12 launches$/m,
  )
  assert.match(t.stdout, /^geomean\s+\S+ GB\/s\s+\S+ GB\/s/m)
  const md = await cli(['diff', A, B, '--format', 'md'])
  assert.match(md.stdout, /^### p2p\.bw_uni bandwidth \(p2p=disabled copy=ce timer=gpu\)$/m)
  assert.match(md.stdout, /^\| pair \| size \| A \| B \| delta \| p \|$/m)
  const csv = await cli(['diff', A, B, '--format', 'csv'])
  const lines = csv.stdout.trimEnd().split('\n')
  assert.equal(
    lines[0],
    'key,bench,metric,unit,src,dst,group,ranks,grouping,size_bytes,requested_bytes,placement,p2p,copy,staging,direction,timer,dtype,redop,root,changed,a_n,a_median,a_ci_lo,a_ci_hi,b_n,b_median,b_ci_lo,b_ci_hi,delta,delta_ci_lo,delta_ci_hi,p,q,exact,tested,reachable,resolution,significant,regression,errors',
  )
  assert.equal(lines.length, 25)
})

test('a missing directory or a non-result-set exits 2 with one line', async () => {
  const missing = await cli(['diff', join(root, 'nope'), A])
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /nope: no such directory/)
  const empty = join(root, 'empty')
  mkdirSync(empty)
  const notSet = await cli(['diff', A, empty])
  assert.equal(notSet.code, 2)
  assert.match(notSet.stderr, /not a gpucomm result set/)
  const junk = join(root, 'junk')
  mkdirSync(junk)
  writeFileSync(join(junk, 'manifest.json'), '{"hello": 1}')
  assert.equal((await cli(['diff', junk, A])).code, 2)
  assert.equal((await cli(['diff', A, B, '--alpha', '2'])).code, 2)
  const r = await bin(['diff', A, join(root, 'nope')])
  assert.equal(r.code, 2)
  assert.equal(r.stderr.trim().split('\n').length, 1)
})

test('SIMULATED against real is refused unless --allow-sim, and labelled', async () => {
  const r = await cli(['diff', A, S])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /SIMULATED.*--allow-sim/)
  const ok = await cli(['diff', A, S, '--allow-sim'])
  assert.equal(ok.code, 0)
  assert.match(ok.stdout, /^SIMULATED data/)
  assert.match(ok.stdout, /sim \(SIMULATED\)/)
})

const ALLREDUCE = join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-allreduce-v2.0-error-column.txt')
const ALLGATHER = join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-allgather-v2.0-error-column-oob-failed.txt')
test('real fixtures of one system (DGX-2, nccl-tests): a sane table', async () => {
  const one = join(root, 'real1')
  const two = join(root, 'real2')
  const three = join(root, 'real3')
  assert.equal((await cli(['import', ALLREDUCE, '--out', one])).code, 0)
  assert.equal((await cli(['import', ALLREDUCE, '--out', two])).code, 0)
  assert.equal((await cli(['import', ALLGATHER, '--out', three])).code, 0)
  const j = JSON.parse((await cli(['diff', one, two, '--format', 'json'])).stdout) as DiffResult
  assert.ok(j.cells.length > 0)
  for (const c of j.cells) {
    assert.equal(c.delta, 0, c.key)
    assert.equal(c.significant, false)
    assert.ok(c.key.startsWith('bench=nccl.all_reduce '))
  }
  assert.ok(j.cells.some((c) => c.metric === 'time') && j.cells.some((c) => c.metric === 'busbw'))
  const t = await cli(['diff', one, two, '--all'])
  assert.equal(t.code, 0)
  // The answer first: one run against itself, one trial a side: nothing can be tested.
  assert.match(
    t.stdout,
    /^What changed from A \(.*real1\) to B \(.*real2\)\?\n {2}No significant change; the largest difference: /,
  )
  assert.match(
    t.stdout,
    /^ {2}Of 62 tested cells 0 are better in B, 0 worse, 0 without a significant change, 62 with too few trials/m,
  )
  assert.match(
    t.stdout,
    /^nccl\.all_reduce time \(ranks=12 timer=cpu dtype=float redop=sum\)\nsize\s+placement\s+A\s+B\s+delta\s+p$/m,
  )
  // One trial per side cannot reach p ≤ 0.05: said once, and the deltas are shown untested in ( ).
  assert.match(
    t.stdout,
    /^8 B\s+in-place\s+\S+ µs \(one launch: no interval\)\s+\S+ µs \(one launch: no interval\)\s+\(0\.00%\)\s+n=1\+1 launches$/m,
  )
  assert.equal(t.stdout.match(/cannot reach p ≤ 0\.05/g)?.length, 1)
  assert.match(t.stdout, /^tested: time; shown, not tested: algbw, busbw/m)
  assert.match(t.stdout, /^geomean\s+\S+ µs\s+\S+ µs\s+0\.00%/m)
  const other = JSON.parse((await cli(['diff', one, three, '--format', 'json'])).stdout) as DiffResult
  assert.equal(other.cells.length, 0)
  assert.ok(other.onlyA.length > 0 && other.onlyB.length > 0)
  assert.match(other.warnings.join('\n'), /no cell is found in both sets/)
})

test('--filter, --ignore, --col through the CLI; a bad projection exits 2 with one line and prints no table', async () => {
  const t = await cli(['diff', A, B, '--filter', 'bench:p2p.latency size:<=32B', '--ignore', 'pair', '--col', 'size'])
  assert.equal(t.code, 0, t.stderr)
  assert.match(t.stdout, /^p2p\.latency latency \(p2p=disabled copy=ce timer=gpu\)\ncell\s+size=8 B\s+size=32 B$/m)
  // All pairs pooled: one row, one "A → B delta" per size (B is 10 % slower).
  const side = String.raw`\S+ µs (±\S+|\[\S+, \S+\])`
  const change = String.raw`${side} → ${side} \+\d+\.\d+% \[\+\S+, \+\S+\]`
  assert.match(t.stdout, new RegExp(String.raw`^-\s+${change}\s+${change}$`, 'm'))
  assert.match(t.stdout, /^2 cells tested/m)
  assert.doesNotMatch(t.stdout, /bandwidth|128 B/)
  for (const args of [
    ['--filter', 'size<=1K'],
    ['--row', 'nope'],
  ]) {
    const bad = await cli(['diff', A, B, ...args])
    assert.equal(bad.code, 2)
    assert.equal(bad.stdout, '')
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr)
  }
})
