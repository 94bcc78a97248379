/**
 * p2pBandwidthLatencyTest parser: every fixture against its golden file, its .source.txt
 * "Headline" numbers, an independent cell-by-cell reading of every matrix (orientation:
 * row i → column j, but column → row for "(P2P Reads)"), peer access, copy-paste variants,
 * options on the command line, cut-short and repeated runs, and the simulator's text.
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { eachLine } from '../../src/importer/index.ts'
import type { Row } from '../../src/model/index.ts'
import { rowProblem } from '../../src/model/index.ts'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { detectParser, parserById, parseText } from '../../src/parsers/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { checkGolden } from '../golden.ts'
import { bin, FIXTURES, tmp } from '../helpers.ts'

const DIR = join(FIXTURES, 'p2pBandwidthLatencyTest')
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.txt') && !f.endsWith('.source.txt'))
  .sort()
const P2P = parserById('p2pBandwidthLatencyTest') as Parser
const ASUS = 'asus-esc8000a-4x-rtx6000ada-p2p-enabled.txt'
const A100 = '8x-a100-sxm4-nvswitch-shared-busid-ce.txt'
const AUTODL = 'autodl-container-2x-rtx2080ti-p2p-disabled-cannot.txt'
const DGX2 = 'dgx2-16x-v100-nvswitch-p2p-read-modified-sample.txt'
const LAMBDA = 'lambda-8x-titan-rtx-p2p-disabled-p2p-read-modified-sample.txt'
const PUGET = 'puget-wrx90-2x-rtx6000ada-p2p-enabled.txt'

const read = (f: string): string => readFileSync(join(DIR, f), 'utf8')
const parse = (text: string, file = 'x.txt', trial?: number): ParseOutput =>
  parseText(P2P, text, { file, ...(trial === undefined ? {} : { trial }) })
const codes = (o: ParseOutput): string[] => o.diagnostics.map((d) => d.code)
const GB = (s: string): number => Number(`${s}e9`)
const US = (s: string): number => Number(`${s}e-6`)

type Sel = Partial<Pick<Row, 'bench' | 'p2p' | 'timer' | 'direction'>>
const pick = (o: ParseOutput, sel: Sel): Row[] =>
  o.rows.filter((r) => Object.entries(sel).every(([k, v]) => (r as unknown as Record<string, unknown>)[k] === v))
/** [min, max] of the off-diagonal values that match `sel`. */
function offDiag(o: ParseOutput, sel: Sel): [number, number] {
  const v = pick(o, sel)
    .filter((r) => r.src !== r.dst)
    .map((r) => r.value)
  assert.ok(v.length > 0, `no rows for ${JSON.stringify(sel)}`)
  return [Math.min(...v), Math.max(...v)]
}

test('every p2pBandwidthLatencyTest fixture is detected, parses into valid rows, and matches its golden file', () => {
  assert.equal(FILES.length, 6)
  for (const f of FILES) {
    const text = read(f)
    assert.equal(detectParser(text.slice(0, 64 * 1024))?.id, 'p2pBandwidthLatencyTest', f)
    const out = parseText(P2P, text, { file: f })
    assert.ok(out.rows.length > 0, f)
    for (const r of out.rows) assert.equal(rowProblem(r), undefined, `${f}: ${JSON.stringify(r)}`)
    checkGolden(`parsers/p2pBandwidthLatencyTest/${f.replace(/\.txt$/, '')}`, {
      meta: out.meta,
      rows: out.rows,
      diagnostics: out.diagnostics,
    })
  }
})

/** Every matrix cell as the text prints it, read with nothing but whitespace splits. */
interface TextCell {
  title: string
  timer: 'gpu' | 'cpu' | null
  i: number
  j: number
  text: string
  line: number
}
function textCells(text: string): TextCell[] {
  const out: TextCell[] = []
  let title: string | null = null
  let timer: TextCell['timer'] = null
  let cols: number[] | null = null
  text.split(/\r?\n/).forEach((raw, k) => {
    const t = raw.trim()
    const tk = t.split(/\s+/)
    if (t.includes('P2P=') && /Matrix \((GB\/s|us)\)$/.test(t)) [title, cols] = [t, null]
    else if (title && ['D\\D', 'GPU', 'CPU'].includes(tk[0] as string)) {
      cols = tk.slice(1).map(Number)
      timer = tk[0] === 'GPU' ? 'gpu' : tk[0] === 'CPU' ? 'cpu' : null
    } else if (title && cols && /^\d+$/.test(tk[0] as string) && tk.length === cols.length + 1) {
      cols.forEach((j, c) =>
        out.push({ title: title as string, timer, i: Number(tk[0]), j, text: tk[c + 1] as string, line: k + 1 }),
      )
    } else if (t !== '') [title, cols] = [null, null]
  })
  return out
}

test('every cell of every matrix becomes one row at its line, src/dst following the data (reads: column → row)', () => {
  for (const f of FILES) {
    const text = read(f)
    const out = parse(text, f)
    const cells = textCells(text)
    assert.equal(out.rows.length, cells.length, f)
    const byLine = new Map<number, Row[]>()
    for (const r of out.rows) byLine.set(r.source.line, [...(byLine.get(r.source.line) ?? []), r])
    for (const c of cells) {
      const reads = c.title.includes('(P2P Reads)')
      const [src, dst] = reads ? [c.j, c.i] : [c.i, c.j]
      const latency = c.title.includes('Latency')
      const want = latency ? US(c.text) : GB(c.text)
      const bench = latency ? 'p2p.latency' : c.title.startsWith('Bidirectional') ? 'p2p.bw_bi' : 'p2p.bw_uni'
      const hits = (byLine.get(c.line) ?? []).filter((r) => r.src === src && r.dst === dst)
      assert.equal(hits.length, 1, `${f}:${c.line} (${c.i},${c.j})`)
      const r = hits[0] as Row
      assert.equal(r.value, want, `${f}:${c.line} (${c.i},${c.j})`)
      assert.equal(r.bench, bench)
      assert.equal(r.p2p, c.title.includes('P2P=Enabled') ? 'enabled' : 'disabled')
      assert.equal(r.timer, latency ? c.timer : null)
      assert.equal(r.direction, reads ? 'read' : c.title.includes('(P2P Writes)') ? 'write' : undefined)
      assert.equal(r.unit, latency ? 's' : 'B/s')
    }
  }
})

/** Every two-decimal number of a .source.txt Headline, with the unit that follows it. */
function headlineNumbers(f: string): { text: string; unit: 'GB/s' | 'us' }[] {
  const src = readFileSync(join(DIR, f.replace(/\.txt$/, '.source.txt')), 'utf8')
  const h = (/^Headline[^:]*: (.*)$/m.exec(src)?.[1] ?? '').replace(/~[\d.]+-[\d.]+/g, '')
  const out: { text: string; unit: 'GB/s' | 'us' }[] = []
  for (const m of h.matchAll(/\d+\.\d\d\b/g)) {
    const rest = h.slice((m.index ?? 0) + m[0].length)
    const gb = rest.indexOf('GB/s')
    const us = rest.indexOf(' us')
    const unit = gb >= 0 && (us < 0 || gb < us) ? 'GB/s' : 'us'
    out.push({ text: m[0], unit })
  }
  return out
}

test('every number of each .source.txt Headline appears exactly among the rows', () => {
  for (const f of FILES) {
    const out = parse(read(f), f)
    const nums = headlineNumbers(f)
    assert.ok(nums.length >= 3, `${f}: headline has numbers`)
    for (const n of nums) {
      const want = n.unit === 'GB/s' ? GB(n.text) : US(n.text)
      assert.ok(
        out.rows.some((r) => r.value === want && r.src !== r.dst),
        `${f}: ${n.text} ${n.unit}`,
      )
    }
  }
})

test('headline ranges are the off-diagonal extremes of the matrices they name', () => {
  const asus = parse(read(ASUS))
  assert.deepEqual(offDiag(asus, { bench: 'p2p.bw_uni', p2p: 'enabled' }), [GB('26.32'), GB('26.33')])
  assert.deepEqual(offDiag(asus, { bench: 'p2p.bw_bi', p2p: 'enabled' }), [GB('52.10'), GB('52.12')])
  assert.deepEqual(offDiag(asus, { bench: 'p2p.latency', p2p: 'disabled', timer: 'gpu' }), [US('10.27'), US('14.22')])
  assert.deepEqual(offDiag(asus, { bench: 'p2p.latency', p2p: 'enabled', timer: 'gpu' }), [US('1.21'), US('1.44')])
  const a100 = parse(read(A100))
  assert.deepEqual(offDiag(a100, { bench: 'p2p.bw_uni', p2p: 'enabled', direction: 'write' }), [
    GB('269.59'),
    GB('276.62'),
  ])
  assert.deepEqual(offDiag(a100, { bench: 'p2p.bw_bi', p2p: 'enabled' }), [GB('424.32'), GB('522.48')])
  assert.deepEqual(offDiag(a100, { bench: 'p2p.latency', p2p: 'disabled', timer: 'gpu' }), [US('15.81'), US('23.68')])
  assert.deepEqual(offDiag(a100, { bench: 'p2p.latency', p2p: 'enabled', timer: 'gpu' }), [US('2.72'), US('3.33')])
  const dgx = parse(read(DGX2))
  assert.deepEqual(offDiag(dgx, { bench: 'p2p.bw_uni', direction: 'read' }), [GB('145.50'), GB('145.51')])
  assert.deepEqual(offDiag(dgx, { bench: 'p2p.bw_bi', p2p: 'enabled' }), [GB('267.91'), GB('274.47')])
  assert.deepEqual(offDiag(dgx, { bench: 'p2p.latency', timer: 'gpu', direction: 'write' }), [US('2.26'), US('2.76')])
  assert.deepEqual(offDiag(dgx, { bench: 'p2p.latency', timer: 'gpu', direction: 'read' }), [US('9.24'), US('10.29')])
  assert.deepEqual(offDiag(dgx, { bench: 'p2p.latency', timer: 'gpu', p2p: 'disabled' }), [US('20.19'), US('28.89')])
  const lambda = parse(read(LAMBDA))
  const bw = lambda.rows.filter((r) => r.metric === 'bandwidth' && r.src !== r.dst).map((r) => r.value)
  assert.deepEqual([Math.min(...bw), Math.max(...bw)], [GB('9.91'), GB('11.49')])
  assert.deepEqual(offDiag(lambda, { bench: 'p2p.latency', timer: 'gpu', direction: 'write' }), [
    US('12.82'),
    US('14.37'),
  ])
  assert.deepEqual(offDiag(lambda, { bench: 'p2p.latency', timer: 'gpu', direction: 'read' }), [
    US('11.88'),
    US('12.86'),
  ])
  const autodl = parse(read(AUTODL))
  assert.deepEqual(offDiag(autodl, { bench: 'p2p.latency', timer: 'cpu' }), [US('10.34'), US('11.08')])
})

test('matrix orientation: row is the source for writes, the destination for reads', () => {
  // autodl "P2P=Disabled Latency Matrix (us)" GPU rows: "0   1.33  14.76" / "1  13.95   1.26".
  const autodl = parse(read(AUTODL))
  const lat = (o: ParseOutput, src: number, dst: number, sel: Sel): number[] =>
    pick(o, { bench: 'p2p.latency', ...sel })
      .filter((r) => r.src === src && r.dst === dst)
      .map((r) => r.value)
  assert.deepEqual(lat(autodl, 0, 1, { p2p: 'disabled', timer: 'gpu' }), [US('14.76')])
  assert.deepEqual(lat(autodl, 1, 0, { p2p: 'disabled', timer: 'gpu' }), [US('13.95')])
  assert.deepEqual(lat(autodl, 0, 1, { p2p: 'enabled', timer: 'gpu' }), [US('14.99')])
  assert.deepEqual(lat(autodl, 1, 0, { p2p: 'enabled', timer: 'gpu' }), [US('13.63')])
  // dgx2 "P2P=Enabled Latency (P2P Reads)" GPU row 0: "0   3.22   9.47   9.53 ..." - device 0 pulls from 1 and 2.
  const dgx = parse(read(DGX2))
  assert.deepEqual(lat(dgx, 1, 0, { direction: 'read', timer: 'gpu' }), [US('9.47')])
  assert.deepEqual(lat(dgx, 2, 0, { direction: 'read', timer: 'gpu' }), [US('9.53')])
  assert.deepEqual(lat(dgx, 0, 0, { direction: 'read', timer: 'gpu' }), [US('3.22')])
  // ... and its "(P2P Reads)" bandwidth row 1 ends "145.50 145.51 145.51 145.51 ..." from column 5 on.
  const rd = pick(dgx, { bench: 'p2p.bw_uni', direction: 'read' }).filter((r) => r.dst === 1 && r.src === 5)
  assert.deepEqual(
    rd.map((r) => r.value),
    [GB('145.51')],
  )
})

test('peer access: CANNOT pairs get peerAccess false on P2P=Enabled rows; disabled and diagonal rows carry none', () => {
  for (const f of [AUTODL, LAMBDA]) {
    const out = parse(read(f))
    const enabledOff = out.rows.filter((r) => r.p2p === 'enabled' && r.src !== r.dst)
    assert.ok(enabledOff.length > 0)
    for (const r of enabledOff) assert.equal(r.peerAccess, false, `${f}: ${JSON.stringify(r)}`)
    for (const r of out.rows.filter((x) => x.p2p === 'disabled' || x.src === x.dst))
      assert.equal(r.peerAccess, undefined)
    assert.ok((out.meta.peerAccess as number[][]).every((row, i) => row.every((v, j) => v === (i === j ? 1 : 0))))
  }
  const a100 = parse(read(A100))
  for (const r of a100.rows.filter((x) => x.p2p === 'enabled' && x.src !== x.dst)) assert.equal(r.peerAccess, true)
  // One pair made CANNOT in both the access lines and the connectivity matrix.
  const text = read(ASUS)
    .replace('Device=0 CAN Access Peer Device=2', 'Device=0 CANNOT Access Peer Device=2')
    .replace('Device=2 CAN Access Peer Device=0', 'Device=2 CANNOT Access Peer Device=0')
    .replace('     0       1     1     1     1', '     0       1     1     0     1')
    .replace('     2       1     1     1     1', '     2       0     1     1     1')
  const mixed = parse(text)
  const denied = mixed.rows.filter((r) => r.peerAccess === false)
  assert.ok(denied.length > 0)
  for (const r of denied) assert.deepEqual([r.src, r.dst].sort(), [0, 2])
  assert.equal(
    mixed.rows.filter((r) => r.p2p === 'enabled' && [r.src, r.dst].sort().join() === '0,2').length,
    denied.length,
  )
  assert.deepEqual(codes(mixed), [])
  // The connectivity matrix alone decides when the CAN/CANNOT lines are missing; a disagreement is reported.
  const connOnly = parse(
    text
      .split('\n')
      .filter((l) => !l.startsWith('Device='))
      .join('\n'),
  )
  assert.equal(connOnly.meta.peerAccessSource, 'connectivity-matrix')
  assert.deepEqual(connOnly.rows.filter((r) => r.peerAccess === false).length, denied.length)
  const clash = parse(read(ASUS).replace('Device=1 CAN Access Peer Device=3', 'Device=1 CANNOT Access Peer Device=3'))
  assert.ok(codes(clash).includes('peer-access-mismatch'))
  assert.ok(clash.rows.some((r) => r.src === 1 && r.dst === 3 && r.peerAccess === false))
})

test('copy-paste variants (TAB kept or expanded, trailing spaces, CRLF) give the same rows and meta', () => {
  const raw = read(A100)
  assert.ok(raw.includes('\t'))
  const variants = [
    raw.replace(/\t/g, '       '),
    raw.replace(/^(\s+\d+ .*\d)$/gm, '$1 ').replace(/^(\s+D\\D.*\d)$/gm, '$1 '),
    raw.replace(/\n/g, '\r\n'),
  ]
  const base = parse(raw)
  for (const v of variants) {
    assert.notEqual(v, raw)
    const out = parse(v)
    assert.deepEqual(out.rows, base.rows)
    assert.deepEqual(out.meta, base.meta)
    assert.deepEqual(out.diagnostics, base.diagnostics)
  }
})

test('streaming through the importer line splitter gives the rows of the in-memory parse', async () => {
  const text = read(DGX2)
  const rows: Row[] = []
  const lp = P2P.open({ file: 'x.txt' }, (r) => rows.push(r))
  await eachLine(Buffer.from(text), (l, n) => lp.line(l, n))
  lp.end()
  assert.deepEqual(rows, parse(text).rows)
})

test('command-line options: --sm_copy marks peer copies sm, --numElems sets bandwidth sizes, --p2p_read is recorded', () => {
  const text = read(ASUS)
    .replace('./p2pBandwidthLatencyTest\n', './p2pBandwidthLatencyTest --sm_copy --numElems=10000000\n')
    .replace('Device=0 CAN Access Peer Device=1', 'Device=0 CANNOT Access Peer Device=1')
  const out = parse(text)
  assert.deepEqual(out.meta.options, {
    p2pRead: false,
    smCopy: true,
    numElems: 10000000,
    commandLine: text.split('\n')[0],
  })
  for (const r of out.rows) {
    const sm = r.p2p === 'enabled' && r.src !== r.dst && !(r.src === 0 && r.dst === 1)
    assert.equal(r.copy, sm ? 'sm' : 'ce', JSON.stringify(r))
    assert.equal(r.sizeBytes, r.metric === 'bandwidth' ? 40_000_000 : null)
  }
  for (const r of parse(read(ASUS)).rows) assert.equal([r.copy, r.sizeBytes].join(), 'ce,')
  assert.equal((parse(read(DGX2)).meta.options as { p2pRead: boolean }).p2pRead, true)
})

test('a cut-short run keeps its complete cells, drops a half-printed one and says incomplete', () => {
  const full = read(ASUS)
  const at = full.indexOf('     2  22.35  22.17 812.') + '     2  22.35  22.17 812.'.length
  const out = parse(full.slice(0, at))
  assert.deepEqual(
    out.rows.map((r) => r.value),
    [140.75, 22.23, 22.12, 22.21, 22.32, 813.8, 22.14, 22.38, 22.35, 22.17].map((v) => GB(String(v))),
  )
  assert.ok(codes(out).includes('short-row'))
  assert.ok(codes(out).includes('incomplete'))
  const failed = parse(
    full.replace('P2P=Disabled Latency Matrix (us)', "Cuda failure p2pBandwidthLatencyTest.cu:288: 'out of memory'"),
  )
  assert.ok(codes(failed).includes('cuda-failure'))
  assert.equal(failed.meta.complete, false)
  assert.equal(pick(failed, { bench: 'p2p.bw_bi' }).length, 32)
  // The puget paste lost only the final NOTE line: every matrix is there, reported as info.
  const puget = parse(read(PUGET))
  assert.deepEqual(
    puget.diagnostics.map((d) => [d.code, d.severity]),
    [['no-footer', 'info']],
  )
})

test('two runs in one file: trials count up from origin.trial, meta keeps both', () => {
  const one = read(PUGET)
  const out = parse(`${one}\n${one}`, 'x.txt', 3)
  assert.equal(out.rows.length, 64)
  assert.deepEqual([...new Set(out.rows.map((r) => r.trial))], [3, 4])
  assert.equal(out.meta.runs, 2)
  assert.equal((out.meta.otherRuns as unknown[]).length, 1)
  assert.ok(codes(out).includes('no-footer'))
})

test('garbage, empty input and stray matrix lines never throw and yield no rows', () => {
  for (const text of [
    '',
    '\n\n',
    'hello\nworld',
    '   D\\D     0      1\n     0 1.00 2.00',
    'P2P=Enabled Latency (P2P Writes) Matrix (us)\n   GPU 99999999\n     7 x y z',
    'Device=99999999 CAN Access Peer Device=0\nDevice: 999999, X, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
  ]) {
    const out = parse(text)
    assert.equal(out.rows.length, 0, JSON.stringify(text))
    assert.ok(out.diagnostics.length > 0)
  }
  assert.equal(P2P.detect('nvbandwidth Version: v0.8\n'), 0)
})

test('the simulator text (SIMULATED marker first) parses completely: seed-vm has no peer access anywhere', () => {
  const text = simulate({ preset: 'seed-vm', format: 'p2p', seed: 11, gpus: [0, 1, 2, 3] })
  assert.equal(detectParser(text)?.id, 'p2pBandwidthLatencyTest')
  const out = parse(text)
  assert.equal(out.meta.simulated, true)
  assert.equal(out.meta.complete, true)
  assert.deepEqual(out.diagnostics, [])
  assert.equal(out.rows.length, 8 * 16)
  assert.equal(out.rows.length, textCells(text).length)
  for (const r of out.rows.filter((x) => x.p2p === 'enabled' && x.src !== x.dst)) assert.equal(r.peerAccess, false)
})

test('gpucomm import + export: the autodl fixture gives the host-staged "enabled" latency row', async () => {
  const dir = tmp()
  const out = join(dir, 'set')
  const imp = await bin(['import', join(DIR, AUTODL), '--out', out])
  assert.equal(imp.code, 0, imp.stderr)
  const exp = await bin(['export', out, '--format', 'jsonl'])
  assert.equal(exp.code, 0, exp.stderr)
  const rows = exp.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row)
  assert.equal(rows.length, 32)
  const r = rows.find(
    (x) => x.bench === 'p2p.latency' && x.p2p === 'enabled' && x.timer === 'gpu' && x.src === 0 && x.dst === 1,
  )
  assert.ok(r)
  assert.equal(r.value, 14.99e-6)
  assert.equal(r.unit, 's')
  assert.equal(r.metric, 'latency')
  assert.equal(r.peerAccess, false)
  assert.equal(r.direction, 'write')
  assert.equal(r.source.line, 41)
  const bw = rows.find((x) => x.bench === 'p2p.bw_bi' && x.p2p === 'disabled' && x.src === 0 && x.dst === 1)
  assert.equal(bw?.value, 6.12e9)
})
