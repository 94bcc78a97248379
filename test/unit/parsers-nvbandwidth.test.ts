/**
 * nvbandwidth text and -j JSON parsers: every fixture against its golden file and its
 * .source.txt "Headline", cell-by-cell orientation (src/dst follow the data: a `_read_` test's
 * row device pulls from the column device), N/A counting, the shapes nvbandwidth's output.cpp prints
 * that no real fixture shows (built from fixture text in the test). The CLI import is in
 * parsers-nvbandwidth-cli.test.ts (a subprocess: two thirds of this file's time, kept apart so a
 * mutation run of the parsers can leave it out).
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { rowProblem } from '../../src/model/index.ts'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { detectParser, parserById, parseText } from '../../src/parsers/index.ts'
import { checkGolden } from '../golden.ts'
import { FIXTURES } from '../helpers.ts'

const DIR = join(FIXTURES, 'nvbandwidth')
const FILES = readdirSync(DIR)
  .filter((f) => !f.endsWith('.source.txt') && /\.(txt|json)$/.test(f))
  .sort()
const TEXT = parserById('nvbandwidth') as Parser
const JSONP = parserById('nvbandwidth-json') as Parser
const V04 = 'azure-nd-h100-v5-8gpu-d2d-read-ce-v0.4.txt'
const D2D = 'h100x8-v0.10.0-d2d-read-ce-coefficient-of-variation.txt'
const H2D = 'h100x8-v0.10.0-host-to-device-ce-single-row.txt'
const MULTI = 'oci-gb200-2node-8gpu-multinode-read-ce-v0.7-mpi.txt'
const GEN = 'generated-4gpu-v0.8-partial-peer-access.json'
const MiB = 2 ** 20

const read = (f: string): string => readFileSync(join(DIR, f), 'utf8')
const parse = (text: string, p: Parser = TEXT, trial?: number): ParseOutput =>
  parseText(p, text, { file: 'x', ...(trial === undefined ? {} : { trial }) })
const codes = (o: ParseOutput): string[] => o.diagnostics.map((d) => d.code)
const GB = (s: string): number => Number(`${s}e9`)
const NS = (s: string): number => Number(`${s}e-9`)
const at = (o: ParseOutput, bench: string, src: number | null, dst: number | null): number[] =>
  o.rows.filter((r) => r.bench === bench && r.src === src && r.dst === dst).map((r) => r.value)
const range = (o: ParseOutput, bench: string): [number, number] => {
  const v = o.rows.filter((r) => r.bench === bench).map((r) => r.value)
  return [Math.min(...v), Math.max(...v)]
}
type Meta = { summaries: { kind: string; key: string; value: number }[]; [k: string]: unknown }

test('every nvbandwidth fixture is detected, parses into valid rows, and matches its golden file', () => {
  assert.equal(FILES.length, 5)
  for (const f of FILES) {
    const text = read(f)
    const p = detectParser(text.slice(0, 64 * 1024))
    assert.equal(p?.id, f.endsWith('.json') ? 'nvbandwidth-json' : 'nvbandwidth', f)
    const out = parseText(p as Parser, text, { file: f })
    assert.ok(out.rows.length > 0, f)
    for (const r of out.rows) assert.equal(rowProblem(r), undefined, `${f}: ${JSON.stringify(r)}`)
    assert.ok(!out.rows.some((r) => r.value === 0), `${f}: an N/A became a zero`)
    checkGolden(`parsers/nvbandwidth/${f.replace(/\.(txt|json)$/, '')}`, {
      meta: out.meta,
      rows: out.rows,
      diagnostics: out.diagnostics,
    })
  }
})

test('every number of each .source.txt Headline appears exactly: cells among the rows, SUM and CV among the summaries', () => {
  for (const f of FILES) {
    const out = parseText(f.endsWith('.json') ? JSONP : TEXT, read(f), { file: f })
    const h =
      /^Headline: (.*)$/m.exec(readFileSync(join(DIR, f.replace(/\.(txt|json)$/, '.source.txt')), 'utf8'))?.[1] ?? ''
    let n = 0
    for (const m of h.matchAll(/(SUM|COEFFICIENT_OF_VARIATION)(?: \w+)? (\d+(?:\.\d+)?)/g)) {
      const kind = m[1] as string
      assert.ok(
        (out.meta as Meta).summaries.some((s) => s.kind === kind && s.value === Number(m[2])),
        `${f}: ${m[0]}`,
      )
      n++
    }
    const cells = h.replace(/(SUM|COEFFICIENT_OF_VARIATION)(?: \w+)? \d+(?:\.\d+)?/g, '')
    for (const m of cells.matchAll(/(\d+\.\d+)(?=[^;]*?(GB\/s|ns))/g)) {
      const want = m[2] === 'ns' ? NS(m[1] as string) : GB(m[1] as string)
      assert.ok(
        out.rows.some((r) => r.value === want),
        `${f}: ${m[1]} ${m[2]}`,
      )
      n++
    }
    assert.ok(n >= 2, `${f}: headline numbers checked`)
  }
})

test('headline ranges are the extremes of their matrices', () => {
  assert.deepEqual(range(parse(read(V04)), 'nvbw.device_to_device_memcpy_read_ce'), [GB('370.26'), GB('372.96')])
  assert.deepEqual(range(parse(read(D2D)), 'nvbw.device_to_device_memcpy_read_ce'), [GB('395.05'), GB('395.25')])
  assert.deepEqual(range(parse(read(H2D)), 'nvbw.host_to_device_memcpy_ce'), [GB('55.33'), GB('55.37')])
  assert.deepEqual(range(parse(read(MULTI)), 'nvbw.multinode_device_to_device_memcpy_read_ce'), [
    GB('797.65'),
    GB('798.25'),
  ])
  const gen = parse(read(GEN), JSONP)
  assert.deepEqual(range(gen, 'nvbw.host_to_device_memcpy_ce'), [GB('53.7946'), GB('53.8203')])
  assert.deepEqual(range(gen, 'nvbw.device_to_device_memcpy_read_ce'), [GB('25.7906'), GB('25.8177')])
  assert.deepEqual(range(gen, 'nvbw.device_to_device_bidirectional_memcpy_read_ce_total'), [
    GB('49.8808'),
    GB('49.918'),
  ])
  assert.deepEqual(range(gen, 'nvbw.host_device_latency_sm'), [NS('779.918'), NS('783.105')])
  assert.deepEqual(range(gen, 'nvbw.device_to_device_latency_sm'), [NS('1839.66'), NS('1851.09')])
})

/** Every cell of every text matrix: [row label, column, text, line]. */
function textCells(text: string): { desc: string; i: number; j: number; cell: string; line: number }[] {
  const out: { desc: string; i: number; j: number; cell: string; line: number }[] = []
  let desc = ''
  let cols: number[] | null = null
  text.split('\n').forEach((l, k) => {
    const tk = l.trim().split(/\s+/)
    if (/\((GB\/s|ns)\)\s*$/.test(l)) [desc, cols] = [l.trim(), null]
    else if (desc && !cols && tk.every((x) => /^\d+$/.test(x))) cols = tk.map(Number)
    else if (cols && tk.length === cols.length + 1 && /^\d+$/.test(tk[0] as string))
      cols.forEach((j, c) => out.push({ desc, i: Number(tk[0]), j, cell: tk[c + 1] as string, line: k + 1 }))
    else [desc, cols] = ['', null]
  })
  return out
}

test('text matrices cell by cell: read tests give src = column, dst = row; host rows give src null; N/A gives no row', () => {
  for (const f of [V04, D2D, H2D, MULTI]) {
    const text = read(f)
    const out = parse(text)
    const cells = textCells(text)
    assert.equal(out.rows.length, cells.filter((c) => c.cell !== 'N/A').length, f)
    for (const c of cells) {
      const host = c.desc.includes('CPU(row)')
      const [src, dst] = host ? [null, c.j] : [c.j, c.i] // every GPU matrix here is a *_read_ce test
      const hits = out.rows.filter((r) => r.source.line === c.line && r.src === src && r.dst === dst)
      if (c.cell === 'N/A') {
        assert.equal(hits.length, 0, `${f}:${c.line}`)
        continue
      }
      assert.deepEqual(
        hits.map((r) => r.value),
        [GB(c.cell)],
        `${f}:${c.line} (${c.i},${c.j})`,
      )
      const r = hits[0] as Row
      assert.deepEqual(
        [r.metric, r.unit, r.copy, r.direction, r.p2p],
        ['bandwidth', 'B/s', 'ce', host ? undefined : 'read', host ? null : 'enabled'],
      )
    }
  }
  // v0.10 d2d row " 3    395.08    395.08    395.23       N/A ...": device 3 reads 395.23 GB/s from device 2.
  assert.deepEqual(at(parse(read(D2D)), 'nvbw.device_to_device_memcpy_read_ce', 2, 3), [GB('395.23')])
  const na = parse(read(D2D)).diagnostics.filter((d) => d.code === 'na-cell')
  assert.equal(na.length, 1)
  assert.match(na[0]?.message ?? '', /8 N\/A cells \(the diagonal\)/)
})

test('meta: versions, devices (plain, PCI, multinode), buffer size by version, summaries', () => {
  const v04 = parse(read(V04)).meta as Meta
  assert.deepEqual(
    [v04.version, v04.gitVersion, v04.cudaRuntimeVersion, v04.cudaDriverVersion, v04.driverVersion],
    ['v0.4', 'v0.4.2-12-g8857188', 12020, 12080, '570.133.20'],
  )
  assert.deepEqual(v04.bufferSize, { bytes: 64 * MiB, source: 'version-default' })
  assert.equal((v04.devices as unknown[]).length, 8)
  assert.equal(v04.commandLine, 'root@elsah100:/azure-nhc/bin# ./nvbandwidth -t device_to_device_memcpy_read_ce')
  const v10 = parse(read(D2D)).meta as Meta
  assert.deepEqual(
    [v10.version, v10.cudaRuntimeVersion, v10.cudaDriverVersion, v10.complete],
    ['v0.10.0', 13020, 13020, true],
  )
  assert.deepEqual(
    v10.summaries.map((s) => [s.kind, s.key, s.value]),
    [
      ['SUM', 'device_to_device_memcpy_read_ce', 22126.64],
      ['COEFFICIENT_OF_VARIATION', 'device_to_device_memcpy_read_ce', 0],
    ],
  )
  assert.deepEqual(v10.bufferSize, { bytes: 512 * MiB, source: 'version-default' })
  const multi = parse(read(MULTI)).meta as Meta
  assert.match(String(multi.mpiVersion), /^Open MPI v4\.1\.4/)
  assert.deepEqual((multi.devices as unknown[])[5], {
    index: 5,
    name: 'HGX GB200',
    pci: '00000009:01:00',
    host: 'nvbandwidth-test-worker-1',
    localDevice: 1,
  })
  for (const r of parse(read(MULTI)).rows) assert.equal(r.sizeBytes, 512 * MiB)
})

const v08 = (body: string): string =>
  [
    'nvbandwidth Version: v0.8',
    'Built from Git version: v0.8',
    '',
    'CUDA Runtime Version: 12080',
    'CUDA Driver Version: 12080',
    'Driver Version: 570.124.06',
    '',
    'gpubox',
    'Device 0: NVIDIA H100 80GB HBM3 (00000000:1b:00)',
    'Device 1: NVIDIA H100 80GB HBM3 (00000000:43:00)',
    '',
    body,
  ].join('\n')

test('v0.8 shapes: hostname and PCI device lines, -b on the command line, perfFormatter lines, Waived and errors', () => {
  const body = [
    'Running device_to_device_memcpy_write_ce.',
    'memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)',
    '           0         1',
    ' 0       N/A    181.25',
    ' 1    180.75       N/A',
    '',
    '&&&& PERF device_to_device_memcpy_write_ce 362.00 +GB/s',
    '',
    'Waived: ',
    'Running device_to_device_latency_sm.',
    'Device to Device Latency SM GPU(row) <-> GPU(column) (ns)',
    '           0         1',
    ' 0       N/A    712.50',
    ' 1    708.25       N/A',
    '',
    'SUM device_to_device_latency_sm 1420.75',
    '',
    'Running host_to_device_memcpy_sm.',
    'ERROR: out of memory',
    '',
  ].join('\n')
  const out = parse(`$ ./nvbandwidth -b 64 -t device_to_device_memcpy_write_ce\n${v08(body)}`)
  const meta = out.meta as Meta
  assert.equal(meta.hostname, 'gpubox')
  assert.deepEqual((meta.devices as unknown[])[1], { index: 1, name: 'NVIDIA H100 80GB HBM3', pci: '00000000:43:00' })
  // write: the row device pushes into the column device.
  assert.deepEqual(at(out, 'nvbw.device_to_device_memcpy_write_ce', 0, 1), [GB('181.25')])
  assert.deepEqual(at(out, 'nvbw.device_to_device_memcpy_write_ce', 1, 0), [GB('180.75')])
  // latency: the row device chases pointers in the column device's memory; ns → s; fixed 2 MiB buffer.
  const lat = out.rows.filter((r) => r.bench === 'nvbw.device_to_device_latency_sm')
  assert.deepEqual(
    lat.map((r) => [r.src, r.dst, r.value, r.metric, r.unit, r.sizeBytes]),
    [
      [1, 0, NS('712.50'), 'latency', 's', 2 * MiB],
      [0, 1, NS('708.25'), 'latency', 's', 2 * MiB],
    ],
  )
  for (const r of out.rows.filter((x) => x.metric === 'bandwidth')) assert.equal(r.sizeBytes, 64 * MiB)
  assert.deepEqual(meta.bufferSize, { bytes: 64 * MiB, source: 'command-line' })
  assert.ok(meta.summaries.some((s) => s.kind === 'PERF' && s.value === 362))
  assert.deepEqual(
    (meta.testcases as { name: string | null; status: string }[]).map((t) => [t.name, t.status]),
    [
      ['device_to_device_memcpy_write_ce', 'passed'],
      [null, 'waived'],
      ['device_to_device_latency_sm', 'passed'],
      ['host_to_device_memcpy_sm', 'error'],
    ],
  )
  assert.deepEqual(codes(out).sort(), ['na-cell', 'na-cell', 'testcase-error', 'waived'])
})

test('text bidirectional tests: three matrices named by their SUM keys, each part oriented by its copy', () => {
  const m = (d: string, a: string, b: string): string[] => [
    d,
    '           0         1',
    ` 0       N/A    ${a}`,
    ` 1    ${b}       N/A`,
    '',
  ]
  const body = [
    'Running device_to_device_bidirectional_memcpy_read_ce.',
    ...m('memcpy CE CPU(row) <-> GPU(column) Read1 bandwidth (GB/s)', '176.10', '175.90'),
    'SUM device_to_device_bidirectional_memcpy_read_ce_read1 352.00',
    '',
    ...m('memcpy CE CPU(row) <-> GPU(column) Read2 bandwidth (GB/s)', '174.20', '173.80'),
    'SUM device_to_device_bidirectional_memcpy_read_ce_read2 348.00',
    '',
    ...m('memcpy CE CPU(row) <-> GPU(column) Total bandwidth (GB/s)', '350.30', '349.70'),
    'SUM device_to_device_bidirectional_memcpy_read_ce_total 700.00',
    '',
  ].join('\n')
  const out = parse(v08(body))
  const b = 'nvbw.device_to_device_bidirectional_memcpy_read_ce'
  assert.deepEqual([...new Set(out.rows.map((r) => r.bench))], [`${b}_read1`, `${b}_read2`, `${b}_total`])
  // Read1 copies column → row, Read2 row → column, total counts both (filed row → column).
  assert.deepEqual(at(out, `${b}_read1`, 1, 0), [GB('176.10')])
  assert.deepEqual(at(out, `${b}_read2`, 0, 1), [GB('174.20')])
  assert.deepEqual(at(out, `${b}_total`, 0, 1), [GB('350.30')])
  // Without SUM lines (a cut log) the description names the part.
  const noSum = parse(v08(body.replace(/^SUM .*$/gm, '')))
  assert.deepEqual([...new Set(noSum.rows.map((r) => r.bench))], [`${b}_read1`, `${b}_read2`, `${b}_total`])
})

test('two runs joined by a separator line: both parse, trials count up', () => {
  const out = parse(`${read(D2D)}#####\n${read(H2D)}`, TEXT, 2)
  assert.deepEqual(
    [...new Set(out.rows.map((r) => `${r.bench} ${r.trial}`))],
    ['nvbw.device_to_device_memcpy_read_ce 2', 'nvbw.host_to_device_memcpy_ce 3'],
  )
  assert.equal((out.meta as Meta).runs, 2)
})

test('JSON: string cells and N/A, bidirectional parts split from the stacked matrix, testcase statuses, cell lines', () => {
  const text = read(GEN)
  const out = parse(text, JSONP)
  const lines = text.split('\n')
  const b = 'nvbw.device_to_device_bidirectional_memcpy_read_ce'
  assert.deepEqual(at(out, `${b}_read1`, 1, 0), [GB('24.9512')])
  assert.deepEqual(at(out, `${b}_read2`, 0, 1), [GB('24.9498')])
  assert.deepEqual(at(out, `${b}_total`, 0, 1), [GB('49.901')])
  assert.deepEqual(at(out, 'nvbw.device_to_device_memcpy_read_ce', 1, 0), [GB('25.8134')])
  assert.deepEqual(at(out, 'nvbw.host_to_device_memcpy_ce', null, 2), [GB('53.8203')])
  assert.equal(at(out, 'nvbw.device_to_device_memcpy_read_ce', 2, 0).length, 0) // N/A: no peer access
  for (const r of out.rows) {
    const cell = (lines[r.source.line - 1] ?? '').trim().replace(/^"|",?$|"$/g, '')
    assert.equal(r.value, r.metric === 'latency' ? NS(cell) : GB(cell), `line ${r.source.line}`)
  }
  const na = out.diagnostics.filter((d) => d.code === 'na-cell')
  assert.equal(na.length, 5)
  assert.ok(na.every((d) => /12 N\/A cells, 8 off the diagonal/.test(d.message)))
  assert.deepEqual(
    codes(out).filter((c) => c !== 'na-cell'),
    ['waived', 'testcase-error'],
  )
  const meta = out.meta as Meta
  assert.deepEqual(
    [meta.version, meta.cudaRuntimeVersion, meta.driverVersion, meta.hostname, (meta.devices as unknown[]).length],
    ['v0.8', 12080, '570.124.06', 'gpubox', 4],
  )
  assert.equal(out.rows.length, 4 + 4 + 12 + 4 + 4)
})

test('JSON amid log noise, re-serialized on one line, or cut short', () => {
  const text = read(GEN)
  const base = parse(text, JSONP)
  const noisy = parse(`WARNING: garbage messages {\nWARNING: another {{{}}}}}\n${text}WARNING: trailing }}}\n`, JSONP)
  assert.deepEqual(
    noisy.rows.map((r) => ({ ...r, source: { ...r.source, line: r.source.line - 2 } })),
    base.rows,
  )
  const flat = parse(JSON.stringify(JSON.parse(text)), JSONP)
  assert.deepEqual(
    flat.rows.map((r) => [r.bench, r.src, r.dst, r.value]),
    base.rows.map((r) => [r.bench, r.src, r.dst, r.value]),
  )
  const cut = parse(text.slice(0, Math.floor(text.length / 2)), JSONP)
  assert.equal(cut.rows.length, 0)
  assert.deepEqual(codes(cut), ['incomplete'])
  const bad = parse('{\n "nvbandwidth" : { "version" : "v0.8", ]\n}\n', JSONP)
  assert.deepEqual(codes(bad), ['bad-json'])
})

test('garbage and empty input never throw; detection keeps text and JSON apart', () => {
  for (const p of [TEXT, JSONP]) {
    for (const t of [
      '',
      'x',
      '{',
      '{"nvbandwidth": 5}',
      'Running x.\n(GB/s) (row)\n1 2\n0 N/A\nSUM x y',
      ' 0 N/A N/A\nSUM a 1',
      '&&&& PERF\nProcess 1 (h): device 2: X',
    ]) {
      const out = parse(t, p)
      assert.equal(out.rows.length, 0, JSON.stringify(t))
    }
  }
  assert.equal(TEXT.detect(read(GEN)), 0)
  assert.equal(JSONP.detect(read(D2D)), 0)
})
