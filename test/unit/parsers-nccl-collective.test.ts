/**
 * The collective and rank inference of nccl-tests tables that do not name them (log tails,
 * JSON without args): ranksFromFactor against pairs printed as nccl-tests prints them, and
 * CollectiveEvidence row by row. The bus factors are written here from nccl-tests'
 * doc/PERFORMANCE.md, not read from src/collectives.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { BusFactor } from '../../src/collectives/index.ts'
import type { RowEvidence } from '../../src/parsers/nccl-tests/_nccl-collective.ts'
import { CollectiveEvidence, factorOf, ranksFromFactor } from '../../src/parsers/nccl-tests/_nccl-collective.ts'

// PERFORMANCE.md: busbw = algbw × 2(n−1)/n (all_reduce), (n−1)/n (all_gather, reduce_scatter,
// alltoall; gather and scatter in the source), 1 (broadcast, reduce, sendrecv).
const FACTOR: Record<BusFactor, (n: number) => number> = {
  '2(n-1)/n': (n) => (2 * (n - 1)) / n,
  '(n-1)/n': (n) => (n - 1) / n,
  '1': () => 1,
}

// nccl-tests prints algbw and busbw with %.2f, each from the unrounded double.
const print = (x: number): string => x.toFixed(2)

/**
 * The rank counts m ≤ 2000 that could have printed (alg, bus): some true algbw x that
 * prints as alg whose busbw x·factor(m) prints as bus. Each print stands for the interval
 * of half a last digit around it, so m is possible when the two intervals of x meet; a value
 * exactly between two prints may print as either, so touching intervals meet.
 */
function possibleRanks(f: BusFactor, alg: string, bus: string): number[] {
  const a = Number(alg)
  const b = Number(bus)
  const out: number[] = []
  for (let m = 2; m <= 2000; m++) {
    const k = FACTOR[f](m)
    const lo = Math.max(a - 0.005, (b - 0.005) / k)
    const hi = Math.min(a + 0.005, (b + 0.005) / k)
    if (lo <= hi + 1e-9) out.push(m)
  }
  return out
}

const ALGBW = [1.37, 9.81, 23.45, 87.6, 191.23, 388.07]

test('ranksFromFactor: printed pairs of every factor, n = 2…72, give n when no other rank count prints the same pair', () => {
  let decided = 0
  let ambiguous = 0
  for (const f of Object.keys(FACTOR) as BusFactor[])
    for (let n = 2; n <= 72; n++)
      for (const x of ALGBW) {
        const alg = print(x)
        const bus = print(x * FACTOR[f](n))
        const can = possibleRanks(f, alg, bus)
        assert.ok(can.includes(n), `${f} n=${n} ${alg}/${bus}`)
        const want = can.length === 1 ? n : undefined
        assert.equal(ranksFromFactor(f, alg, bus), want, `${f} n=${n} algbw ${alg} busbw ${bus}: could be ${can}`)
        if (want === undefined) ambiguous++
        else decided++
      }
  // Both outcomes are exercised (600 and 678 when written): factor 1 never decides, small n at
  // high bandwidth always does.
  assert.ok(decided > 500 && ambiguous > 600, `${decided} decided, ${ambiguous} ambiguous`)
})

test('ranksFromFactor: a neighbour that prints the same pair on either side leaves n undecided', () => {
  // busbw/algbw = 1.82 is nearest n = 11 (2·10/11 = 1.818), and n = 12 prints it too
  // (2·11/12 × 0.995 = 1.824).
  assert.deepEqual(possibleRanks('2(n-1)/n', '1.00', '1.82'), [11, 12])
  assert.equal(ranksFromFactor('2(n-1)/n', '1.00', '1.82'), undefined)
  // 1.83 is nearest n = 12 (1.833), and n = 11 prints it too (1.818 × 1.004 = 1.826).
  assert.deepEqual(possibleRanks('2(n-1)/n', '1.00', '1.83'), [11, 12])
  assert.equal(ranksFromFactor('2(n-1)/n', '1.00', '1.83'), undefined)
  // A pair between two rank counts that fits neither.
  assert.deepEqual(possibleRanks('(n-1)/n', '10.00', '7.00'), [])
  assert.equal(ranksFromFactor('(n-1)/n', '10.00', '7.00'), undefined)
})

test('ranksFromFactor: the edges of what it accepts', () => {
  // algbw below 1 GB/s has too few printed digits to tell ranks apart: refused.
  assert.equal(ranksFromFactor('2(n-1)/n', '0.50', '0.75'), undefined)
  assert.equal(ranksFromFactor('(n-1)/n', '0.80', '0.60'), undefined)
  // 1 GB/s exactly is accepted.
  assert.equal(ranksFromFactor('2(n-1)/n', '1.00', '1.50'), 4)
  assert.equal(ranksFromFactor('(n-1)/n', '1.00', '0.75'), 4)
  assert.equal(ranksFromFactor('(n-1)/n', '10.00', '8.75'), 8)
  // busbw 0 (one rank) and factor 1 say nothing about n.
  assert.equal(ranksFromFactor('2(n-1)/n', '10.00', '0.00'), undefined)
  assert.equal(ranksFromFactor('1', '10.00', '10.00'), undefined)
  assert.equal(ranksFromFactor('1', '10.00', '5.00'), undefined)
  // Exactly at the edge of print rounding: 10.005 prints both as 10.00 and (×1) as 10.01.
  assert.equal(ranksFromFactor('2(n-1)/n', '10.00', '10.01'), 2)
  // More than a million ranks is refused even when the print is precise enough to tell.
  assert.equal(ranksFromFactor('(n-1)/n', '1000000.0000000000', '999999.5000000000'), undefined)
  assert.equal(ranksFromFactor('(n-1)/n', '1000000.0000000000', '999998.0000000000'), 500000)
})

test('factorOf: the published factors by name, 1 for a name it does not know', () => {
  assert.equal(factorOf('all_reduce'), '2(n-1)/n')
  for (const c of ['all_gather', 'reduce_scatter', 'alltoall', 'gather', 'scatter'])
    assert.equal(factorOf(c), '(n-1)/n')
  for (const c of ['broadcast', 'reduce', 'sendrecv']) assert.equal(factorOf(c), '1')
  assert.equal(factorOf('all_to_some'), '1')
})

// A row with no size evidence (a dtype nccl-tests may add later) and no bandwidths: only
// what each test sets says something.
const row = (o: Partial<RowEvidence>): RowEvidence => ({
  size: 4096,
  count: 1024,
  type: 'newtype',
  hasRedop: true,
  hasRoot: true,
  redop: 'none',
  root: -1,
  ...o,
})
const SUM: Partial<RowEvidence> = { redop: 'sum' }
const rowsOf = (oldEra: boolean, rows: RowEvidence[], n?: number): CollectiveEvidence => {
  const ev = new CollectiveEvidence(oldEra)
  for (const r of rows) ev.add(r, n)
  return ev
}
const cands = (ev: CollectiveEvidence): string => ev.candidates.join(' ')
const UNROOTED_COPY = 'all_gather alltoall sendrecv'

test('evidence: before any row every collective the rows can tell apart is possible (not alltoallv, hypercube)', () => {
  const ev = new CollectiveEvidence(false)
  assert.equal(cands(ev), 'all_reduce reduce_scatter reduce all_gather alltoall broadcast gather scatter sendrecv')
  assert.equal(ev.resolved, undefined)
  assert.equal(ev.nInferred, undefined)
  assert.equal(ev.conflicts, 0)
})

test('evidence: the redop and root cells, only where the table has those columns', () => {
  assert.equal(cands(rowsOf(false, [row({})])), UNROOTED_COPY)
  assert.equal(cands(rowsOf(false, [row(SUM)])), 'all_reduce reduce_scatter')
  assert.equal(cands(rowsOf(false, [row({ ...SUM, root: 0 })])), 'reduce')
  assert.equal(cands(rowsOf(false, [row({ root: 3 })])), 'broadcast gather scatter')
  // A redop column with no operator read (JSON without redop) is not a reduction.
  const { redop: _r, ...noRedop } = row({})
  assert.equal(cands(rowsOf(false, [noRedop])), UNROOTED_COPY)
  // No redop column: an operator value is not read as one; no root column: same for a root.
  assert.equal(cands(rowsOf(false, [row({ ...SUM, hasRedop: false })])), UNROOTED_COPY)
  assert.equal(cands(rowsOf(false, [row({ root: 0, hasRoot: false })])), UNROOTED_COPY)
  const { root: _o, ...noRoot } = row({})
  assert.equal(cands(rowsOf(false, [noRoot])), UNROOTED_COPY)
})

test('evidence: the in-place #wrong cell N/A means alltoall, only when both cells are printed and not before 2.13', () => {
  assert.equal(cands(rowsOf(false, [row({ wrongOut: '0', wrongIn: 'N/A' })])), 'alltoall')
  assert.equal(rowsOf(false, [row({ wrongOut: '0', wrongIn: 'N/A' })]).resolved, 'alltoall')
  assert.equal(cands(rowsOf(false, [row({ wrongOut: '0', wrongIn: '0' })])), 'all_gather sendrecv')
  // -c 0 (no check): both N/A, nothing said.
  assert.equal(cands(rowsOf(false, [row({ wrongOut: 'N/A', wrongIn: 'N/A' })])), UNROOTED_COPY)
  // One block only (a row cut short), or no out-of-place cell: nothing said.
  assert.equal(cands(rowsOf(false, [row({ wrongOut: '0' })])), UNROOTED_COPY)
  assert.equal(cands(rowsOf(false, [row({ wrongIn: 'N/A' })])), UNROOTED_COPY)
  // The pre-2.13 error column holds deviations; its N/A says nothing about the collective.
  assert.equal(cands(rowsOf(true, [row({ wrongOut: '0e+00', wrongIn: 'N/A' })])), UNROOTED_COPY)
})

test('evidence: size / (count × type size) is 1, or the rank count for the gather family', () => {
  const f = { type: 'float', count: 256 }
  const one = rowsOf(false, [row({ ...f, size: 1024 })])
  assert.equal(cands(one), 'sendrecv')
  const two = rowsOf(false, [row({ ...f, size: 2048 })])
  assert.equal(cands(two), 'all_gather alltoall')
  assert.equal(two.nInferred, 2)
  const eight = rowsOf(false, [row({ ...f, size: 8192 })])
  assert.equal(eight.nInferred, 8)
  // With the rank count known from the text the size still tells the shape, but n is not inferred.
  const known = rowsOf(false, [row({ ...f, size: 4096 })], 4)
  assert.equal(cands(known), 'all_gather alltoall')
  assert.equal(known.nInferred, undefined)
  // On one rank every shape has size = count × type size: nothing said.
  assert.equal(cands(rowsOf(false, [row({ ...f, size: 1024 })], 1)), UNROOTED_COPY)
  // Not a whole ratio, a ratio below 1, zero, or numbers that are no count: nothing said.
  for (const o of [{ size: 2560 }, { size: 512 }, { size: 0 }, { size: -2048, count: -256 }, { count: 0 }]) {
    const ev = rowsOf(false, [row({ ...f, ...o })])
    assert.equal(cands(ev), UNROOTED_COPY, JSON.stringify(o))
    assert.equal(ev.nInferred, undefined, JSON.stringify(o))
  }
})

test('evidence: busbw / algbw with the rank count known keeps the collectives whose factor fits at that n', () => {
  const nm1 = rowsOf(false, [row({ algbw: '10.00', busbw: '7.50' })], 4)
  assert.equal(cands(nm1), 'all_gather alltoall')
  assert.equal(nm1.nInferred, undefined)
  const ar = rowsOf(false, [row({ ...SUM, algbw: '10.00', busbw: '15.00' })], 4)
  assert.equal(cands(ar), 'all_reduce')
  assert.equal(ar.nInferred, undefined)
  // 7/8 fits (n−1)/n at 8, nothing at 4: a conflict, ignored.
  const off = rowsOf(false, [row({ algbw: '10.00', busbw: '8.75' })], 4)
  assert.equal(cands(off), UNROOTED_COPY)
  assert.equal(off.conflicts, 1)
  // Factor 1: sendrecv now, all_gather too before 2.13 (its factor was 1 then).
  assert.equal(cands(rowsOf(false, [row({ algbw: '10.00', busbw: '10.00' })], 4)), 'sendrecv')
  assert.equal(cands(rowsOf(true, [row({ algbw: '10.00', busbw: '10.00' })], 4)), 'all_gather sendrecv')
  assert.equal(cands(rowsOf(true, [row({ ...SUM, algbw: '10.00', busbw: '10.00' })], 4)), 'reduce_scatter')
  // At the edge of print rounding (10.005 prints as 10.00 and as 10.01) all_reduce on 2 fits.
  const edge = rowsOf(false, [row({ ...SUM, algbw: '10.00', busbw: '10.01' })], 2)
  assert.equal(cands(edge), 'all_reduce')
  assert.equal(edge.conflicts, 0)
})

test('evidence: busbw / algbw without the rank count tells the factor, and n once the factor is settled', () => {
  // busbw = algbw: factor 1, or all_reduce on 2 ranks; reduce_scatter too before 2.13.
  assert.equal(cands(rowsOf(false, [row({ algbw: '10.00', busbw: '10.00' })])), 'sendrecv')
  assert.equal(cands(rowsOf(false, [row({ ...SUM, algbw: '10.00', busbw: '10.00' })])), 'all_reduce')
  assert.equal(cands(rowsOf(true, [row({ ...SUM, algbw: '10.00', busbw: '10.00' })])), 'all_reduce reduce_scatter')
  assert.equal(rowsOf(false, [row({ algbw: '10.00', busbw: '10.00' })]).nInferred, undefined)
  // busbw > algbw: all_reduce, and its n.
  const ar = rowsOf(false, [row({ ...SUM, algbw: '10.00', busbw: '15.00' })])
  assert.equal(cands(ar), 'all_reduce')
  assert.equal(ar.nInferred, 4)
  // busbw < algbw: the (n−1)/n family, and its n.
  const nm1 = rowsOf(false, [row({ algbw: '1.00', busbw: '0.75' })])
  assert.equal(cands(nm1), 'all_gather alltoall')
  assert.equal(nm1.nInferred, 4)
  // An undecided pair narrows the factor but sets no n.
  const amb = rowsOf(false, [row({ ...SUM, algbw: '1.00', busbw: '1.82' })])
  assert.equal(cands(amb), 'all_reduce')
  assert.equal(amb.nInferred, undefined)
  // A factor that contradicts earlier rows is a conflict and sets no n.
  const clash = rowsOf(false, [row({ algbw: '10.00', busbw: '10.00' }), row({ algbw: '10.00', busbw: '7.50' })])
  assert.equal(cands(clash), 'sendrecv')
  assert.equal(clash.conflicts, 1)
  assert.equal(clash.nInferred, undefined)
  // The first n found stays.
  const first = rowsOf(false, [row({ algbw: '10.00', busbw: '7.50' }), row({ algbw: '10.00', busbw: '8.75' })])
  assert.equal(first.nInferred, 4)
  // algbw below 1 GB/s and busbw 0 (one rank) are not read.
  assert.equal(cands(rowsOf(false, [row({ algbw: '0.50', busbw: '0.25' })])), UNROOTED_COPY)
  const zero = rowsOf(false, [row({ ...SUM, algbw: '10.00', busbw: '0.00' })])
  assert.equal(cands(zero), 'all_reduce reduce_scatter')
  assert.equal(zero.conflicts, 0)
})

test('evidence: a headerless sendrecv tail resolves to sendrecv, not a collective only the text names', () => {
  const rows = [1024, 4096, 16384].map((size) =>
    row({ size, count: size / 4, type: 'float', algbw: '3.20', busbw: '3.20', wrongOut: '0', wrongIn: '0' }),
  )
  const ev = rowsOf(false, rows)
  assert.equal(ev.resolved, 'sendrecv')
  assert.equal(cands(ev), 'sendrecv')
  assert.equal(ev.conflicts, 0)
})

test('inferRanks: n from the named collective’s factor, except all_gather and reduce_scatter before 2.13', () => {
  const infer = (oldEra: boolean, c: string, alg?: string, bus?: string): number | undefined => {
    const ev = new CollectiveEvidence(oldEra)
    ev.inferRanks(c, alg, bus)
    return ev.nInferred
  }
  assert.equal(infer(false, 'all_gather', '10.00', '7.50'), 4)
  assert.equal(infer(false, 'reduce_scatter', '10.00', '8.75'), 8)
  assert.equal(infer(false, 'all_reduce', '10.00', '15.00'), 4)
  assert.equal(infer(true, 'all_reduce', '10.00', '15.00'), 4)
  assert.equal(infer(true, 'alltoall', '10.00', '7.50'), 4)
  assert.equal(infer(true, 'all_gather', '10.00', '7.50'), undefined)
  assert.equal(infer(true, 'reduce_scatter', '10.00', '7.50'), undefined)
  assert.equal(infer(false, 'broadcast', '10.00', '10.00'), undefined)
  assert.equal(infer(false, 'all_to_some', '10.00', '7.50'), undefined)
  assert.equal(infer(false, 'all_gather', undefined, '7.50'), undefined)
  assert.equal(infer(false, 'all_gather', '10.00', undefined), undefined)
  // An n already inferred (here from the size) is kept.
  const ev = rowsOf(false, [row({ type: 'float', count: 256, size: 2048 })])
  ev.inferRanks('all_gather', '10.00', '7.50')
  assert.equal(ev.nInferred, 2)
})
