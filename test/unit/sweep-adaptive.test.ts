/**
 * Adaptive repetition (`gpucomm sweep --target-ci`): the CI measure and stopping rule, a
 * 200-seed study on the simulator (launches needed for ±2 % against a fixed 20-trial
 * schedule, and coverage of the simulator's true values), and one real sweep.
 */

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { AdaptiveTracker, ciHalfWidthPct, configOf, shouldStop } from '../../src/adaptive/index.ts'
import type { Row } from '../../src/model/index.ts'
import { ncclTestsText } from '../../src/parsers/nccl-tests/nccl-tests-text.ts'
import { presetTruth, simulate, trueTime } from '../../src/sim/index.ts'
import { medianCI, sortSample } from '../../src/stats/index.ts'
import type { AdaptiveSpec, Point } from '../../src/sweep/index.ts'
import { sweepIn } from '../e2e/_sweep.ts'
import { cli, tmp } from '../helpers.ts'

test('the CI half-width is infinite below 6 values and follows the order statistics', () => {
  assert.equal(ciHalfWidthPct([1, 2, 3, 4, 5]), Infinity)
  // n = 6: the 95 % CI of the median is [x(1), x(6)]: half-width (110 − 90) / 2 = 10 of median 100.
  assert.equal(ciHalfWidthPct([90, 99, 100, 100, 101, 110]), 10)
  assert.equal(ciHalfWidthPct([0, 0, 0, 0, 0, 0]), 0)
  assert.equal(ciHalfWidthPct([-1, 0, 0, 0, 0, 1]), Infinity)
})

test('the stopping rule honours the minimum, the target and the maximum', () => {
  const s: AdaptiveSpec = { targetCiPct: 2, minTrials: 8, maxTrials: 12 }
  assert.equal(shouldStop(s, 7, 0.5), false, 'below the minimum')
  assert.equal(shouldStop(s, 8, 0.5), true)
  assert.equal(shouldStop(s, 8, 2.01), false)
  assert.equal(shouldStop(s, 12, Infinity), true, 'the maximum ends it')
  assert.equal(configOf('nccl.all_reduce~tp4~NCCL_PROTO=LL~t17'), 'nccl.all_reduce~tp4~NCCL_PROTO=LL')
})

const PRESET = 'nvlink'
const GPUS = [0, 1, 2, 3]
const SIZES = [8, 1024, 65536, 1048576, 16777216]
const point = (trial: number): Point => ({
  id: `nccl.all_reduce~tp4~t${trial}`,
  instrument: 'sim',
  bench: 'nccl.all_reduce',
  kind: 'collective',
  collective: 'all_reduce',
  grouping: 'tp4',
  groups: [GPUS],
  sizes: SIZES,
  env: {},
  trial,
})

/** One simulated launch, read by the real nccl-tests parser and stamped as the driver does. */
function launch(seed: number, trial: number): Row[] {
  const text = simulate({
    preset: PRESET,
    format: 'nccl-tests',
    collective: 'all_reduce',
    gpus: GPUS,
    sizes: SIZES,
    seed,
    trial,
  })
  const rows: Row[] = []
  const lp = ncclTestsText.open({ file: 'sim.txt', trial }, (r) => void rows.push({ ...r, point: point(trial).id }))
  text.split('\n').forEach((l, i) => lp.line(l, i + 1))
  lp.end()
  return rows
}

test('on the simulator ±2 % takes at most half the launches of 20 fixed trials, with ≥ 93 % coverage (200 seeds)', () => {
  const spec: AdaptiveSpec = { targetCiPct: 2, minTrials: 6, maxTrials: 20 }
  let launches = 0
  let covered = 0
  let cells = 0
  let reached = 0
  for (let seed = 1; seed <= 200; seed++) {
    const t = new AdaptiveTracker(spec)
    const times = new Map<number, number[]>()
    let trial = 1
    for (; trial <= spec.maxTrials && t.skipReason(point(trial)) === undefined; trial++) {
      const rows = launch(seed, trial)
      t.add(rows)
      for (const r of rows)
        if (r.metric === 'time' && r.placement === 'out-of-place')
          times.set(r.sizeBytes as number, [...(times.get(r.sizeBytes as number) ?? []), r.value])
    }
    launches += trial - 1
    if (t.state(point(1).id).worstPct <= 2) reached++
    for (const [size, v] of times) {
      const [lo, hi] = medianCI(sortSample(v))
      const truth = trueTime(PRESET, { kind: 'collective', collective: 'all_reduce', gpus: GPUS, sizeBytes: size })
      cells++
      if (lo <= truth && truth <= hi) covered++
    }
  }
  const noise = JSON.stringify(presetTruth(PRESET).noise)
  console.log(
    `adaptive ±2 % on ${PRESET} (${noise}): ${(launches / 200).toFixed(2)} launches per point vs 20 fixed; target met in ${reached}/200; coverage ${covered}/${cells}`,
  )
  assert.ok(launches <= 0.5 * 20 * 200, `${launches / 200} launches per point on average`)
  assert.ok(reached >= 190, `target met in ${reached} of 200`)
  assert.ok(covered / cells >= 0.93, `coverage ${covered}/${cells}`)
})

test('a fixed 20-trial schedule also gets within ±2 % on these cells (the comparison is fair)', () => {
  let ok = 0
  for (let seed = 1001; seed <= 1020; seed++) {
    const t = new AdaptiveTracker({ targetCiPct: 2, minTrials: 20, maxTrials: 20 })
    for (let trial = 1; trial <= 20; trial++) t.add(launch(seed, trial))
    if (t.state(point(1).id).worstPct <= 2) ok++
  }
  assert.ok(ok >= 19, `${ok} of 20`)
})

test('gpucomm sweep --target-ci stops each point once its CI is narrow enough, and says so', async () => {
  const out = join(tmp(), 'set')
  // In-process through the sim executor: the simulator's bytes for each launch, no process.
  const r = await sweepIn(
    {
      ...{ instrument: 'sim', preset: PRESET, gpus: '0-3', pairs: 'none', groupings: 'tp4', sizes: '8:1M:x16' },
      ...{ targetCi: 2, maxTrials: 15, seed: 3 },
    },
    { out },
  )
  assert.equal(r.code, 0, r.stderr)
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
  const a = m.extra.sweep.adaptive['nccl.all_reduce~tp4']
  assert.ok(a.trials >= 6 && a.trials < 15 && a.reached && a.worstCiPct <= 2, JSON.stringify(a))
  const outcomes = Object.entries(m.outcomes as Record<string, { status: string; reason?: string }>)
  assert.equal(outcomes.length, 15)
  assert.equal(outcomes.filter(([, o]) => o.status === 'ok').length, a.trials)
  for (const [id, o] of outcomes.filter(([, o]) => o.status !== 'ok')) {
    assert.equal(o.status, 'skipped')
    assert.match(o.reason ?? '', /target CI reached/, id)
    assert.ok(Number(/~t(\d+)$/.exec(id)?.[1]) > a.trials, `only the trials after the stop are skipped: ${id}`)
  }
  assert.match(r.stdout, new RegExp(`adaptive \\(±2 % median CI\\): ${a.trials} launches over 1 configurations`))
})

test('bad --target-ci bounds are bad input (exit 2, one line)', async () => {
  for (const extra of [
    ['--target-ci', '0'],
    ['--target-ci', '150'],
    ['--min-trials', '5'],
    ['--target-ci', '2', '--min-trials', '9', '--max-trials', '8'],
  ]) {
    const r = await cli([
      'sweep',
      '--instrument',
      'sim',
      '--preset',
      PRESET,
      '--gpus',
      '0-3',
      '--pairs',
      'none',
      '--groupings',
      'tp4',
      '--dry-run',
      ...extra,
    ])
    assert.equal(r.code, 2, `${extra.join(' ')}: ${r.stderr}`)
    assert.match(r.stderr, /^gpucomm: --(target-ci|min-trials)/)
  }
})
