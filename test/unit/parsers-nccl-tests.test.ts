/**
 * nccl-tests text and -J JSON parsers: every fixture against its golden file and the
 * numbers of its .source.txt "Headline", plus the shapes nccl-tests prints (src/common.cu, src/util.cu) that no
 * fixture shows (built from fixture text in the test, or written out from the printf formats).
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { eachLine } from '../../src/importer/index.ts'
import type { Row } from '../../src/model/index.ts'
import { rowProblem, SIM_MARKER } from '../../src/model/index.ts'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { detectParser, parserById, parseText, splitLines } from '../../src/parsers/index.ts'
import { checkGolden } from '../golden.ts'
import { FIXTURES } from '../helpers.ts'

const DIR = join(FIXTURES, 'nccl-tests')
const FILES = readdirSync(DIR)
  .filter((f) => !f.endsWith('.source.txt') && (f.endsWith('.txt') || f.endsWith('.json')))
  .sort()
const TEXT = parserById('nccl-tests-text') as Parser
const JSONP = parserById('nccl-tests-json') as Parser
const A100 = 'a100-sxm4-8gpu-single-process-g8-v2.13.txt'

const read = (f: string): string => readFileSync(join(DIR, f), 'utf8')
const parse = (text: string, p: Parser = TEXT, file = 'x.txt'): ParseOutput => parseText(p, text, { file })
const times = (o: ParseOutput, size: number, placement: string): number[] =>
  o.rows
    .filter(
      (r) => r.metric === 'time' && r.sizeBytes === size && r.placement === placement && r.iteration === undefined,
    )
    .map((r) => r.value)
const codes = (o: ParseOutput): string[] => o.diagnostics.map((d) => d.code)
const strip = (o: ParseOutput): unknown[] => o.rows.map((r) => ({ ...r, source: { line: r.source.line } }))

test('every nccl-tests fixture is detected, parses into valid rows, and matches its golden file', () => {
  assert.ok(FILES.length >= 13)
  for (const f of FILES) {
    const text = read(f)
    const p = detectParser(text.slice(0, 64 * 1024))
    assert.equal(p?.id, f.endsWith('.json') ? 'nccl-tests-json' : 'nccl-tests-text', f)
    const out = parseText(p as Parser, text, { file: f })
    for (const r of out.rows) assert.equal(rowProblem(r), undefined, `${f}: ${JSON.stringify(r)}`)
    checkGolden(`parsers/nccl-tests/${f.replace(/\.(txt|json)$/, '')}`, {
      meta: out.meta,
      rows: out.rows,
      diagnostics: out.diagnostics,
    })
  }
})

/** Checks every number a .source.txt Headline states against the parse; returns how many were checked. */
function checkHeadline(f: string, out: ParseOutput): number {
  const src = readFileSync(join(DIR, f.replace(/\.(txt|json)$/, '.source.txt')), 'utf8')
  const h = /^Headline: (.*)$/m.exec(src)?.[1] ?? ''
  const meta = out.meta as Record<string, any>
  let checked = 0
  const unit: Record<string, number> = { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 }
  const us = (s: string): number => Number(`${s}e-6`)
  const gbs = (s: string): number => Number(`${s}e9`)
  const max = (metric: string): Row =>
    out.rows.filter((r) => r.metric === metric).reduce((a, b) => (b.value > a.value ? b : a))
  for (const m of h.matchAll(
    /(\d+) (B|KiB|MiB|GiB): ([\d.]+) us (?:cpu time )?out-of-place(?: \/ ([\d.]+) us in-place)?/g,
  )) {
    const size = Number(m[1]) * (unit[m[2] as string] as number)
    assert.ok(times(out, size, 'out-of-place').includes(us(m[3] as string)), `${f}: ${m[0]}`)
    if (m[4]) assert.ok(times(out, size, 'in-place').includes(us(m[4])), `${f}: ${m[0]}`)
    checked++
  }
  const first = /first row ([\d.]+) us out-of-place \/ ([\d.]+) us in-place/.exec(h)
  if (first) {
    const line = Math.min(...out.rows.map((r) => r.source.line))
    const row0 = out.rows.filter((r) => r.source.line === line && r.metric === 'time')
    assert.deepEqual(
      row0.map((r) => r.value),
      [us(first[1] as string), us(first[2] as string)],
      `${f}: ${first[0]}`,
    )
    checked++
  }
  for (const [re, metric] of [
    [/peak busbw ([\d.]+) GB\/s \((out-of-place|in-place)/, 'busbw'],
    [/peak algbw ([\d.]+) GB\/s/, 'algbw'],
    [/busbw saturates at ([\d.]+) GB\/s/, 'busbw'],
  ] as const) {
    const m = re.exec(h)
    if (!m) continue
    const top = max(metric)
    assert.equal(top.value, gbs(m[1] as string), `${f}: ${m[0]}`)
    if (m[2]) assert.equal(top.placement, m[2], `${f}: ${m[0]}`)
    checked++
  }
  const avg = /avg bus bandwidth ([\d.]+)|average bus bandwidth ([\d.]+)/i.exec(h)
  if (avg) {
    assert.equal(meta.avgBusBandwidth, gbs((avg[1] ?? avg[2]) as string), `${f}: ${avg[0]}`)
    checked++
  }
  const oob = /Out of bounds (\d+) (OK|FAILED)/.exec(h)
  if (oob) {
    assert.deepEqual(meta.outOfBounds, { count: Number(oob[1]), status: oob[2] }, `${f}: ${oob[0]}`)
    checked++
  }
  const rows = /(\d+) (rows|results) /.exec(h)
  if (rows) {
    assert.equal(new Set(out.rows.map((r) => r.source.line)).size, Number(rows[1]), `${f}: ${rows[0]}`)
    checked++
  }
  const ranks = /, (\d+) ranks[;,]/.exec(h)
  if (ranks) {
    assert.equal(meta.ranks, Number(ranks[1]), `${f}: ${ranks[0]}`)
    assert.ok(
      out.rows.every((r) => r.ranks === Number(ranks[1])),
      `${f}: ${ranks[0]}`,
    )
    checked++
  }
  const startup = /(\d+) rank lines, (\d+) data rows, (\d+) "Test CUDA failure" lines/.exec(h)
  if (startup) {
    assert.deepEqual(
      [meta.devices.length, out.rows.length, meta.failures],
      startup.slice(1).map(Number),
      `${f}: ${startup[0]}`,
    )
    checked++
  }
  const iters = /per-iteration times_us ([\d., ]+\d)/.exec(h)
  if (iters) {
    const first = out.rows.filter(
      (r) => r.iteration !== undefined && r.placement === 'out-of-place' && r.sizeBytes === out.rows[0]?.sizeBytes,
    )
    assert.deepEqual(
      first.map((r) => r.value),
      (iters[1] as string).split(', ').map(us),
      `${f}: ${iters[0]}`,
    )
    checked++
  }
  const na = /\((\d+) N\/A cells\)/.exec(h)
  if (na) {
    assert.match(
      out.diagnostics.find((d) => d.code === 'na-cell')?.message ?? '',
      new RegExp(`^${na[1]} `),
      `${f}: ${na[0]}`,
    )
    checked++
  }
  return checked
}

test('the numbers of every .source.txt Headline appear exactly in the parsed rows and meta', () => {
  for (const f of FILES) {
    const out = parseText(f.endsWith('.json') ? JSONP : TEXT, read(f), { file: f })
    assert.ok(
      checkHeadline(f, out) >= (f.includes('startup-failure') ? 1 : 4),
      `${f}: too few headline facts recognised`,
    )
  }
})

test('the acceptance row: a100 -g 8, 8 B, out-of-place time is 4.012e-5 s on 8 ranks', () => {
  const out = parse(read(A100))
  const r = out.rows.find((x) => x.sizeBytes === 8 && x.metric === 'time' && x.placement === 'out-of-place')
  assert.deepEqual(r && { ...r, source: r.source.line }, {
    bench: 'nccl.all_reduce',
    metric: 'time',
    unit: 's',
    value: 4.012e-5,
    sizeBytes: 8,
    ranks: 8,
    src: null,
    dst: null,
    placement: 'out-of-place',
    p2p: null,
    timer: 'cpu',
    trial: 0,
    source: 17,
    dtype: 'float',
    redop: 'sum',
  })
  const big = out.rows
    .filter((x) => x.sizeBytes === 4294967296 && x.placement === 'in-place')
    .map((x) => [x.metric, x.value])
  assert.deepEqual(big, [
    ['time', 0.032455],
    ['algbw', 132.34e9],
    ['busbw', 231.59e9],
    ['wrong', 0],
  ])
  assert.equal(out.rows.length, 30 * 8)
})

test('a truncated log keeps its complete rows and reports incomplete', () => {
  const lines = splitLines(read(A100))
  const cut = 35 // line 36 is the 4 MiB row; it is cut inside its in-place block ("... 102.8   40.8")
  const text = [...lines.slice(0, cut), (lines[cut] as string).slice(0, 100)].join('\n')
  const full = parse(read(A100))
  const out = parse(text)
  const want = full.rows.filter(
    (r) => r.source.line <= cut || (r.source.line === cut + 1 && r.placement === 'out-of-place'),
  )
  assert.deepEqual(out.rows, want)
  assert.ok(want.some((r) => r.source.line === cut + 1))
  assert.ok(codes(out).includes('incomplete'))
  assert.ok(codes(out).includes('partial-row'))
  assert.equal((out.meta as { complete: boolean }).complete, false)
})

test('CRLF gives the same rows, through the importer line splitter and as raw lines with their CR', async () => {
  for (const f of FILES.filter((x) => x.endsWith('.txt'))) {
    const lf = parse(read(f))
    const crlf = read(f).replace(/\n/g, '\r\n')
    const rows: Row[] = []
    const lp = TEXT.open({ file: 'x.txt' }, (r) => rows.push(r))
    await eachLine(Buffer.from(crlf), (l, n) => lp.line(l, n))
    assert.deepEqual({ rows, ...lp.end() }, { rows: lf.rows, meta: lf.meta, diagnostics: lf.diagnostics }, f)
    const raw: Row[] = []
    const lp2 = TEXT.open({ file: 'x.txt' }, (r) => raw.push(r))
    crlf.split('\n').forEach((l, i) => lp2.line(l, i + 1))
    lp2.end()
    assert.deepEqual(raw, lf.rows, `${f} (raw CR)`)
  }
})

test('mpirun --tag-output prefixes on every line, with stderr lines between rows, give the same rows', () => {
  const f = 'a100-sxm4-8gpu-mpirun-np8-interleaved-ompi-help-v2.13.txt'
  const lines = splitLines(read(f))
  const tagged = lines.flatMap((l, i) =>
    i === 20
      ? [
          `[1,3]<stderr>:thanos:56546:56546 [3] NCCL INFO comm 0x1 rank 3 nranks 8 - Init COMPLETE`,
          `[1,0]<stdout>:${l}`,
        ]
      : [`[1,0]<stdout>:${l}`],
  )
  const plain = parse(lines.join('\n'))
  const out = parse(tagged.join('\n'))
  const shift = (r: Row): number => (r.source.line > 20 ? r.source.line - 1 : r.source.line)
  assert.deepEqual(
    out.rows.map((r) => ({ ...r, source: { ...r.source, line: shift(r) } })),
    plain.rows,
  )
  assert.equal((out.meta as { tagOutput?: boolean }).tagOutput, true)
  assert.equal((out.meta as { ranks?: number }).ranks, 8)
})

test('Open MPI help lines, NCCL INFO lines and an MCA box between rows do not break the table', () => {
  const f = 'rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings.txt'
  const out = parse(read(f))
  assert.equal(new Set(out.rows.map((r) => r.source.line)).size, 24)
  assert.deepEqual([...new Set(out.rows.map((r) => r.bench))], ['nccl.alltoall'])
  // alltoall in-place #wrong is N/A: no in-place wrong rows, 24 N/A cells counted
  assert.equal(out.rows.filter((r) => r.metric === 'wrong' && r.placement === 'in-place').length, 0)
  assert.equal(out.rows.filter((r) => r.metric === 'wrong' && r.placement === 'out-of-place').length, 24)
  const na = out.diagnostics.find((d) => d.code === 'na-cell')
  assert.equal(na?.severity, 'info')
  assert.match(na?.message ?? '', /^24 N\/A cells/)
  const m = out.meta as Record<string, any>
  assert.deepEqual(
    [m.version, m.nccl, m.ncclLibrary, m.ranks, m.hosts.length, m.params.unalign],
    ['2.18.3', '2.30.3+cuda13.0', 23003, 16, 2, 0],
  )
})

test('an error line glued to a row: the row yields no cells, the error is reported, the table goes on', () => {
  const lines = splitLines(read(A100))
  lines[18] =
    "          32             8     float     sum      -1 thanos: Test CUDA failure common.cu:892 'unspecified launch failure'"
  lines[19] =
    "          64            16     float     sum      -1    38.89    0.00    0.00      0 thanos: Test NCCL failure common.cu:1030 'unhandled system error / net.cc'"
  const out = parse(lines.join('\n'))
  assert.equal(out.rows.filter((r) => r.source.line === 19).length, 0)
  assert.deepEqual(
    out.rows.filter((r) => r.source.line === 20).map((r) => `${r.placement} ${r.metric}`),
    ['out-of-place time', 'out-of-place algbw', 'out-of-place busbw', 'out-of-place wrong'],
  )
  assert.equal(out.diagnostics.filter((d) => d.code === 'row-error' && d.severity === 'error').length, 2)
  assert.equal(new Set(out.rows.map((r) => r.source.line)).size, 29)
})

test('a row whose cells continue on the line after an interleaved error line is put back together', () => {
  const lines = splitLines(read(A100))
  const row = lines[18] as string
  lines.splice(
    18,
    1,
    "          32             8     float     sum      -1 gpu-7: Test NCCL failure common.cu:1030 'remote process exited'",
    row.slice(52),
  )
  const out = parse(lines.join('\n'))
  const full = parse(read(A100))
  assert.deepEqual(times(out, 32, 'in-place'), times(full, 32, 'in-place'))
  assert.equal(out.rows.length, full.rows.length)
  assert.ok(codes(out).includes('row-error'))
})

test('-c 0: N/A wrong cells give no rows and one info diagnostic with the count', () => {
  const text = read(A100).replace(
    /^(\s+\d+\s+\d+\s+float\s+sum\s+-1\s+\S+\s+\S+\s+\S+)\s+0(\s+\S+\s+\S+\s+\S+)\s+0$/gm,
    '$1    N/A$2    N/A',
  )
  const out = parse(text)
  assert.equal(out.rows.filter((r) => r.metric === 'wrong').length, 0)
  assert.equal(out.rows.length, 30 * 6)
  assert.deepEqual(
    out.diagnostics.map((d) => [d.code, d.severity, d.message.split(' ')[0]]),
    [['na-cell', 'info', '60']],
  )
})

test('without command line or rank lines the collective and the rank count come from the rows', () => {
  const bare = (f: string): ParseOutput =>
    parse(
      splitLines(read(f))
        .filter((l) => !l.includes('_perf') && !l.startsWith('#'))
        .join('\n'),
    )
  const ar = bare(A100)
  assert.deepEqual([...new Set(ar.rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.all_reduce 8'])
  assert.deepEqual([ar.meta.collectiveFrom, ar.meta.ranksFrom], ['rows', 'inferred'])
  assert.ok(codes(ar).includes('ranks-inferred'))
  const ag = bare('dgx2-12gpu-v100-allgather-v2.0-error-column-oob-failed.txt')
  assert.deepEqual([...new Set(ag.rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.all_gather 12'])
  const bc = bare('dgx2-12gpu-v100-broadcast-v2.0-root-column.txt')
  assert.deepEqual([...new Set(bc.rows.map((r) => `${r.bench} ${r.ranks} ${r.root}`))], ['nccl.broadcast null 0'])
  const tail = parse(read('oci-gb200-2node-8rank-allreduce-tail-with-nccl-info.txt'))
  assert.deepEqual([...new Set(tail.rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.all_reduce 8'])
})

test('a table that fits two collectives is nccl.unknown with a diagnostic naming both', () => {
  // v2.13+ rows of a root-less non-reduction with total-sized buffers and -c 0: all_gather or alltoall
  const rows = [
    [1024, 64],
    [1048576, 65536],
  ].map(
    ([s, c]) =>
      `${String(s).padStart(12)}  ${String(c).padStart(12)}     float    none      -1    20.00   51.20   38.40    N/A    20.00   51.20   38.40    N/A`,
  )
  const out = parse(rows.join('\n'))
  assert.deepEqual([...new Set(out.rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.unknown 4'])
  assert.match(out.diagnostics.find((d) => d.code === 'collective-unknown')?.message ?? '', /all_gather, alltoall/)
})

test('v1.0 output (no # on the banner, ms times, res column) converts milliseconds', () => {
  // Written from the v1.0.0 printf formats of nccl-tests' src/common.cu (no v1.0 capture is at hand).
  const text = [
    'nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 validation: 1 ',
    '# NCCL Tests compiled with NCCL 2.1',
    '# Using devices',
    '#   Rank  0 on   box01 device  0 [0x04] Tesla P100-SXM2-16GB',
    '#   Rank  1 on   box01 device  1 [0x06] Tesla P100-SXM2-16GB',
    '',
    '#                                                 out-of-place                    in-place',
    '#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res',
    '           8             2   float     sum    0.040   0.00   0.00    0e+00    0.041   0.00   0.00    0e+00',
    '          16             4   float     sum    0.042   0.00   0.00    0e+00    0.043   0.00   0.00    0e+00',
    ' Out of bounds values : 0 OK',
    ' Avg bus bandwidth    : 0.00 ',
  ].join('\n')
  const out = parse(text)
  assert.deepEqual(times(out, 8, 'out-of-place'), [4e-5])
  assert.deepEqual(times(out, 16, 'in-place'), [4.3e-5])
  assert.equal(out.rows.filter((r) => r.metric === 'wrong').length, 0)
  assert.deepEqual(
    [out.meta.collective, out.meta.ranks, out.meta.ncclCompiled, out.meta.complete],
    ['all_reduce', 2, '2.1', true],
  )
})

test('-I per-iteration columns and -S timestamps are read past, -C cputime is still the time metric', () => {
  // Written from the v2.19.2+ header and row formats of nccl-tests' src/util.cu.
  const text = [
    '# nccl-tests version 2.19.2 nccl-headers=22803 nccl-library=22803',
    '# Collective test starting: all_reduce_perf',
    '# Using devices',
    '#  Rank  0 Group  0 Pid   1234 on      node1 device  0 [0000:17:00] NVIDIA H100',
    '#  Rank  1 Group  0 Pid   1234 on      node1 device  1 [0000:65:00] NVIDIA H100',
    '#       size         count      type   redop    root  cputime   algbw   busbw  #wrong    i_min    i_max    i_p99   i_cv%  cputime   algbw   busbw  #wrong    i_min    i_max    i_p99   i_cv%            timestamp',
    '        1024           256     float     sum      -1    10.50    0.10    0.10       0    10.10    11.20    11.10    2.50    10.60    0.10    0.10       0    10.20    11.30    11.20    2.40  2026-01-02 03:04:05',
    '# Out of bounds values : 0 OK',
    '# Avg bus bandwidth    : 0.1 ',
  ].join('\n')
  const out = parse(text)
  assert.deepEqual(
    out.rows.map((r) => `${r.placement} ${r.metric} ${r.value}`),
    [
      'out-of-place time 0.0000105',
      'out-of-place algbw 100000000',
      'out-of-place busbw 100000000',
      'out-of-place wrong 0',
      'in-place time 0.0000106',
      'in-place algbw 100000000',
      'in-place busbw 100000000',
      'in-place wrong 0',
    ],
  )
  assert.equal((out.meta.columns as { timeLabel: string }).timeLabel, 'cputime')
  assert.ok(codes(out).includes('per-iteration-columns'))
})

test('several runs in one file: each keeps its own collective, ranks and footer', () => {
  const out = parse(`${read(A100)}\n${read('dgx2-12gpu-v100-broadcast-v2.0-root-column.txt')}`)
  const runs = out.meta.runs as Record<string, unknown>[]
  assert.deepEqual(
    runs.map((r) => [r.collective, r.ranks, r.complete]),
    [
      ['all_reduce', 8, true],
      ['broadcast', 12, true],
    ],
  )
  assert.deepEqual(
    [...new Set(out.rows.map((r) => `${r.bench} ${r.ranks}`))],
    ['nccl.all_reduce 8', 'nccl.broadcast 12'],
  )
  assert.deepEqual(out.meta.collectives, ['all_reduce', 'broadcast'])
})

test('rows stream out before end() when the text already named the collective and ranks', () => {
  const rows: Row[] = []
  const lp = TEXT.open({ file: 'x.txt', trial: 3 }, (r) => rows.push(r))
  splitLines(read(A100))
    .slice(0, 20)
    .forEach((l, i) => lp.line(l, i + 1))
  assert.equal(rows.length, 4 * 8)
  assert.ok(rows.every((r) => r.trial === 3 && r.source.file === 'x.txt'))
  assert.ok(lp.end().diagnostics.some((d) => d.code === 'incomplete'))
})

test('the simulator marker marks the parse simulated; a startup failure reports every failing rank', () => {
  const sim = parse(`${SIM_MARKER}\n${read(A100)}`)
  assert.equal(sim.meta.simulated, true)
  assert.equal(sim.rows.length, 240)
  const fail = parse(read('gh200-2node-8rank-v2.17.8-cuda-busy-startup-failure.txt'))
  assert.equal(fail.diagnostics.filter((d) => d.code === 'test-failure').length, 6)
  assert.deepEqual(
    fail.diagnostics.filter((d) => d.code === 'incomplete').map((d) => d.severity),
    ['warn'],
  )
  assert.deepEqual(fail.meta.hosts, ['gpu-1-1', 'gpu-1-7'])
  assert.equal((fail.meta.devices as { pid: number }[])[0]?.pid, 3617715)
})

test('#wrong > 0 becomes wrong rows with the printed counts; v2.0 error deviations do not', () => {
  const wrong = parse(read('gh200-slingshot-2node-2rank-v2.17.8-wrong-elements-oob-failed.txt'))
  assert.deepEqual(
    wrong.rows.filter((r) => r.metric === 'wrong' && r.value > 0).map((r) => [r.sizeBytes, r.placement, r.value]),
    [
      [1048576, 'out-of-place', 96],
      [1048576, 'in-place', 32],
    ],
  )
  assert.ok(codes(wrong).includes('out-of-bounds'))
  const dev = parse(read('dgx2-12gpu-v100-allreduce-v2.0-error-column.txt'))
  assert.equal(dev.rows.filter((r) => r.metric === 'wrong').length, 0)
  assert.equal(dev.meta.maxDeviation, 2e-7)
})

test('JSON: misspelled keys, per-iteration rows, cpu_time, null and "nan" cells, filtered env', () => {
  const one = parse(read('generated-schema1-v2.17.8-all-reduce-misspelled-keys.json'), JSONP)
  assert.equal(one.meta.avgBusBandwidth, 1.121139e9)
  assert.equal(one.meta.versionRange, '2.17.3-2.17.8')
  assert.ok(!(one.meta.env as string[]).some((e) => e.startsWith('SECRET') || e.startsWith('HOME')))
  const two = parse(read('generated-schema2-v2.19.3-alltoall-per-iteration.json'), JSONP)
  const iter = two.rows.filter((r) => r.iteration !== undefined)
  assert.equal(iter.length, 3 * 2 * 5)
  assert.ok(iter.every((r) => r.timer === 'gpu' && r.metric === 'time'))
  assert.deepEqual(
    iter.slice(0, 5).map((r) => r.iteration),
    [0, 1, 2, 3, 4],
  )
  const three = parse(read('generated-schema3-v2.19.6-reduce-scatter-cputime-nocheck.json'), JSONP)
  assert.equal(three.rows.filter((r) => r.metric === 'wrong').length, 0)
  assert.equal(
    three.rows.filter((r) => r.sizeBytes === 65536 && r.placement === 'in-place' && r.metric === 'algbw').length,
    0,
  )
  assert.deepEqual(
    three.rows.filter((r) => r.sizeBytes === 16777216).map((r) => `${r.placement} ${r.metric}`),
    ['out-of-place time', 'out-of-place algbw', 'out-of-place busbw'],
  )
  assert.ok(codes(three).includes('bad-cell') && codes(three).includes('nccl-error'))
})

test('JSON without args: the collective and ranks are inferred from the results', () => {
  const doc = JSON.parse(read('generated-schema1-v2.17.8-all-reduce-misspelled-keys.json'))
  delete doc.args
  delete doc.config.devices
  const out = parse(JSON.stringify(doc, null, 2), JSONP)
  assert.deepEqual([...new Set(out.rows.map((r) => `${r.bench} ${r.ranks}`))], ['nccl.all_reduce 2'])
  const bad = parse('{"results": [1, {"size": "x"}], "version": "nope"', JSONP)
  assert.deepEqual([bad.rows.length, codes(bad)], [0, ['bad-json']])
})

test('detection: text markers, row-shaped log tails, JSON; other formats are not claimed', () => {
  assert.ok(TEXT.detect(read(A100)) >= 0.9)
  assert.equal(TEXT.detect('{"results": []}'), 0)
  assert.equal(TEXT.detect('hello\nworld\n'), 0)
  const rowsOnly = splitLines(read(A100)).slice(16, 20).join('\n')
  assert.ok(TEXT.detect(rowsOnly) >= 0.5)
  assert.equal(detectParser(rowsOnly)?.id, 'nccl-tests-text')
  assert.equal(JSONP.detect(read(A100)), 0)
  for (const tool of ['p2pBandwidthLatencyTest', 'nvbandwidth', 'nvidia-smi-topo-m', 'lspci-tv']) {
    for (const f of readdirSync(join(FIXTURES, tool)).filter((x) => !x.endsWith('.source.txt'))) {
      const head = readFileSync(join(FIXTURES, tool, f), 'utf8')
      assert.ok(TEXT.detect(head) < 0.5 && JSONP.detect(head) < 0.5, `${tool}/${f} claimed by an nccl-tests parser`)
    }
  }
  void strip
})

test('trace/replay mode (2.17.3+): a blank out-of-place block makes in-place-only rows, never out-of-place ones', () => {
  // Generated from a real v2.17.8 log: each row's out-of-place cells replaced by 32 blanks,
  // as nccl-tests' trace mode prints them (src/util.cu).
  const f = 'gh200-slingshot-2node-2rank-v2.17.8-wrong-elements-oob-failed.txt'
  const ROW = /^(\s*\d+\s+\d+\s+\S+\s+\S+\s+-?\d+)(\s+\S+\s+\S+\s+\S+\s+\S+)(\s+\S+\s+\S+\s+\S+\s+\S+\s*)$/
  let blanked = 0
  const text = splitLines(read(f))
    .map((l) => {
      const m = ROW.exec(l)
      if (!m) return l
      blanked++
      return `${m[1] as string}${' '.repeat(32)}${m[3] as string}`
    })
    .join('\n')
  assert.ok(blanked >= 10, `${blanked} rows blanked`)
  const plain = parse(read(f))
  const trace = parse(text)
  const inPlace = plain.rows.filter((r) => r.placement === 'in-place')
  assert.ok(inPlace.length >= 30)
  assert.deepEqual(strip(trace), strip({ ...plain, rows: inPlace }))
  assert.ok(!codes(trace).includes('partial-row'), 'no row is called cut short')
  assert.equal(codes(trace).filter((c) => c === 'trace-mode').length, 1)
  assert.equal(trace.meta.traceMode, true)
  // A row cut short after its first block is still partial and out-of-place, not trace mode.
  const cut = parse(read(f).replace(/^(\s*8\s+2\s+float\s+sum\s+-1\s+\S+\s+\S+\s+\S+\s+\S+).*$/m, '$1'))
  assert.ok(codes(cut).includes('partial-row'))
  assert.ok(!codes(cut).includes('trace-mode'))
  assert.ok(cut.rows.some((r) => r.sizeBytes === 8 && r.placement === 'out-of-place'))
})
