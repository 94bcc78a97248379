/**
 * nccl-tests logs whose text does not name the collective (no banner, no command line, as a peer
 * harness saves them): the collective comes from `import --collective`, else from the file name
 * (nccl_alltoall.log), noted in the meta and diagnostics; the text's own words win.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { collectiveInFileName } from '../../src/parsers/nccl-tests/_nccl-naming.ts'
import { ncclTestsText } from '../../src/parsers/nccl-tests/nccl-tests-text.ts'
import type { Origin } from '../../src/parsers/types.ts'
import { simulate } from '../../src/sim/index.ts'
import { bin, tmp } from '../helpers.ts'

/** SIMULATED nccl-tests text of `collective` with the lines naming it removed. */
function headerless(collective: string): string[] {
  const text = simulate({ preset: 'seed-vm', seed: 5, format: 'nccl-tests', collective, gpus: [0, 1, 2, 3] })
  return text.split('\n').filter((l) => !/Collective test|_perf/.test(l))
}

function parse(lines: readonly string[], origin: Origin) {
  const rows: Row[] = []
  const lp = ncclTestsText.open(origin, (r) => rows.push(r))
  lines.forEach((l, i) => lp.line(l, i + 1))
  const end = lp.end()
  const from = end.meta.collectiveFrom
  return { benches: [...new Set(rows.map((r) => r.bench))], from, diagnostics: end.diagnostics, rows }
}

test('file names that name one collective, with or without underscores; none or two name nothing', () => {
  const cases: [string, string | undefined][] = [
    ['nccl_alltoall.log', 'alltoall'],
    ['raw/003-nccl_allgather.log', 'all_gather'],
    ['all_reduce_perf-8gpu.txt', 'all_reduce'],
    ['run-reducescatter.out', 'reduce_scatter'],
    ['nccl_alltoallv.log', 'alltoallv'],
    ['reduce.log', 'reduce'],
    ['gathering.log', undefined],
    ['results.log', undefined],
    ['all_reduce_vs_all_gather.log', undefined],
  ]
  for (const [file, want] of cases) assert.equal(collectiveInFileName(file), want, file)
})

test('a headerless log under nccl_alltoall.log is alltoall by its file name (noted), not by a guess from its rows', () => {
  const lines = headerless('alltoall')
  assert.equal(parse(lines, { file: 'run7.log' }).from, 'rows')
  const named = parse(lines, { file: 'raw/000-nccl_alltoall.log' })
  assert.deepEqual(named.benches, ['nccl.alltoall'])
  assert.equal(named.from, 'file-name')
  assert.ok(named.diagnostics.some((d) => d.code === 'collective-from-file-name'))
  const gather = parse(headerless('all_gather'), { file: 'nccl_allgather.log' })
  assert.deepEqual([gather.benches, gather.from], [['nccl.all_gather'], 'file-name'])
})

test('origin.collective (import --collective) names it; the banner, when present, wins with a warning', () => {
  const opt = parse(headerless('alltoall'), { file: 'x.log', collective: 'alltoall' })
  assert.deepEqual(opt.benches, ['nccl.alltoall'])
  assert.equal(opt.from, 'option')
  const text = simulate({
    preset: 'seed-vm',
    seed: 5,
    format: 'nccl-tests',
    collective: 'alltoall',
    gpus: [0, 1, 2, 3],
  })
  const clash = parse(text.split('\n'), { file: 'nccl_broadcast.log', collective: 'broadcast' })
  assert.deepEqual(clash.benches, ['nccl.alltoall'])
  assert.ok(
    clash.diagnostics.some((d) => d.code === 'collective-mismatch' && /names alltoall, not broadcast/.test(d.message)),
  )
})

test('import --collective: a collective of the registry is used; any other name is bad input (exit 2, nothing written)', async () => {
  const dir = tmp()
  const log = join(dir, 'run7.log')
  writeFileSync(log, headerless('alltoall').join('\n'))
  const bad = await bin(['import', log, '--collective', 'nope', '--out', join(dir, 'bad')])
  assert.equal(bad.code, 2, bad.stderr)
  assert.match(bad.stderr, /^gpucomm: --collective: "nope" is not a collective \(known: all_reduce, /)
  assert.equal(bad.stderr.trim().split('\n').length, 1)
  const ok = await bin(['import', log, '--collective', 'alltoall', '--out', join(dir, 'ok')])
  assert.equal(ok.code, 0, ok.stderr)
  const rows = (await bin(['export', join(dir, 'ok')])).stdout.trim().split('\n')
  assert.ok(rows.length > 10 && rows.every((l) => (JSON.parse(l) as Row).bench === 'nccl.alltoall'))
})
