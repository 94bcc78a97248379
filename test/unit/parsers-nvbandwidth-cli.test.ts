/**
 * nvbandwidth through the CLI: `gpucomm import` of a text and a -j JSON fixture, then
 * `export --format jsonl`, rows in base units. In-process (the commands through `main`): what
 * it checks is the commands' text and exit codes, not a process's.
 */

import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { cli, FIXTURES, tmp } from '../helpers.ts'

const DIR = join(FIXTURES, 'nvbandwidth')
const D2D = 'h100x8-v0.10.0-d2d-read-ce-coefficient-of-variation.txt'
const GEN = 'generated-4gpu-v0.8-partial-peer-access.json'
const MiB = 2 ** 20

test('gpucomm import + export: nvbandwidth text and JSON rows come out in base units', async () => {
  const dir = tmp()
  const out = join(dir, 'set')
  const imp = await cli(['import', join(DIR, D2D), join(DIR, GEN), '--out', out])
  assert.equal(imp.code, 0, imp.stderr)
  const exp = await cli(['export', out, '--format', 'jsonl'])
  assert.equal(exp.code, 0, exp.stderr)
  const rows = exp.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row)
  assert.equal(rows.length, 56 + 28)
  const r = rows.find(
    (x) =>
      x.bench === 'nvbw.device_to_device_memcpy_read_ce' &&
      x.src === 2 &&
      x.dst === 3 &&
      x.source.file.includes('h100x8'),
  )
  assert.deepEqual(
    [r?.value, r?.unit, r?.metric, r?.sizeBytes, r?.direction, r?.source.line],
    [395.23e9, 'B/s', 'bandwidth', 512 * MiB, 'read', 14],
  )
  const lat = rows.find((x) => x.bench === 'nvbw.device_to_device_latency_sm' && x.src === 1 && x.dst === 0)
  assert.deepEqual([lat?.value, lat?.unit, lat?.metric], [1843.27e-9, 's', 'latency'])
})
