/**
 * `--sim-scale F`, the simulator's known shift: every time × F and bandwidth ÷ F with the same
 * noise draws; bad F is one line and exit 2; the shift is recorded in the manifest (import and
 * sweep) and said wherever the set says SIMULATED.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { importFiles } from '../../src/importer/index.ts'
import { simLabel, simScaleIn } from '../../src/model/index.ts'
import { simulate } from '../../src/sim/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { cli, tmp } from '../helpers.ts'
import { ncclRows, p2pMatrix } from './_helpers.ts'

const NCCL = {
  preset: 'seed-vm',
  format: 'nccl-tests',
  gpus: [0, 1, 2, 3],
  sizes: [8, 4096, 1 << 20],
  seed: 7,
} as const

/** Printed values carry 2 decimals: the scaled value matches to that rounding. */
const close = (got: number, want: number, what: string): void =>
  assert.ok(Math.abs(got - want) <= 0.011 * Math.max(1, Math.abs(want) / 100), `${what}: ${got} vs ${want}`)

test('nccl-tests times are × F (same draws), bus bandwidths ÷ F', () => {
  const plain = ncclRows(simulate(NCCL))
  const scaled = ncclRows(simulate({ ...NCCL, scale: 1.5 }))
  assert.equal(scaled.length, plain.length)
  plain.forEach((r, i) => {
    const s = scaled[i]
    assert.ok(s)
    close(s.oop.time, r.oop.time * 1.5, `oop time at ${r.size}`)
    close(s.ip.time, r.ip.time * 1.5, `ip time at ${r.size}`)
    if (r.size >= 4096) close(s.oop.busbw, r.oop.busbw / 1.5, `busbw at ${r.size}`)
  })
})

test('p2pBandwidthLatencyTest: bandwidths ÷ F, latencies × F', () => {
  const o = { preset: 'baremetal-turin', format: 'p2p', gpus: [0, 1], seed: 3 } as const
  const plain = simulate(o)
  const scaled = simulate({ ...o, scale: 2 })
  const bw = 'Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)'
  const lat = 'P2P=Enabled Latency (P2P Writes) Matrix (us)'
  const [b0, b1] = [p2pMatrix(plain, bw), p2pMatrix(scaled, bw)]
  const [l0, l1] = [p2pMatrix(plain, lat), p2pMatrix(scaled, lat)]
  close(b1[0]?.[1] as number, (b0[0]?.[1] as number) / 2, 'bandwidth 0→1')
  close(l1[0]?.[1] as number, (l0[0]?.[1] as number) * 2, 'latency 0→1')
})

test('p2p_bench per-iteration times are × F', () => {
  const o = {
    preset: 'seed-vm',
    format: 'p2p-bench',
    gpus: [0, 1],
    pairs: 'cross',
    sizes: [4],
    bwSizes: [],
    iters: 5,
    copies: ['ce'],
    p2pModes: ['disabled'],
    seed: 2,
  } as const
  const times = (t: string) => [...t.matchAll(/ ([0-9.]+) us\/op/g)].map((m) => Number(m[1]))
  const [a, b] = [times(simulate(o)), times(simulate({ ...o, scale: 1.1 }))]
  assert.equal(a.length, 10)
  a.forEach((x, i) => close(b[i] as number, x * 1.1, `iteration ${i}`))
})

test('the header names the shift; F = 1 prints the unscaled bytes', () => {
  const scaled = simulate({ ...NCCL, scale: 1.03 })
  assert.match(scaled.split('\n')[1] as string, / times x1\.03 \(simulated data/)
  assert.equal(simScaleIn(scaled), 1.03)
  assert.equal(simulate({ ...NCCL, scale: 1 }), simulate(NCCL))
  assert.equal(simScaleIn(simulate(NCCL)), undefined)
})

test('bad F: one line naming --sim-scale, exit 2, nothing printed', async () => {
  for (const f of ['0', '-1', 'NaN', 'abc', 'Infinity']) {
    const r = await cli(['sim', '--preset', 'seed-vm', '--format', 'nccl-tests', '--sizes', '8', '--sim-scale', f])
    assert.equal(r.code, 2, `--sim-scale ${f}`)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /--sim-scale/)
    assert.equal(r.stderr.trim().split('\n').length, 1)
  }
})

test('a sweep spec takes --sim-scale for the simulator only', () => {
  const base = { instrument: 'sim', gpus: '0-3', collectives: 'all_reduce', pairs: 'none' }
  assert.equal(resolveSpec({ ...base, simScale: 1.1 }, 1).simScale, 1.1)
  assert.equal(resolveSpec({ ...base, simScale: 1 }, 1).simScale, undefined)
  assert.throws(() => resolveSpec({ ...base, simScale: 0 }, 1), /--sim-scale 0: expected a number > 0/)
  assert.throws(() => resolveSpec({ ...base, instrument: 'nccl-tests', simScale: 1.1 }, 1), /only --instrument sim/)
})

test('import records the shift; show labels it; another scale is not appended', async () => {
  const dir = tmp('gpucomm-simscale-')
  const out = join(dir, 'set')
  const data = Buffer.from(simulate({ ...NCCL, scale: 1.1 }))
  const s = await importFiles([{ path: 'a.txt', data }], { out, command: ['test'] })
  assert.equal(s.manifest.simScale, 1.1)
  assert.equal(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).simScale, 1.1)
  const shown = await cli(['show', out])
  assert.match(shown.stdout, /^SIMULATED, times x1\.1 result set /)
  const plainFile = join(dir, 'plain.txt')
  writeFileSync(plainFile, simulate(NCCL))
  const r = await cli(['import', plainFile, '--out', out, '--append'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /--sim-scale \(1\) differs/)
  assert.equal(simLabel({ simulated: false, simScale: 2 }), '')
})

test('sweep --instrument sim --sim-scale: manifest and summary say it', async () => {
  const out = join(tmp('gpucomm-simscale-sweep-'), 'set')
  const r = await cli([
    'sweep',
    '--instrument',
    'sim',
    '--preset',
    'seed-vm',
    '--gpus',
    '0-3',
    '--pairs',
    'none',
    '--groupings',
    'tp4',
    '--collectives',
    'all_reduce',
    '--sizes',
    '8',
    '--trials',
    '1',
    '--seed',
    '5',
    '--sim-scale',
    '1.25',
    '--out',
    out,
  ])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /SIMULATED, times x1\.25 sweep \(sim/)
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
  assert.equal(m.simScale, 1.25)
  assert.equal((await cli(['analyze', out])).stdout.split('\n')[0]?.startsWith('SIMULATED, times x1.25 analysis'), true)
})
