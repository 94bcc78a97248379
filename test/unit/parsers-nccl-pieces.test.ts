/**
 * The small pieces of the nccl-tests text parser, one function at a time: the requested size
 * of a banner's sequence, format detection, the collective a file name or `--collective`
 * names. Expected values are written out from the banner's arithmetic (min × factor^k or
 * min + k × step, at most max, printed no more than n 8-byte elements short).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { detectNcclText } from '../../src/parsers/nccl-tests/_nccl-detect.ts'
import { collectiveInFileName, presetCollective } from '../../src/parsers/nccl-tests/_nccl-naming.ts'
import { requestedSize } from '../../src/parsers/nccl-tests/_nccl-sizes.ts'
import { FIXTURES } from '../helpers.ts'

const A100 = readFileSync(join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt'), 'utf8').split(
  '\n',
)
/** Three real result rows (8, 16 and 32 B) of the a100 fixture. */
const ROWS = A100.slice(16, 19)

test('requestedSize: the k-th size of a factor or step sequence, up to maxBytes', () => {
  const factor = { minBytes: 8, maxBytes: 64, stepFactor: 2 }
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((k) => requestedSize(factor, k, 8 * 2 ** k, 1)),
    [8, 16, 32, 64, undefined],
  )
  const step = { minBytes: 100, maxBytes: 300, stepBytes: 100 }
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => requestedSize(step, k, 100 * (k + 1), 1)),
    [100, 200, 300, undefined],
  )
  // Factor 1 is no factor: the step applies (100, 108, 116).
  assert.equal(requestedSize({ minBytes: 100, maxBytes: 200, stepFactor: 1, stepBytes: 8 }, 2, 116, 1), 116)
  // Neither a factor > 1 nor a step > 0: only the first size is known.
  const none = { minBytes: 64, maxBytes: 64, stepFactor: 1, stepBytes: 0 }
  assert.deepEqual([requestedSize(none, 0, 64, 1), requestedSize(none, 1, 64, 1)], [64, undefined])
  assert.equal(requestedSize({ minBytes: 64, maxBytes: 1024 }, 1, 64, 1), undefined)
})

test('requestedSize: undefined without both bounds, when printed is larger, or short by n 8-byte elements', () => {
  assert.equal(requestedSize(undefined, 0, 8, 1), undefined)
  assert.equal(requestedSize({ maxBytes: 64, stepFactor: 2 }, 0, 8, 1), undefined)
  assert.equal(requestedSize({ minBytes: 8, stepFactor: 2 }, 0, 8, 1), undefined)
  assert.equal(requestedSize({ minBytes: '8', maxBytes: 64, stepFactor: 2 }, 0, 8, 1), undefined)
  const p = { minBytes: 64, maxBytes: 1024, stepFactor: 2 }
  assert.equal(requestedSize(p, 0, 72, 1), undefined)
  // 64 B on 4 ranks: up to 3 elements of 8 B short (printed 40) is the request; 4 short (32) is not.
  assert.deepEqual(
    [56, 40, 33, 32, 0].map((printed) => requestedSize(p, 0, printed, 4)),
    [64, 64, 64, undefined, undefined],
  )
  // Without a rank count (or 0 ranks) one element: 57 is within 8 B of 64, 56 is not.
  assert.deepEqual(
    [requestedSize(p, 0, 57, null), requestedSize(p, 0, 56, null), requestedSize(p, 0, 57, 0)],
    [64, undefined, 64],
  )
  assert.equal(requestedSize(p, 0, 56, 0), undefined)
  // 8 B on 12 ranks prints 0 B (all_gather): still the request.
  assert.equal(requestedSize({ minBytes: 8, maxBytes: 64, stepFactor: 2 }, 0, 0, 12), 8)
})

test('detection: each strong marker alone, and row-shaped lines (3 or more, 1 or 2, none)', () => {
  const cases: [string, number][] = [
    ['# nccl-tests version 2.17.8 nccl-headers=22703 nccl-library=22703', 0.95],
    ['# Collective test starting: all_reduce_perf', 0.95],
    [A100[1] as string, 0.95],
    ['nThread 1 nGpus 2 maxBytes 16', 0],
    ['nThread 1 minBytes 8 maxBytes 16', 0],
    ['nGpus 2 minBytes 8', 0],
    [A100.slice(13, 15).join('\n'), 0.9],
    ['out-of-place in-place', 0],
    ['out-of-place algbw', 0],
    ['in-place algbw', 0],
    ['# Out of bounds values : 0 OK', 0.85],
    ['# Avg bus bandwidth    : 66.2058', 0.85],
    [ROWS.join('\n'), 0.7],
    [ROWS.slice(0, 2).join('\n'), 0.55],
    [ROWS[0] as string, 0.55],
    [`\n${ROWS.join('\n')}`, 0.7],
    [`x\n${ROWS.join('\n')}\n`, 0.7],
    // Rows cut after their out-of-place block are not counted.
    [ROWS.map((r) => r.slice(0, 85)).join('\n'), 0],
    ['', 0],
    ['  \n {"results": [], "x": "# nccl-tests version"}', 0],
  ]
  for (const [head, want] of cases) assert.equal(detectNcclText(head), want, JSON.stringify(head.slice(0, 60)))
})

test('detection reads at most 2000 lines for row-shaped ones', () => {
  const junk = (n: number): string => Array(n).fill('x').join('\n')
  assert.equal(detectNcclText(`${junk(1997)}\n${ROWS.join('\n')}`), 0.7)
  assert.equal(detectNcclText(`${junk(1998)}\n${ROWS.join('\n')}`), 0.55)
  assert.equal(detectNcclText(`${junk(2000)}\n${ROWS.join('\n')}`), 0)
})

test('file names: upper case, folders that name a collective, both path separators', () => {
  const cases: [string, string | undefined][] = [
    ['RAW/NCCL_ALLTOALL.LOG', 'alltoall'],
    ['all_reduce/run1.log', undefined],
    ['all_reduce\\run1.log', undefined],
    ['logs\\nccl_broadcast.txt', 'broadcast'],
    ['', undefined],
    ['gather.log', 'gather'],
    ['allgather_perf.txt', 'all_gather'],
    ['sendrecv.log', 'sendrecv'],
    // A name found inside a longer one found too does not count; two apart name nothing.
    ['all_reduce_perf.txt', 'all_reduce'],
    ['reduce_scatter.log', 'reduce_scatter'],
    ['alltoallv.log', 'alltoallv'],
    ['gather_and_scatter.log', undefined],
    ['all_reduce-vs-all_gather.log', undefined],
  ]
  for (const [file, want] of cases) assert.equal(collectiveInFileName(file), want, file)
})

test('presetCollective: the option first, then the file name, else none', () => {
  assert.deepEqual(presetCollective('nccl_alltoall.log', 'broadcast'), { name: 'broadcast', from: 'option' })
  assert.deepEqual(presetCollective('nccl_alltoall.log', undefined), { name: 'alltoall', from: 'file-name' })
  assert.equal(presetCollective('results.log', undefined), undefined)
})
