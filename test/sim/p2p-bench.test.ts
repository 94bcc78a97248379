/**
 * The simulated p2p_bench output (native/README.md "Output"): read by the native parser as a
 * real run would be, every size and iteration, with the seed VM's host-staged ~13.7 µs floor.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { detectParser, parserById, parseText } from '../../src/parsers/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { medianOf, sortSample } from '../../src/stats/index.ts'

const parse = (text: string) =>
  parseText(parserById('native') as NonNullable<ReturnType<typeof parserById>>, text, { file: 'sim.txt' })

test('p2p-bench: the native parser detects and reads it, every size × iteration of every pair and mode', () => {
  const text = simulate({
    preset: 'seed-vm',
    format: 'p2p-bench',
    gpus: [0, 1, 2],
    sizes: [8, 64, 4096],
    bwSizes: [65536, 1 << 20],
    iters: 4,
    seed: 2,
  })
  assert.equal(detectParser(text)?.id, 'native')
  const { rows, diagnostics, meta } = parse(text)
  assert.deepEqual(
    diagnostics.filter((d) => d.severity !== 'info'),
    [],
  )
  // As p2p_bench skips (native/p2p_bench.cu skipReason), written down here from its rules: per test,
  // a self pair skips P2P disabled (ce, sm); a cross pair in the VM (no peer access) skips enabled sm
  // and disabled sm. 3 self + 6 cross pairs, 3 tests: (3 × 2 + 6 × 2) × 3 = 54 SKIP lines.
  const skipLines = text.split('\n').filter((l) => l.startsWith('SKIP '))
  assert.equal(skipLines.length, 54)
  assert.equal(skipLines.filter((l) => /src=(\d)\/dst=\1\/p2p=disabled/.test(l)).length, 18)
  assert.ok(skipLines.every((l) => !l.includes('/p2p=bounce/')))
  // What runs: self enabled ce/sm and bounce ce/sm; cross enabled ce, disabled ce, bounce ce/sm: 4 each.
  const modes = 3 * 4 + 6 * 4
  assert.equal(rows.filter((r) => r.bench === 'p2p.latency').length, modes * 3 * 4)
  assert.equal(rows.filter((r) => r.bench === 'p2p.bw_uni').length, modes * 2 * 4)
  assert.equal(rows.filter((r) => r.bench === 'p2p.bw_bi').length, modes * 2 * 4)
  // bounce reads as P2P off, staged by the bench; every row records its sample's batch.
  const bounce = rows.filter((r) => r.staging === 'bounce')
  assert.equal(bounce.length, (3 * 2 + 6 * 2) * 7 * 4)
  assert.ok(bounce.every((r) => r.p2p === 'disabled' && r.peerAccess === false))
  assert.ok(rows.every((r) => Number.isInteger(r.batch) && (r.batch as number) >= 1))
  assert.equal(meta.version, 'gpucomm-native/2')
  assert.deepEqual([...new Set(rows.map((r) => r.iteration))].sort(), [0, 1, 2, 3])
  assert.deepEqual((meta.config as Record<string, string>)['peer.0.1'], '0')
  // Cross copies never run with peer access in the VM; a GPU to itself with P2P on does.
  assert.ok(rows.filter((r) => r.src !== r.dst).every((r) => r.peerAccess === false))
  assert.ok(rows.filter((r) => r.src === r.dst && r.p2p === 'enabled').every((r) => r.peerAccess === true))
})

test('p2p-bench: the seed VM floor is ~13.7 µs at every small size, bounced on the same GPU too, and grows with size', () => {
  const text = simulate({ preset: 'seed-vm', format: 'p2p-bench', sizes: [8, 1024, 1 << 20], bwSizes: [], iters: 20 })
  const lat = parse(text).rows.filter((r) => r.bench === 'p2p.latency' && r.copy === 'ce')
  const med = (f: (r: (typeof lat)[number]) => boolean) => medianOf(sortSample(lat.filter(f).map((r) => r.value)))
  for (const size of [8, 1024]) {
    const cross = med((r) => r.src !== r.dst && r.sizeBytes === size)
    assert.ok(Math.abs(cross - 13.7e-6) < 0.5e-6, `cross ${size} B: ${cross}`)
  }
  // Inside one GPU P2P off is skipped (the copy never leaves the GPU); the bench's bounce stages it.
  assert.equal(lat.filter((r) => r.src === r.dst && r.p2p === 'disabled' && r.staging === undefined).length, 0)
  const bouncedSelf = med((r) => r.src === r.dst && r.staging === 'bounce' && r.sizeBytes === 8)
  assert.ok(Math.abs(bouncedSelf - 13.7e-6) < 0.5e-6, `self, bounce: ${bouncedSelf}`)
  const local = med((r) => r.src === r.dst && r.p2p === 'enabled' && r.sizeBytes === 8)
  assert.ok(local < 2e-6, `self, P2P on: ${local}`)
  // 1 MiB over the host-staged path (~45 GB/s) adds ~23 µs to the floor.
  const big = med((r) => r.src !== r.dst && r.sizeBytes === 1 << 20)
  assert.ok(big > 30e-6 && big < 45e-6, `1 MiB: ${big}`)
})

test('p2p-bench: bare metal pairs run with peer access; bw_bi counts both directions; corrupt prints a CORRUPT line', () => {
  const text = simulate({
    preset: 'baremetal-turin',
    format: 'p2p-bench',
    gpus: [0, 1],
    sizes: [],
    bwSizes: [1 << 26],
    iters: 3,
  })
  const { rows } = parse(text)
  const uni = rows.find((r) => r.bench === 'p2p.bw_uni' && r.src === 0 && r.dst === 1 && r.p2p === 'enabled')
  const bi = rows.find((r) => r.bench === 'p2p.bw_bi' && r.src === 0 && r.dst === 1 && r.p2p === 'enabled')
  assert.equal(uni?.peerAccess, true)
  assert.ok(bi && uni && bi.value > 1.5 * uni.value, `bi ${bi?.value} vs uni ${uni?.value}`)
  assert.equal(rows.filter((r) => r.bench === 'p2p.latency').length, 0)
  const bad = simulate({
    preset: 'seed-vm',
    format: 'p2p-bench',
    gpus: [0, 1],
    sizes: [8],
    bwSizes: [],
    fault: 'corrupt',
  })
  assert.equal(parse(bad).diagnostics.filter((d) => d.code === 'corrupt').length, 1)
})
