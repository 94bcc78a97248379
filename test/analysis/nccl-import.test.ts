/**
 * `import` reads the NCCL_DEBUG=INFO lines of someone else's log into the manifest's source
 * entry (the reader sweeps use for their own runs), and the collective verdicts use them.
 * Real fixtures, and generated variants of them with INFO lines of NCCL's published shapes
 * inserted after the banner.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis } from '../../src/analysis/index.ts'
import { analyze } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import type { Manifest } from '../../src/model/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const fixture = (name: string): string => readFileSync(join(FIXTURES, 'nccl-tests', `${name}.txt`), 'utf8')

/** The fixture with `info` lines inserted after its last "# Using devices" rank line. */
function withInfo(text: string, info: readonly string[]): string {
  const lines = text.split('\n')
  const at = lines.map((l) => /^#\s+Rank\s+\d+/.test(l)).lastIndexOf(true)
  lines.splice(at + 1, 0, ...info)
  return lines.join('\n')
}

async function importText(name: string, text: string): Promise<{ m: Manifest; a: Analysis }> {
  const out = join(tmp('gpucomm-nccl-import-'), 'set')
  const r = await importFiles([{ path: `${name}.txt`, data: Buffer.from(text) }], {
    out,
    command: ['generated-by-test'],
  })
  return { m: r.manifest, a: await analyze(out, { cells: false }) }
}

test('a real log with NCCL INFO lines (GB200, 2 nodes): the INFO lines are counted in the source entry; no transport invented', async () => {
  const { m } = await importText('oci-gb200', fixture('oci-gb200-2node-8rank-allreduce-tail-with-nccl-info'))
  const nccl = m.sources![0]!.nccl!
  assert.equal(nccl.infoLines, 9)
  assert.deepEqual(nccl.transports, [])
  assert.equal(nccl.perChannel, undefined)
})

test('generated A100 np8 log with INFO lines: version, transports per channel, channels, tuner choice in the manifest; the all_reduce is NCCL P2P over NVLink from NCCL itself', async () => {
  const text = withInfo(fixture('a100-sxm4-8gpu-mpirun-np8-interleaved-ompi-help-v2.13'), [
    'thanos:56543:56543 [0] NCCL INFO NCCL version 2.18.3+cuda12.2',
    'thanos:56543:56600 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7',
    'thanos:56543:56600 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read',
    'thanos:56543:56600 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/IPC/read',
    'thanos:56543:56600 [0] NCCL INFO AllReduce: 8 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..1}',
  ])
  const { m, a } = await importText('generated-a100-np8-info', text)
  const nccl = m.sources![0]!.nccl!
  assert.equal(nccl.version, '2.18.3+cuda12.2')
  assert.deepEqual(nccl.transports, ['P2P/IPC'])
  assert.deepEqual(nccl.perChannel, { '00': ['P2P/IPC'], '01': ['P2P/IPC'] })
  assert.equal(nccl.channels, 2)
  assert.deepEqual(nccl.choices, [{ collective: 'AllReduce', bytes: 8, algo: 'Ring', proto: 'LL' }])
  const f = a.fits.find((x) => x.bench === 'nccl.all_reduce')!
  assert.equal(f.mechanism.id, 'nccl-p2p')
  assert.match(f.verdict, /: NCCL over its P2P transport \(over NVLink\)\./)
  assert.equal(f.evidence[0]!.strength, 1)
  assert.match(
    f.evidence[0]!.fact,
    /^NCCL reported via P2P\/IPC, 2 channel\(s\), algorithm Ring, protocol LL, NCCL 2\.18\.3/,
  )
  assert.match(f.evidence[0]!.source, /NCCL_DEBUG=INFO lines of raw\/000-generated-a100-np8-info\.txt/)
  // One process per GPU (-g 1): the single-process A100 band does not match it.
  assert.ok(!f.cited.some((c) => c.id === 'ar-a100-nvswitch-g8' && c.role === 'match'))
  assert.ok(f.cited.some((c) => c.id === 'nccl-model-nvlink-ll-n8' && c.role === 'reference'))
})

test('generated 2080 Ti -g 2 log with SHM lines: NCCL over SHM; with NET lines on the 2-node GB200 log: NCCL over NET', async () => {
  const shm = withInfo(fixture('autodl-container-2x-rtx2080ti-no-p2p-allreduce-g2'), [
    'autodl:31706:31720 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct',
    'autodl:31706:31721 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via SHM/direct/direct',
  ])
  const s = (await importText('generated-2080ti-shm', shm)).a.fits.find((x) => x.bench === 'nccl.all_reduce')!
  assert.equal(s.mechanism.id, 'nccl-shm')
  assert.deepEqual(s.mechanism.transports, ['SHM'])
  assert.ok(s.cited.some((c) => c.id === 'nccl-model-pci-ll-n2'))
  const net = withInfo(fixture('oci-gb200-2node-8rank-allreduce-tail-with-nccl-info'), [
    'nccl-test-worker-0:60:109 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0/GDRDMA',
  ])
  const n = (await importText('generated-gb200-net', net)).a.fits.find((x) => x.bench === 'nccl.all_reduce')!
  assert.equal(n.mechanism.id, 'nccl-net')
  // NCCL's own account wins over the bandwidth, which is said as a conflict (847 GB/s busbw is above any NIC).
  assert.ok(
    n.conflicts.some((c) => /^NCCL reported NET, but algbw .* multi-node NVLink/.test(c.text)),
    JSON.stringify(n.conflicts),
  )
  assert.deepEqual(n.mechanism.transports, ['NET/IB/GDRDMA'])
})

test('SIMULATED seed-vm p2p and TP8 logs imported without a topology: the set’s own CANNOT rows make the all_reduce SHM', async () => {
  const out = join(tmp('gpucomm-nccl-import-'), 'set')
  const p2p = simulate({ preset: 'seed-vm', format: 'p2p', seed: 3 })
  const tp8 = simulate({ preset: 'seed-vm', format: 'nccl-tests', collective: 'all_reduce', sizes: [8, 1024], seed: 3 })
  await importFiles(
    [
      { path: 'sim-p2p.txt', data: Buffer.from(p2p) },
      { path: 'sim-tp8.txt', data: Buffer.from(tp8) },
    ],
    { out, command: ['generated-by-test'] },
  )
  const a = await analyze(out, { cells: false })
  const f = a.fits.find((x) => x.bench === 'nccl.all_reduce')!
  assert.equal(f.mechanism.id, 'nccl-shm')
  assert.match(f.evidence[0]!.fact, /^28 of 28 pairs of the group have no P2P \(GPU0–GPU1: no peer access/)
  assert.equal(a.notes.filter((n) => /'5–8 µs for same-socket NODE pairs'/.test(n)).length, 1)
})
