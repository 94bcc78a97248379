/** The simulated texts have the layouts of the real outputs under test/fixtures/nccl-tests and test/fixtures/p2pBandwidthLatencyTest. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { SIM_MARKER } from '../../src/model/index.ts'
import { COLLECTIVES, presetNames, simulate } from '../../src/sim/index.ts'

/**
 * busbw = algbw × factor, as nccl-tests publishes it (NVIDIA/nccl-tests doc/PERFORMANCE.md),
 * written down here independently of the simulator's own table so a wrong factor there fails.
 */
const PUBLISHED_BUS_FACTOR: Readonly<Record<string, (n: number) => number>> = {
  all_reduce: (n) => (2 * (n - 1)) / n,
  all_gather: (n) => (n - 1) / n,
  reduce_scatter: (n) => (n - 1) / n,
  broadcast: () => 1,
  alltoall: (n) => (n - 1) / n,
  sendrecv: () => 1,
}

import { FIXTURES } from '../helpers.ts'
import { ncclRows, p2pMatrix } from './_helpers.ts'

const SIZES = [8, 64, 1024, 65536, 1 << 20, 64 << 20]
const fixture = readFileSync(
  join(FIXTURES, 'nccl-tests', 'rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings.txt'),
  'utf8',
).split('\n')

test('every output starts with SIM_MARKER and a comment naming preset and seed', () => {
  for (const preset of presetNames()) {
    for (const format of ['nccl-tests', 'p2p'] as const) {
      const lines = simulate({ preset, format, seed: 7, sizes: SIZES }).split('\n')
      assert.equal(lines[0], SIM_MARKER)
      assert.match(lines[1] as string, new RegExp(`^# preset ${preset} seed 7 trial 0 .*simulated`))
    }
  }
})

test('nccl-tests: banner, one rank line per GPU, the v2.18.3 header lines byte for byte, a row per size, footer', () => {
  const text = simulate({
    preset: 'pcie-switch',
    format: 'nccl-tests',
    gpus: [4, 5, 6],
    sizes: SIZES,
    seed: 3,
    iters: 10,
    warmup: 2,
  })
  const lines = text.split('\n')
  assert.equal(lines[2], '# nccl-tests version 2.18.3 nccl-headers=22807 nccl-library=22807')
  assert.equal(lines[3], '# Collective test starting: all_reduce_perf')
  assert.equal(
    lines[4],
    '# nThread 1 nGpus 3 minBytes 8 maxBytes 67108864 step: 2(factor) warmup iters: 2 iters: 10 agg iters: 1 validation: 1 graph: 0 unalign: 0',
  )
  const ranks = lines.filter((l) => l.startsWith('#  Rank'))
  assert.equal(ranks.length, 3)
  // Ordinals 0..2 in --gpus order; bus ids of physical GPUs 4, 5, 6 (0x93..0x95 in this preset).
  assert.match(
    ranks[0] as string,
    /^# {2}Rank {2}0 Group {2}0 Pid +\d+ on sim-switch device {2}0 \[0000:93:00\] NVIDIA RTX PRO 6000/,
  )
  assert.match(ranks[2] as string, /device {2}2 \[0000:95:00\]/)
  for (const h of [
    '#                                                              out-of-place',
    '#       size',
    '#        (B)',
  ]) {
    const want = fixture.find((l) => l.startsWith(h))
    assert.ok(want)
    assert.equal(
      lines.find((l) => l.startsWith(h)),
      want,
      `header line ${h.trim()}`,
    )
  }
  const rows = ncclRows(text)
  assert.deepEqual(
    rows.map((r) => r.size),
    SIZES,
  )
  assert.match(lines.at(-7) as string, /^# Out of bounds values : 0 OK$/)
  assert.match(lines.at(-6) as string, /^# Avg bus bandwidth {4}: [\d.]+ $/)
  assert.deepEqual(lines.slice(-5), ['#', '# Collective test concluded: all_reduce_perf', '#', '', ''])
})

test('nccl-tests rows: fixed columns as v2.18.3 prints them; algbw = size/time, busbw = algbw × factor; footer mean', () => {
  for (const collective of COLLECTIVES) {
    const n = 4
    const text = simulate({
      preset: 'nvlink',
      format: 'nccl-tests',
      collective,
      gpus: [0, 1, 2, 3],
      sizes: SIZES,
      seed: 1,
    })
    const rowLines = text.split('\n').filter((l) => /^\s+\d+\s+\d+\s+float/.test(l))
    for (const l of rowLines) assert.equal(l.length, collective === 'alltoall' ? 117 : 118, `row width: ${l}`)
    const rows = ncclRows(text)
    const busbws: number[] = []
    for (const r of rows) {
      const perRank = collective === 'all_gather' || collective === 'reduce_scatter' || collective === 'alltoall'
      assert.equal(r.size, perRank ? Math.floor(r.size / 4 / n) * n * 4 : r.size)
      assert.equal(r.count, perRank ? r.size / 4 / n : r.size / 4)
      assert.equal(r.redop, collective === 'all_reduce' || collective === 'reduce_scatter' ? 'sum' : 'none')
      assert.equal(r.root, collective === 'broadcast' ? '0' : '-1')
      assert.equal(r.ip.wrong, collective === 'alltoall' ? 'N/A' : '0')
      for (const h of [r.oop, r.ip]) {
        const algbw = r.size / (h.time * 1e-6) / 1e9
        assert.ok(
          Math.abs(h.algbw - algbw) <= 0.006 + algbw * 0.002,
          `${collective} ${r.size}: algbw ${h.algbw} vs ${algbw}`,
        )
        const published = PUBLISHED_BUS_FACTOR[collective]
        assert.ok(published, `${collective}: its published bus factor is written down in this test`)
        const f = published(n)
        assert.ok(Math.abs(h.busbw - h.algbw * f) <= 0.011 + h.busbw * 0.002, `${collective}: busbw/algbw = ${f}`)
        busbws.push(h.busbw)
      }
    }
    const avg = Number(/# Avg bus bandwidth {4}: ([\d.e+-]+)/.exec(text)?.[1])
    assert.ok(Math.abs(avg - busbws.reduce((a, b) => a + b, 0) / busbws.length) < 0.01, `${collective}: avg ${avg}`)
  }
})

test('p2p: device list, peer-access lines, connectivity with its TAB, 4 bandwidth and 2 latency sections in order', () => {
  const text = simulate({ preset: 'seed-vm', format: 'p2p', gpus: [0, 3, 5], seed: 2 })
  const lines = text.split('\n')
  assert.equal(lines[2], '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]')
  assert.equal(
    lines[3],
    'Device: 0, NVIDIA RTX PRO 6000 Blackwell Workstation Edition, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
  )
  assert.equal(
    lines[4],
    'Device: 1, NVIDIA RTX PRO 6000 Blackwell Workstation Edition, pciBusID: 4, pciDeviceID: 0, pciDomainID:0',
  )
  assert.equal(lines.filter((l) => / CANNOT Access Peer Device=/.test(l)).length, 6)
  assert.ok(lines.includes('     0\t     1     0     0'))
  const titles = lines.filter((l) => /Matrix/.test(l))
  assert.deepEqual(titles, [
    'P2P Connectivity Matrix',
    'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
    'Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)',
    'Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
    'Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)',
    'P2P=Disabled Latency Matrix (us)',
    'P2P=Enabled Latency (P2P Writes) Matrix (us)',
  ])
  assert.ok(lines.includes('   D\\D     0      1      2 '), 'bandwidth header with the trailing space')
  assert.equal(lines.filter((l) => l === '   GPU     0      1      2 ').length, 2)
  assert.equal(lines.filter((l) => l === '   CPU     0      1      2 ').length, 2)
  for (const t of titles.slice(1))
    assert.deepEqual(
      p2pMatrix(text, t).map((r) => r.length),
      [3, 3, 3],
    )
  assert.equal(
    lines.at(-2),
    'NOTE: The CUDA Samples are not meant for performance measurements. Results may vary when GPU Boost is enabled.',
  )
})

test('p2p on a P2P machine: CAN everywhere, connectivity all ones, enabled latency far below disabled', () => {
  const text = simulate({ preset: 'baremetal-turin', format: 'p2p', seed: 2 })
  assert.equal(text.split('\n').filter((l) => / CAN Access Peer Device=/.test(l)).length, 56)
  const on = p2pMatrix(text, 'P2P=Enabled Latency (P2P Writes) Matrix (us)')
  const off = p2pMatrix(text, 'P2P=Disabled Latency Matrix (us)')
  assert.ok((on[0]?.[1] as number) < 1 && (off[0]?.[1] as number) > 10)
})
