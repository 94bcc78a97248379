/**
 * The plain words of src/analysis/_words.ts that verdicts, the text and the report print: band
 * ranges (one unit written once), PCIe link classes, ratios and signed percentages.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bandRange, fmtPct, fmtRatio, p2pPcieWords } from '../../src/analysis/_words.ts'

test('band ranges: one value, a range in one unit, a range across units', () => {
  assert.equal(bandRange({ low: 14e-6, high: 14e-6, unit: 's' }), '14 µs')
  assert.equal(bandRange({ low: 10.3e-6, high: 14.2e-6, unit: 's' }), '10.3–14.2 µs')
  assert.equal(bandRange({ low: 800e-9, high: 1.2e-6, unit: 's' }), '800 ns–1.2 µs')
  assert.equal(bandRange({ low: 20e9, high: 25e9, unit: 'B/s' }), '20–25 GB/s')
  assert.equal(bandRange({ low: 500e6, high: 2e9, unit: 'B/s' }), '500 MB/s–2 GB/s')
  assert.equal(bandRange({ low: 2e9, high: 2e9, unit: 'B/s' }), '2 GB/s')
})

test('PCIe link classes in words, whatever their case; an unknown class or none', () => {
  assert.equal(p2pPcieWords('NODE'), 'P2P over PCIe (NODE: across PCIe host bridges within one NUMA node)')
  assert.equal(p2pPcieWords('pix'), 'P2P over PCIe (pix: through one PCIe switch)')
  assert.equal(p2pPcieWords('NV4'), 'P2P over PCIe (NV4)')
  assert.equal(p2pPcieWords(undefined), 'P2P over PCIe (link class not captured)')
  assert.equal(p2pPcieWords(''), 'P2P over PCIe (link class not captured)')
})

test('ratios: one decimal below 10, none from 10; percentages signed, decimals by size', () => {
  assert.deepEqual([1.94, 9.94, 10, 26.4].map(fmtRatio), ['1.9', '9.9', '10', '26'])
  assert.deepEqual([0, 0.004, -0.0099, 0.01, -0.05, 0.0999, 0.1, -0.25, 1.5].map(fmtPct), [
    '+0.00 %',
    '+0.40 %',
    '−0.99 %',
    '+1.0 %',
    '−5.0 %',
    '+10.0 %',
    '+10 %',
    '−25 %',
    '+150 %',
  ])
})
