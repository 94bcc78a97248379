/**
 * inBand's edges (src/bands/bands.ts): a value counts as inside a band widened by 10 % at
 * both ends, the widened edges themselves included.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Band } from '../../src/analysis/index.ts'
import { inBand } from '../../src/bands/bands.ts'

test('inBand: 10 % past either edge is inside, the widened edge itself too, beyond it not', () => {
  const band = { low: 10e-6, high: 20e-6 } as Band
  // 10 µs × 0.9 and 20 µs × 1.1, as floating point has them.
  const lo = 10e-6 * 0.9
  const hi = 20e-6 * 1.1
  assert.deepEqual(
    [lo * 0.999, lo, 15e-6, hi, hi * 1.001].map((v) => inBand(band, v)),
    [false, true, true, true, false],
  )
})

test("ncclModelBand: NCCL's ring all_reduce model, base + 2(n−1)·hop, on the path its key names", async () => {
  const { ncclModelBand } = await import('../../src/bands/bands-collective.ts')
  // tuning.cc's constants as the band cites them: PCI/Simple 8.4 + 2·3·5.7 µs at 4 GPUs, NVLink/LL 6.6 + 2·7·0.6 µs at 8.
  const pci = ncclModelBand('PCI/Simple', 4)
  assert.equal(pci.path, 'PCI')
  assert.deepEqual(pci.links, ['PIX', 'PXB', 'PHB', 'NODE', 'SYS'])
  assert.ok(Math.abs(pci.low - 42.6e-6) < 1e-12 && pci.high === pci.low)
  assert.equal(pci.id, 'nccl-model-pci-simple-n4')
  const nv = ncclModelBand('NVLink/LL', 8)
  assert.equal(nv.path, 'NVLink')
  assert.deepEqual(nv.links, ['NV'])
  assert.ok(Math.abs(nv.low - 15e-6) < 1e-12)
})
