#!/usr/bin/env node
// Writes test/fixtures/nvbandwidth/generated-4gpu-v0.8-partial-peer-access.json: a GENERATED
// (not measured) nvbandwidth v0.8 `-j` document. The schema follows the nvbandwidth sources
// (json_output.cpp: keys, string cells, "N/A", bidirectional tests appending three matrices
// to one testcase); the layout follows jsoncpp 1.9.5 toStyledString (tab indent, `"key" :`
// then the container on the next line, keys in byte order, doubles as %.17g).
import { writeFileSync } from 'node:fs'

const g17 = (x) => {
  let s = x.toPrecision(17)
  if (s.includes('e')) return s
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '')
  return s.includes('.') ? s : `${s}.0`
}
/** A number jsoncpp holds as a double (printed %.17g even when integral). */
class Double {
  constructor(x) {
    this.x = x
  }
}
const isContainer = (v) => v !== null && typeof v === 'object' && !(v instanceof Double)
function write(v, ind) {
  if (Array.isArray(v)) return `[\n${v.map((x) => `${ind}\t${write(x, `${ind}\t`)}`).join(',\n')}\n${ind}]`
  if (isContainer(v)) {
    const keys = Object.keys(v).sort()
    const parts = keys.map((k) => {
      const x = v[k]
      const head = `${ind}\t${JSON.stringify(k)} :`
      return isContainer(x) ? `${head}\n${ind}\t${write(x, `${ind}\t`)}` : `${head} ${write(x, `${ind}\t`)}`
    })
    return `{\n${parts.join(',\n')}\n${ind}}`
  }
  if (v instanceof Double) return g17(v.x)
  if (typeof v === 'number') return String(v)
  return JSON.stringify(v)
}
const dbl = (x) => new Double(x)
const sum = (m) => m.flat().reduce((a, c) => a + (c === 'N/A' ? 0 : Number(c)), 0)
const tc = (name, description, matrices) => {
  const rows = matrices.flat()
  return {
    bandwidth_description: description,
    bandwidth_matrix: rows,
    name,
    status: 'Passed',
    sum: dbl(sum(matrices.at(-1))),
  }
}
// GPUs 0-1 and 2-3 can reach each other as peers; the cross pairs cannot (N/A in every D2D test).
const d2d = [
  ['N/A', '25.8134', 'N/A', 'N/A'],
  ['25.7906', 'N/A', 'N/A', 'N/A'],
  ['N/A', 'N/A', 'N/A', '25.8021'],
  ['N/A', 'N/A', '25.8177', 'N/A'],
]
const read1 = [
  ['N/A', '24.9512', 'N/A', 'N/A'],
  ['24.9387', 'N/A', 'N/A', 'N/A'],
  ['N/A', 'N/A', 'N/A', '24.9603'],
  ['N/A', 'N/A', '24.9455', 'N/A'],
]
const read2 = [
  ['N/A', '24.9498', 'N/A', 'N/A'],
  ['24.9421', 'N/A', 'N/A', 'N/A'],
  ['N/A', 'N/A', 'N/A', '24.9577'],
  ['N/A', 'N/A', '24.9469', 'N/A'],
]
const total = read1.map((r, i) =>
  r.map((c, j) => (c === 'N/A' ? c : String(Number((Number(c) + Number(read2[i][j])).toPrecision(6))))),
)
const lat = [
  ['N/A', '1843.27', 'N/A', 'N/A'],
  ['1851.09', 'N/A', 'N/A', 'N/A'],
  ['N/A', 'N/A', 'N/A', '1839.66'],
  ['N/A', 'N/A', '1848.5', 'N/A'],
]
const doc = {
  nvbandwidth: {
    'CUDA Runtime Version': 12080,
    'Driver Version': '570.124.06',
    'GPU Device list': [0, 1, 2, 3].map(
      (i) =>
        `${i}: NVIDIA RTX PRO 6000 Blackwell Workstation Edition (00000000:${['01', '21', 'c1', 'e1'][i]}:00): (gpubox)`,
    ),
    git_version: 'v0.8',
    testcases: [
      tc('host_to_device_memcpy_ce', 'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)', [
        [['53.8127', '53.7946', '53.8203', '53.8061']],
      ]),
      tc('device_to_device_memcpy_read_ce', 'memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)', [d2d]),
      tc('device_to_device_bidirectional_memcpy_read_ce', 'memcpy CE CPU(row) <-> GPU(column) Total bandwidth (GB/s)', [
        read1,
        read2,
        total,
      ]),
      { name: 'device_to_device_memcpy_write_sm', status: 'Waived' },
      tc('host_device_latency_sm', 'memory latency SM CPU(row) <-> GPU(column) (ns)', [
        [['781.442', '779.918', '783.105', '780.667']],
      ]),
      tc('device_to_device_latency_sm', 'Device to Device Latency SM GPU(row) <-> GPU(column) (ns)', [lat]),
      { error: 'cuMemcpyAsync(...) failed: CUDA_ERROR_INVALID_VALUE', name: 'all_to_one_write_ce', status: 'Error' },
    ],
    version: 'v0.8',
  },
}
const out = 'test/fixtures/nvbandwidth/generated-4gpu-v0.8-partial-peer-access.json'
writeFileSync(out, `${write(doc, '')}\n\n`)
console.log(`wrote ${out}`)
