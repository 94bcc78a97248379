/** The numbers in the simulated text come from the exported truth, with the documented noise. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { modelTime, presetTruth, protocolAt, simulate, trueBandwidth, trueTime } from '../../src/sim/index.ts'
import { fitLine, median, ncclRows, p2pMatrix } from './_helpers.ts'

const ALL8 = [0, 1, 2, 3, 4, 5, 6, 7]
const SIZES = Array.from({ length: 24 }, (_, i) => 8 * 2 ** i) // 8 B … 64 MiB

/** Median over trials of every printed time per size (both placements), in seconds. */
function medianTimes(preset: string, trials: number, seed: number): number[] {
  const bySize: number[][] = SIZES.map(() => [])
  for (let t = 0; t < trials; t++) {
    ncclRows(simulate({ preset, format: 'nccl-tests', seed, trial: t, sizes: SIZES })).forEach((r, i) =>
      bySize[i]?.push(r.oop.time * 1e-6, r.ip.time * 1e-6),
    )
  }
  return bySize.map(median)
}

test('seed-vm all_reduce: a line fit of the medians recovers α (LL) and β (Simple) within 2 %', () => {
  const m = presetTruth('seed-vm').collective('all_reduce', ALL8)
  const med = medianTimes('seed-vm', 7, 11)
  const ll = SIZES.map((s, i) => [s, med[i] as number] as const).filter(([s]) => protocolAt(m, s) === 'LL')
  const simple = SIZES.map((s, i) => [s, med[i] as number] as const).filter(([s]) => protocolAt(m, s) === 'Simple')
  assert.ok(ll.length >= 10 && simple.length >= 5, 'both protocols appear in 8 B … 64 MiB')
  const fl = fitLine(
    ll.map(([s]) => s),
    ll.map(([, t]) => t),
  )
  const fs = fitLine(
    simple.map(([s]) => s),
    simple.map(([, t]) => t),
  )
  assert.ok(Math.abs(fl.a / m.ll.alphaS - 1) < 0.02, `α_LL ${fl.a} vs ${m.ll.alphaS}`)
  assert.ok(Math.abs(1 / fs.b / m.simple.betaBps - 1) < 0.02, `β_Simple ${1 / fs.b} vs ${m.simple.betaBps}`)
})

test('a 95 % order-statistic interval of the median over 20 trials covers the true time at most sizes', () => {
  for (const preset of ['seed-vm', 'nvlink']) {
    const bySize: number[][] = SIZES.map(() => [])
    for (let t = 0; t < 20; t++)
      ncclRows(simulate({ preset, format: 'nccl-tests', seed: 5, trial: t, sizes: SIZES })).forEach((r, i) =>
        bySize[i]?.push(r.oop.time * 1e-6),
      )
    let covered = 0
    SIZES.forEach((s, i) => {
      const v = [...(bySize[i] as number[])].sort((a, b) => a - b)
      // Ranks 6 and 15 of 20 (1-based) bound the median with 95.9 % confidence (binomial).
      const truth = trueTime(preset, { kind: 'collective', collective: 'all_reduce', gpus: ALL8, sizeBytes: s })
      // Printing rounds to 2 decimals of µs: widen by half a unit.
      if ((v[5] as number) - 5e-9 <= truth && truth <= (v[14] as number) + 5e-9) covered++
    })
    assert.ok(covered >= 20, `${preset}: ${covered}/24 sizes covered`)
  }
})

test('seed-vm p2p: the 16 B latency with P2P disabled is ≈ 13.7 µs, and "enabled" falls back to it', () => {
  const offDiag = (rows: number[][]) => rows.flatMap((r, i) => r.filter((_, j) => i !== j))
  const values: number[] = []
  const enabled: number[] = []
  for (let t = 0; t < 3; t++) {
    const text = simulate({ preset: 'seed-vm', format: 'p2p', seed: 9, trial: t })
    values.push(...offDiag(p2pMatrix(text, 'P2P=Disabled Latency Matrix (us)')))
    enabled.push(...offDiag(p2pMatrix(text, 'P2P=Enabled Latency (P2P Writes) Matrix (us)')))
  }
  assert.ok(Math.abs(median(values) / 13.7 - 1) < 0.03, `median ${median(values)}`)
  assert.ok(Math.abs(median(enabled) / 13.7 - 1) < 0.03)
  assert.ok(Math.abs(trueTime('seed-vm', { kind: 'p2p-latency', src: 0, dst: 5, p2p: 'enabled' }) - 13.7e-6) < 1e-12)
})

test('p2p truth per pair class: Turin NODE 0.40 / SYS 0.48 µs; switch 0.725 / 1.315 µs; Gen5 P2P bandwidth', () => {
  const lat = (p: string, a: number, b: number) =>
    Math.round(trueTime(p, { kind: 'p2p-latency', src: a, dst: b, p2p: 'enabled' }) * 1e9) / 1e3
  assert.equal(lat('baremetal-turin', 0, 3), 0.4)
  assert.equal(lat('baremetal-turin', 0, 4), 0.48)
  assert.equal(lat('pcie-switch', 5, 7), 0.725)
  assert.equal(lat('pcie-switch', 1, 6), 1.315)
  assert.equal(trueBandwidth('baremetal-turin', { src: 0, dst: 1, p2p: 'enabled', direction: 'uni' }), 55e9)
  const text = simulate({ preset: 'pcie-switch', format: 'p2p', seed: 4 })
  const m = p2pMatrix(text, 'P2P=Enabled Latency (P2P Writes) Matrix (us)')
  assert.ok(Math.abs((m[0]?.[1] as number) / 0.725 - 1) < 0.1 && Math.abs((m[0]?.[5] as number) / 1.315 - 1) < 0.1)
})

test('transports follow NCCL rules: P2P within a switch, SHM across; Turin SHM unless NCCL_P2P_LEVEL=SYS; P2P_DISABLE', () => {
  const sw = presetTruth('pcie-switch')
  assert.equal(sw.collective('all_reduce', [0, 1, 2, 3]).transport, 'P2P/IPC')
  assert.equal(sw.collective('all_reduce', ALL8).transport, 'SHM')
  assert.equal(sw.collective('all_reduce', ALL8, { NCCL_P2P_LEVEL: 'SYS' }).transport, 'P2P/IPC')
  const turin = presetTruth('baremetal-turin')
  assert.equal(turin.collective('all_reduce', [0, 1]).transport, 'SHM')
  assert.equal(turin.collective('all_reduce', [0, 1], { NCCL_P2P_LEVEL: 'PHB' }).transport, 'P2P/IPC')
  assert.equal(turin.collective('all_reduce', [0, 4], { NCCL_P2P_LEVEL: 'PHB' }).transport, 'SHM')
  assert.equal(presetTruth('nvlink').collective('all_reduce', ALL8).transport, 'P2P/NVLink')
  assert.equal(presetTruth('nvlink').collective('all_reduce', ALL8, { NCCL_P2P_DISABLE: '1' }).transport, 'SHM')
  assert.equal(presetTruth('seed-vm').collective('all_reduce', ALL8, { NCCL_P2P_LEVEL: 'SYS' }).transport, 'SHM')
  assert.throws(() => turin.collective('all_reduce', ALL8, { NCCL_P2P_LEVEL: 'FAR' }), /NCCL_P2P_LEVEL=FAR/)
  // An empty value is how a sweep says "unset": NCCL's default applies.
  assert.equal(turin.collective('all_reduce', [0, 1], { NCCL_P2P_LEVEL: '', NCCL_PROTO: '' }).transport, 'SHM')
})

test("α follows NCCL's model: base + 2(n−1)·hop (NCCL tuning.cc), and the 13.7 µs-per-hop reading of the decode model", () => {
  const us = (s: number) => Math.round(s * 1e7) / 10
  // baremetal-turin: NCCL's base latencies with the step costs measured on that machine
  // (1.25 µs LL, 2.55 µs Simple; src/sim/presets/_common.ts), not tuning.cc's 1.0 / 5.7.
  assert.equal(us(presetTruth('baremetal-turin').collective('all_reduce', ALL8).ll.alphaS), 24.1)
  assert.equal(us(presetTruth('baremetal-turin').collective('all_reduce', [0, 1, 2, 3]).ll.alphaS), 14.1)
  assert.equal(us(presetTruth('baremetal-turin').collective('all_reduce', ALL8).simple.alphaS), 44.1)
  // NCCL's tuner: P2P rings switch to Simple at 32 KiB on 8 GPUs; SHM rings across the sockets
  // run Simple from the smallest message unless NCCL_GRAPH_FILE is set (AMD_XGMI_SIMPLE).
  const turin = (env: Record<string, string>) => presetTruth('baremetal-turin').collective('all_reduce', ALL8, env)
  assert.equal(turin({ NCCL_P2P_LEVEL: 'SYS' }).breakpointBytes, 32768)
  assert.equal(turin({}).breakpointBytes, 0)
  assert.equal(turin({ NCCL_P2P_DISABLE: '1' }).breakpointBytes, 0)
  assert.equal(turin({ NCCL_P2P_DISABLE: '1', NCCL_GRAPH_FILE: '/mnt/g.xml' }).breakpointBytes, 32768)
  assert.equal(protocolAt(turin({ NCCL_PROTO: 'LL' }), 8), 'LL')
  // Within one socket (NODE pairs only) the SHM ring keeps LL for small messages.
  assert.ok(presetTruth('baremetal-turin').collective('all_reduce', [0, 1, 2, 3]).breakpointBytes > 0)
  assert.equal(us(presetTruth('nvlink').collective('all_reduce', ALL8).ll.alphaS), 15.0)
  assert.equal(us(presetTruth('seed-vm').collective('all_reduce', ALL8).ll.alphaS), 38.8)
  assert.equal(
    us(presetTruth('seed-vm').collective('all_reduce', ALL8, { NCCL_SHM_USE_CUDA_MEMCPY: '1' }).ll.alphaS),
    198.4,
  )
  assert.equal(
    us(presetTruth('seed-vm').collective('all_reduce', [0, 1, 2, 3], { NCCL_SHM_USE_CUDA_MEMCPY: '1' }).ll.alphaS),
    88.8,
  )
})

test('the protocol switches from LL to Simple at the crossover, and NCCL_PROTO forces one', () => {
  const m = presetTruth('seed-vm').collective('all_reduce', ALL8)
  assert.ok(m.breakpointBytes > 64 * 1024 && m.breakpointBytes < 4 << 20, `breakpoint ${m.breakpointBytes}`)
  const b = m.breakpointBytes
  assert.equal(protocolAt(m, b * 0.99), 'LL')
  assert.equal(protocolAt(m, b), 'Simple')
  assert.ok(Math.abs(modelTime(m, b * 0.999) / modelTime(m, b) - 1) < 0.01, 'the two lines meet at the switch')
  const ll = presetTruth('seed-vm').collective('all_reduce', ALL8, { NCCL_PROTO: 'LL' })
  assert.equal(protocolAt(ll, 64 << 20), 'LL')
  assert.ok(modelTime(ll, 64 << 20) > 1.8 * modelTime(m, 64 << 20))
  const forced = ncclRows(
    simulate({ preset: 'seed-vm', format: 'nccl-tests', sizes: [64 << 20], env: { NCCL_PROTO: 'LL' } }),
  )
  const dflt = ncclRows(simulate({ preset: 'seed-vm', format: 'nccl-tests', sizes: [64 << 20] }))
  assert.ok((forced[0]?.oop.time as number) > 1.7 * (dflt[0]?.oop.time as number))
})

test('noise: a cell does not depend on the other sizes printed; warm-up 0 slows the first row by 1 + 9/iters', () => {
  const one = ncclRows(simulate({ preset: 'nvlink', format: 'nccl-tests', seed: 3, sizes: [1024] }))[0]
  const two = ncclRows(simulate({ preset: 'nvlink', format: 'nccl-tests', seed: 3, sizes: [8, 1024] }))[1]
  assert.deepEqual(one, two)
  const cold = ncclRows(simulate({ preset: 'nvlink', format: 'nccl-tests', seed: 3, sizes: [1024], warmup: 0 }))[0]
  const ratio = (cold?.oop.time as number) / (one?.oop.time as number)
  assert.ok(Math.abs(ratio - 1.45) < 0.01, `cold ratio ${ratio}`)
  assert.equal(cold?.ip.time, one?.ip.time, 'only the first iteration of the run is cold')
})

test('noise: outliers are rare (≈ 0.5 % of values at 1.5–3×) and the jitter σ is as documented', () => {
  const truth = (s: number) =>
    trueTime('baremetal-turin', { kind: 'collective', collective: 'all_reduce', gpus: ALL8, sizeBytes: s })
  const logs: number[] = []
  let outliers = 0
  for (let t = 0; t < 60; t++) {
    for (const r of ncclRows(
      simulate({ preset: 'baremetal-turin', format: 'nccl-tests', seed: 21, trial: t, sizes: SIZES }),
    )) {
      for (const h of [r.oop, r.ip]) {
        const q = (h.time * 1e-6) / truth(r.size)
        if (q > 1.4) outliers++
        else logs.push(Math.log(q))
      }
    }
  }
  const n = 60 * 24 * 2
  assert.ok(outliers >= 1 && outliers <= 20, `${outliers} outliers in ${n}`)
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1))
  // σ 1.5 % per value plus 0.5 % drift between trials: √(1.5² + 0.5²) ≈ 1.58 %.
  assert.ok(Math.abs(sd - 0.0158) < 0.002, `sd of log ratio ${sd}`)
  assert.ok(Math.abs(mean) < 0.003, `mean of log ratio ${mean}`)
})

test('same seed and arguments: same bytes; another seed or trial: other numbers', () => {
  const o = { preset: 'seed-vm', format: 'nccl-tests', seed: 42, sizes: SIZES } as const
  assert.equal(simulate(o), simulate({ ...o }))
  assert.notEqual(simulate(o), simulate({ ...o, seed: 43 }))
  assert.notEqual(simulate(o), simulate({ ...o, trial: 1 }))
  const p = { preset: 'nvlink', format: 'p2p', seed: 42 } as const
  assert.equal(simulate(p), simulate({ ...p }))
  assert.notEqual(simulate(p), simulate({ ...p, seed: 1 }))
})
