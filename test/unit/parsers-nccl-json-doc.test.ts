/**
 * The nccl-tests -J JSON parser as a whole (src/parsers/nccl-tests/nccl-tests-json.ts) on small generated
 * documents (the shapes of nccl-tests' -J writer, src/util.cu; made-up numbers): detection, broken and odd documents, the
 * line each results[] entry cites, the trial, every diagnostic, and where the collective and the
 * rank count come from (args, devices, or the rows themselves).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Diagnostic } from '../../src/model/index.ts'
import { parseText } from '../../src/parsers/_text.ts'
import { ncclTestsJson as JSONP } from '../../src/parsers/nccl-tests/nccl-tests-json.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const parse = (text: string, trial?: number): ParseOutput =>
  parseText(JSONP, text, trial === undefined ? { file: 'g.json' } : { file: 'g.json', trial })
const diag = (line: number, severity: Diagnostic['severity'], code: string, message: string): Diagnostic => ({
  file: 'g.json',
  line,
  severity,
  code,
  message,
})
const pick = (o: ParseOutput, ...keys: string[]): unknown[] => keys.map((k) => o.meta[k])

test('detect: a JSON object with nccl-tests keys; anything else is not claimed', () => {
  assert.equal(JSONP.detect('{"out_of_place": {}}'), 0.95)
  assert.equal(JSONP.detect(' \n\t{\n  "config": {"minimum_bytes": 8}'), 0.95)
  assert.equal(JSONP.detect('{"nccl_version": 22703, "results": []}'), 0.9)
  for (const head of [
    '{"nccl_version": 22703}',
    '{"results": []}',
    '{}',
    '[{"out_of_place": {}}]',
    'x {"out_of_place": {}}',
    '# {"nccl_version": 1, "results": []}',
    '',
  ])
    assert.equal(JSONP.detect(head), 0, head)
})

// Generated: an all_reduce document of two ranks, one results[] entry per "size" line.
const DOC = `{
  "version": 2,
  "args": ["./build/all_reduce_perf", "-g", "2"],
  "config": {"devices": [{"rank": 0, "group": 0}, {"rank": 1, "group": 0}]},
  "results": [
    {"size": 8, "count": 2, "type": "float", "redop": "sum", "root": "    -1",
     "out_of_place": {"time": 12.25, "alg_bw": 0.5, "bus_bw": 0.5, "nwrong": 0},
     "in_place": {"time": 12.5, "alg_bw": null, "bus_bw": "nan", "nwrong": 0}},
    {"size": 16, "count": 4, "type": "float", "redop": "sum", "root": "    -1",
     "out_of_place": {"time": 13, "bus_bw": "nan"}}
  ],
  "errors": ["NCCL failure common.cu:1 'unhandled cuda error'", 5],
  "out_of_bounds": {"count": 0, "okay": false}
}`

test('rows cite the line of their "size"; null and "nan" cells, errors and a failed check are diagnostics', () => {
  const out = parse(DOC, 3)
  assert.deepEqual(
    out.rows.map((r) => [r.sizeBytes, r.placement, r.metric, r.source.line, r.trial, r.bench, r.ranks]),
    [
      [8, 'out-of-place', 'time', 6, 3, 'nccl.all_reduce', 2],
      [8, 'out-of-place', 'algbw', 6, 3, 'nccl.all_reduce', 2],
      [8, 'out-of-place', 'busbw', 6, 3, 'nccl.all_reduce', 2],
      [8, 'out-of-place', 'wrong', 6, 3, 'nccl.all_reduce', 2],
      [8, 'in-place', 'time', 6, 3, 'nccl.all_reduce', 2],
      [8, 'in-place', 'wrong', 6, 3, 'nccl.all_reduce', 2],
      [16, 'out-of-place', 'time', 9, 3, 'nccl.all_reduce', 2],
    ],
  )
  assert.deepEqual(out.diagnostics, [
    diag(
      6,
      'info',
      'na-cell',
      '3 null cells (check disabled, alltoall in-place, or a missing block): no rows for them',
    ),
    diag(6, 'warn', 'bad-cell', '2 cells that are not numbers ("nan"): no rows for them'),
    diag(1, 'error', 'nccl-error', "nccl-tests reported: NCCL failure common.cu:1 'unhandled cuda error'"),
    diag(1, 'warn', 'out-of-bounds', 'data check failed (out_of_bounds.okay is false)'),
  ])
  assert.deepEqual(pick(out, 'collective', 'collectiveFrom', 'ranks', 'ranksFrom', 'rows', 'versionRange'), [
    'all_reduce',
    'args',
    2,
    'devices',
    7,
    '2.19.2-2.19.5',
  ])
})

test('two "size" keys on one line are two entries; a count that does not match the entries cites line 1', () => {
  const one = `{"args": ["./build/all_reduce_perf"], "config": {"devices": [{"rank": 0}, {"rank": 1}]},
"results": [{"size": 8, "type": "float", "out_of_place": {"time": 1}}, {"size": 16, "out_of_place": {"time": 2}}]}`
  assert.deepEqual(
    parse(one).rows.map((r) => [r.sizeBytes, r.source.line]),
    [
      [8, 2],
      [16, 2],
    ],
  )
  const extra = DOC.replace('"config": {', '"config": {"size": 1, ')
  const out = parse(extra, 2.5)
  assert.deepEqual([...new Set(out.rows.map((r) => `${r.source.line} ${r.trial}`))], ['1 0'])
  assert.deepEqual(
    out.diagnostics.slice(0, 2).map((d) => d.line),
    [4, 4],
  )
  const skipped = DOC.replace('"results": [', '"results": [7, [],')
  assert.deepEqual([...new Set(parse(skipped).rows.map((r) => r.source.line))], [1])
  assert.equal(parse(skipped).rows.length, 7)
  assert.ok(parse(DOC).rows.every((r) => r.trial === 0))
})

test('broken documents: not JSON, not an object, no results list', () => {
  const bad = parse('{"results": [\n1,\n')
  assert.deepEqual([bad.rows, bad.meta, bad.diagnostics.length], [[], {}, 1])
  assert.deepEqual(
    [bad.diagnostics[0]?.line, bad.diagnostics[0]?.severity, bad.diagnostics[0]?.code],
    [2, 'error', 'bad-json'],
  )
  assert.match(bad.diagnostics[0]?.message ?? '', /^not valid JSON: .{1,200}$/)
  assert.equal(parse('').diagnostics[0]?.code, 'bad-json')
  for (const text of ['[1, 2]', '5', 'null', '"x"', '\n\n[]'])
    assert.deepEqual(parse(text), {
      rows: [],
      meta: {},
      diagnostics: [diag(1, 'error', 'bad-json', 'the JSON document is not an object')],
    })
  for (const results of ['', ', "results": {"size": 8}', ', "results": null']) {
    const out = parse(`{"version": 3${results}}`)
    assert.deepEqual(out.diagnostics, [diag(1, 'warn', 'no-results', 'the document has no "results" list')], results)
    assert.deepEqual(pick(out, 'collective', 'collectiveFrom', 'ranks', 'rows'), ['unknown', 'none', undefined, 0])
  }
  const empty = parse('{"results": []}')
  assert.deepEqual([empty.diagnostics, empty.meta.collective, empty.meta.rows], [[], 'unknown', 0])
  const ok = parse('{"results": [], "out_of_bounds": {"okay": "false"}, "errors": []}')
  assert.deepEqual(ok.diagnostics, [])
})

/** A generated document of results with the given fields (no args, no devices unless given). */
const doc = (results: Record<string, unknown>[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ version: 3, ...extra, results }, null, 2)
const entry = (size: number, count: number, redop: string, root: string, o: object, i?: object | null) => ({
  size,
  count,
  type: 'float',
  redop,
  root,
  out_of_place: o,
  ...(i === undefined ? {} : { in_place: i }),
})
const from = (o: ParseOutput) => pick(o, 'collective', 'collectiveFrom', 'ranks', 'ranksFrom')

test('the collective and the ranks from the rows when args or devices do not say', () => {
  const ar = (alg: number, bus: number) => entry(64, 16, 'sum', '    -1', { alg_bw: alg, bus_bw: bus })
  // busbw = algbw × 2(n-1)/n: 15.75/10.5 is n = 4 (rows only), 10.25/10.25 is n = 2 (once the rows settle on
  // all_reduce). The JSON holds numbers, so the printed precision is what String() gives back.
  assert.deepEqual(from(parse(doc([ar(10.5, 15.75)]))), ['all_reduce', 'rows', 4, 'inferred'])
  assert.deepEqual(from(parse(doc([ar(10.25, 10.25)]))), ['all_reduce', 'rows', 2, 'inferred'])
  const args = { args: ['./build/all_reduce_perf'] }
  assert.deepEqual(from(parse(doc([ar(10.5, 15.75)], args))), ['all_reduce', 'args', 4, 'inferred'])
  const devices = { config: { devices: [{ rank: 0 }, { rank: 1 }, { rank: 2 }] } }
  assert.deepEqual(from(parse(doc([ar(10.5, 15.75)], devices))), ['all_reduce', 'rows', 3, 'devices'])
  assert.deepEqual(from(parse(doc([ar(10.5, 15.75)], { ...args, ...devices }))), ['all_reduce', 'args', 3, 'devices'])
  const other = { args: ['./app', '-b', '8'] }
  assert.deepEqual(from(parse(doc([ar(10.5, 15.75)], other))), ['all_reduce', 'rows', 4, 'inferred'])
  // A rooted row without a reduction whose size is one rank's buffer: broadcast (factor 1, so no rank count).
  const bc = entry(64, 16, 'none', '     0', { alg_bw: 10, bus_bw: 10 })
  assert.deepEqual(from(parse(doc([bc]))), ['broadcast', 'rows', undefined, undefined])
  assert.deepEqual(parse(doc([bc])).rows[0]?.root, 0)
})

test('alltoall or all_gather from the in-place #wrong cell; the rank count from the size ratio', () => {
  const ag = (o: unknown, i: unknown, count = 8) =>
    entry(128, count, 'none', '    -1', { time: 1, nwrong: o }, i === 'absent' ? undefined : { nwrong: i })
  assert.deepEqual(from(parse(doc([ag(0, null)]))), ['alltoall', 'rows', 4, 'inferred'])
  assert.deepEqual(from(parse(doc([ag(0, 0)]))), ['all_gather', 'rows', 4, 'inferred'])
  const unknown = (o: unknown, i: unknown) => {
    const out = parse(doc([ag(o, i)]))
    assert.deepEqual(from(out), ['unknown', 'none', 4, 'inferred'], `${o} ${i}`)
    assert.deepEqual(
      out.diagnostics.filter((d) => d.code === 'collective-unknown'),
      [
        diag(
          1,
          'warn',
          'collective-unknown',
          'the document does not say which collective it measured (rows fit: all_gather, alltoall)',
        ),
      ],
    )
    assert.ok(out.rows.length > 0 && out.rows.every((r) => r.bench === 'nccl.unknown' && r.ranks === 4))
  }
  for (const [o, i] of [
    [0, 'x'],
    [0, {}],
    [null, null],
    ['0', null],
    [0, 'absent'],
  ])
    unknown(o, i)
  // Entries without their count, type, out-of-place block or size say nothing about the collective.
  const bare = (drop: string) => {
    const e: Record<string, unknown> = ag(0, null)
    delete e[drop]
    return e
  }
  for (const drop of ['count', 'type', 'out_of_place', 'size']) {
    const out = parse(doc([bare(drop)]))
    assert.equal(out.meta.collective, 'unknown', drop)
    assert.ok(!out.diagnostics.some((d) => d.code === 'parser-error'), drop)
  }
  assert.equal(parse(doc([{ ...ag(0, null), type: 5 }])).meta.collective, 'unknown')
  // A redop that is not a string is no reduction.
  assert.equal(parse(doc([{ ...ag(0, 0), redop: 5 }])).meta.collective, 'all_gather')
  assert.equal(parse(doc([ag(0, null, 0)])).meta.ranks, undefined)
})

test('an exception while reading the document is one parser-error at the last line, and no meta', () => {
  const lp = JSONP.open({ file: 'g.json' }, () => {
    throw new Error('the sink is full')
  })
  const lines = DOC.split('\n')
  lines.forEach((l, i) => lp.line(l, i + 1))
  assert.deepEqual(lp.end(), {
    meta: {},
    diagnostics: [diag(lines.length, 'error', 'parser-error', 'could not read the document: the sink is full')],
  })
})

test('cells of entries without a "size" line are counted at line 1; long error texts are cut to 300', () => {
  const long = 'e'.repeat(400)
  const out = parse(
    `{"args": ["all_gather_perf"], "results": [{"out_of_place": {"time": null}}],\n"errors": ["${long}"]}`,
  )
  assert.deepEqual(out.diagnostics, [
    diag(
      1,
      'info',
      'na-cell',
      '4 null cells (check disabled, alltoall in-place, or a missing block): no rows for them',
    ),
    diag(1, 'error', 'nccl-error', `nccl-tests reported: ${long.slice(0, 300)}`),
  ])
})

test('results[] entries that are no object are skipped when the rows are read for the collective', () => {
  const out = parse(doc([null, 5, 'x'] as unknown as Record<string, unknown>[]))
  assert.deepEqual(pick(out, 'collective', 'collectiveFrom', 'rows'), ['unknown', 'none', 0])
  assert.deepEqual(
    out.diagnostics.map((d) => d.code),
    ['collective-unknown'],
  )
})
