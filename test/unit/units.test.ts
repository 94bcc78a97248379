import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatBytes, formatRate, formatSeconds, parseSize, roundSig } from '../../src/units/index.ts'

test('parseSize uses binary multiples like nccl-tests', () => {
  assert.equal(parseSize('8'), 8)
  assert.equal(parseSize('64K'), 65536)
  assert.equal(parseSize('128M'), 134217728)
  assert.equal(parseSize('1G'), 1073741824)
  assert.equal(parseSize('1MiB'), 1048576)
  assert.equal(parseSize('12X'), undefined)
  assert.equal(parseSize(''), undefined)
})

test('formatters scale base units for people', () => {
  assert.equal(formatSeconds(13.7e-6), '13.7 µs')
  assert.equal(formatSeconds(4.012e-5), '40.12 µs')
  assert.equal(formatSeconds(0.0021), '2.1 ms')
  assert.equal(formatBytes(8), '8 B')
  assert.equal(formatBytes(65536), '64 KiB')
  assert.equal(formatRate(53.5e9), '53.5 GB/s')
  assert.equal(roundSig(1 / 3, 6), 0.333333)
})
