/**
 * Simulated text read back by gpucomm's real parsers (detectParser + parseText): every preset ×
 * format is recognised and its rows carry the true values within the noise.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { detectParser, parseText } from '../../src/parsers/index.ts'
import { presetNames, simulate, trueTime } from '../../src/sim/index.ts'
import { median } from './_helpers.ts'

const SIZES = [8, 64, 1024, 16384, 262144, 1 << 20, 16 << 20, 64 << 20]
const ALL8 = [0, 1, 2, 3, 4, 5, 6, 7]
const ncclText = simulate({ preset: 'seed-vm', format: 'nccl-tests', sizes: SIZES, seed: 1 })
const p2pText = simulate({ preset: 'seed-vm', format: 'p2p', seed: 1 })
/** The parser that detects `text`; a text no parser detects fails the test. */
const parserOf = (text: string) => {
  const parser = detectParser(text)
  assert.ok(parser, 'a registered parser detects the simulated text')
  return parser
}

test('every preset × collective: the nccl-tests parser reads every row, marked simulated, times ≈ trueTime', () => {
  for (const preset of presetNames()) {
    for (const collective of ['all_reduce', 'all_gather', 'broadcast', 'sendrecv'] as const) {
      const gpus = preset === 'pcie-switch' ? [0, 1, 2, 3] : ALL8
      const text = simulate({ preset, format: 'nccl-tests', collective, gpus, sizes: SIZES, seed: 2 })
      const parser = detectParser(text)
      assert.ok(parser, `${preset} ${collective}: detected`)
      const out = parseText(parser, text, { file: 'sim.txt' })
      assert.equal(out.meta.simulated, true)
      const times = out.rows.filter((r) => r.metric === 'time')
      assert.equal(times.length, SIZES.length * 2, `${preset} ${collective}: a time row per size and placement`)
      const ratios = times.map(
        (r) => r.value / trueTime(preset, { kind: 'collective', collective, gpus, sizeBytes: r.sizeBytes as number }),
      )
      // One trial: its drift (σ ≤ 1 %) and the jitter of 16 values (σ ≤ 3 % each) stay well inside 5 %.
      assert.ok(Math.abs(median(ratios) - 1) < 0.05, `${preset} ${collective}: median ratio ${median(ratios)}`)
      assert.ok(
        ratios.every((q) => q > 0.85 && q < 3.1),
        `${preset} ${collective}: ratios ${ratios.join(' ')}`,
      )
      assert.ok(times.every((r) => r.ranks === gpus.length))
    }
  }
})

test('every preset: the p2p parser reads all matrices; seed-vm 16 B latency with P2P disabled ≈ 13.7 µs', () => {
  for (const preset of presetNames()) {
    const text = simulate({ preset, format: 'p2p', seed: 3 })
    const parser = detectParser(text)
    assert.ok(parser, `${preset}: detected`)
    const out = parseText(parser, text, { file: 'p2p.txt' })
    assert.equal(out.meta.simulated, true)
    // 4 bandwidth matrices + 2 sections × (GPU + CPU) latency matrices, 8 × 8 cells each.
    assert.equal(out.rows.length, 8 * 64, `${preset}: rows`)
    const lat = out.rows.filter((r) => r.metric === 'latency' && r.timer === 'gpu' && r.src !== r.dst)
    for (const p2p of ['enabled', 'disabled'] as const) {
      const ratios = lat
        .filter((r) => r.p2p === p2p)
        .map(
          (r) => r.value / trueTime(preset, { kind: 'p2p-latency', src: r.src as number, dst: r.dst as number, p2p }),
        )
      assert.ok(Math.abs(median(ratios) - 1) < 0.03, `${preset} ${p2p}: median ratio ${median(ratios)}`)
    }
  }
  const out = parseText(parserOf(p2pText), p2pText, {
    file: 'p2p.txt',
  })
  const off = out.rows
    .filter((r) => r.metric === 'latency' && r.timer === 'gpu' && r.p2p === 'disabled' && r.src !== r.dst)
    .map((r) => r.value)
  assert.ok(Math.abs(median(off) / 13.7e-6 - 1) < 0.03, `seed-vm P2P-disabled latency median ${median(off)}`)
})

test('faults as the nccl-tests parser sees them: truncated and crash keep complete rows, corrupt shows wrong elements', () => {
  const read = (fault: 'truncated' | 'crash' | 'corrupt' | 'hang') => {
    const text = simulate({ preset: 'seed-vm', format: 'nccl-tests', sizes: SIZES, seed: 1, fault })
    return parseText(parserOf(text), text, { file: 'f.txt' })
  }
  const full = parseText(parserOf(ncclText), ncclText, {
    file: 'f.txt',
  })
  const truncated = read('truncated')
  assert.ok(truncated.rows.length > 0 && truncated.rows.length < full.rows.length)
  assert.ok(
    truncated.diagnostics.some((d) => d.severity !== 'info'),
    'a truncated table is reported',
  )
  assert.equal(read('hang').rows.length, 0)
  const corrupt = read('corrupt')
  assert.ok(
    corrupt.rows.some((r) => r.metric === 'wrong' && r.value > 0),
    'rows with #wrong > 0',
  )
  assert.ok(corrupt.diagnostics.some((d) => /FAILED/.test(d.message)))
})
