/**
 * Real outputs that tripped the readers, reproduced from published fixtures by the quirk
 * alone (issue: hardening): the topo -m command and header on one line; a topo -p2p capture
 * that names no capability.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Parser } from '../../src/parsers/index.ts'
import { detectParser, parserById, parseText } from '../../src/parsers/index.ts'
import type { TopologyReport } from '../../src/topology/index.ts'
import { cli, FIXTURES, tmp } from '../helpers.ts'

const fx = (dir: string, f: string): string => readFileSync(join(FIXTURES, dir, f), 'utf8')
const parser = (id: string): Parser => parserById(id) as Parser

test('topo -m: the command and the column header on one line read like the original', () => {
  for (const f of ['aikitoria13-5x-gpu-epyc-node-phb-raw-tabs.txt', 'autodl-container-2x-rtx2080ti-pix.txt']) {
    const original = fx('nvidia-smi-topo-m', f)
    const [cmd, header, ...rest] = original.split('\n')
    const joined = [`${cmd}${header}`, ...rest].join('\n')
    assert.equal(detectParser(joined)?.id, 'nvidia-smi-topo-m', f)
    const a = parseText(parser('nvidia-smi-topo-m'), original, { file: f })
    const b = parseText(parser('nvidia-smi-topo-m'), joined, { file: f })
    assert.deepEqual(b.diagnostics, [])
    const links = (o: typeof a): unknown =>
      (o.meta.topology as { links: { a: string; b: string; link: string }[] }).links.map((l) => [l.a, l.b, l.link])
    assert.deepEqual(links(b), links(a))
  }
})

test('topo -p2p without a command line or a capability in the file name: statuses kept as unknown, P2P unavailable', async () => {
  const dir = tmp()
  const p2p = join(dir, 'p2p.txt')
  writeFileSync(
    p2p,
    fx('nvidia-smi-topo-p2p', 'autodl-container-2x-rtx2080ti-pcie-p-ns.txt').split('\n').slice(1).join('\n'),
  )
  const m = join(dir, 'm.txt')
  writeFileSync(m, fx('nvidia-smi-topo-m', 'autodl-container-2x-rtx2080ti-pix.txt'))
  const r = await cli(['topo', '--input', m, p2p, '--json'])
  assert.equal(r.code, 0, r.stderr)
  const rep = JSON.parse(r.stdout) as TopologyReport
  assert.deepEqual(
    rep.pairs.map((p) => p.p2p),
    [{ unknown: 'NS' }],
  )
  assert.ok(
    rep.findings.some((f) => f.id === 'p2p-unavailable'),
    rep.findings.map((f) => f.id).join(' '),
  )
  assert.doesNotMatch(JSON.stringify(rep.findings), /P2P unknown/)
})

const H2D = 'h100x8-v0.10.0-host-to-device-ce-single-row.txt'

test('nvbandwidth without its "Running …" line: the testcase is named by the SUM line, and it passed', () => {
  const text = fx('nvbandwidth', H2D)
    .split('\n')
    .filter((l) => !l.startsWith('Running '))
    .join('\n')
  const out = parseText(parser('nvbandwidth'), text, { file: 'x.txt' })
  const tcs = (out.meta as { testcases: { name: string; status: string }[] }).testcases
  assert.deepEqual(
    tcs.map((t) => [t.name, t.status]),
    [['host_to_device_memcpy_ce', 'passed']],
  )
  assert.equal(out.rows.length, 8)
  assert.ok(out.rows.every((r) => r.bench === 'nvbw.host_to_device_memcpy_ce'))
  assert.ok(!out.diagnostics.some((d) => d.code === 'incomplete'))
})

test('nvbandwidth aborting in its data check is a corrupt run: import keeps the raw copy and exits 1', async () => {
  const lines = fx('nvbandwidth', H2D).split('\n')
  const at = lines.findIndex((l) => l.startsWith('Running '))
  const text = [...lines.slice(0, at + 1), 'Invalid value when checking the pattern', 'Aborted (core dumped)', ''].join(
    '\n',
  )
  const dir = tmp()
  writeFileSync(join(dir, 'nvbw.txt'), text)
  const r = await cli(['import', join(dir, 'nvbw.txt'), '--out', join(dir, 'set')])
  assert.equal(r.code, 1, r.stderr)
  // The error names the testcase that was aborted (issue 30 item 11).
  assert.match(
    r.stderr,
    /corrupt-run: nvbandwidth's data check failed in testcase host_to_device_memcpy_ce, which was aborted/,
  )
})
