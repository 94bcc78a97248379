/**
 * The seeded noise model. Every printed value is its true value times
 *   drift(trial) · exp(σ·z) · [outlier factor, with probability outlierRate] · [cold start]
 * where z ~ N(0,1) is drawn from a stream keyed by (seed, trial, cell), so a cell's noise does
 * not depend on which other cells a run prints. Each arm (a run's NCCL env and modelled host
 * knobs) draws its own drift and cell noise: two arms of one trial are two launches, not one
 * launch printed twice, so their ratio varies from trial to trial as measured arms' would. exp(σ·z) and the drift both have median 1, so
 * (outliers aside) the true value is the median of what many trials print: what a sweep's
 * confidence interval of the median should cover.
 */
import { rngFor } from './_prng.ts'
import type { Run } from './_run.ts'
import type { NoiseParams } from './_types.ts'

/** Draws the noise of one run. */
export interface Noise {
  /** A noisy time (or any cost: larger is slower) for the cell `key`. */
  time(truth: number, key: string, cold?: boolean): number
  /** A noisy bandwidth: the true bandwidth divided by the same kind of factor. */
  bandwidth(truth: number, key: string, cold?: boolean): number
}

/** Settings of one run's noise. */
export interface NoiseRun {
  params: NoiseParams
  seed: number
  trial: number
  /** Names the run's kind (preset, format, collective, group, env) so different runs differ. */
  scope: string
  /** nccl-tests iterations averaged into one printed value (σ scales with 1/√iters, 20 = σ). */
  iters?: number
  /** The arm (`armOf`: env and host knobs, "" for none): its own drift and draws. */
  arm?: string
  /** `--sim-scale`: times × scale, bandwidths ÷ scale, after the same draws (default 1). */
  scale?: number
}

/** The noise of one run. */
export function makeNoise(run: NoiseRun): Noise {
  const { params: np, seed, trial } = run
  const arm = run.arm ? `|arm ${run.arm}` : ''
  const scope = `${run.scope}${arm}`
  // Drift is shared by every value of one arm's trial on one machine: keyed without the scope's details.
  const drift = Math.exp(np.driftSigma * rngFor(seed, `drift|${run.scope.split('|')[0] ?? ''}${arm}|${trial}`).normal())
  const iters = run.iters ?? 20
  const sigma = np.sigma * Math.sqrt(20 / Math.max(1, iters))
  const factor = (key: string, cold: boolean): number => {
    const r = rngFor(seed, `${scope}|${trial}|${key}`)
    let f = drift * Math.exp(sigma * r.normal())
    if (r.uniform() < np.outlierRate) f *= np.outlierMin + r.uniform() * (np.outlierMax - np.outlierMin)
    if (cold) f *= 1 + (np.coldFactor - 1) / Math.max(1, iters)
    return f
  }
  const scale = run.scale ?? 1
  return {
    time: (truth, key, cold = false) => truth * scale * factor(key, cold),
    bandwidth: (truth, key, cold = false) => truth / (scale * factor(key, cold)),
  }
}

/**
 * The noise of a simulated run, its cells keyed under `scope`: the preset's noise, the run's
 * seed, trial, arm and --sim-scale; `iters` values averaged into one printed value (default 20).
 */
export const noiseOfRun = (
  r: Pick<Run, 'preset' | 'seed' | 'trial' | 'scale' | 'env' | 'host'>,
  scope: string,
  iters?: number,
): Noise =>
  makeNoise({
    params: r.preset.noise,
    seed: r.seed,
    trial: r.trial,
    scope,
    scale: r.scale ?? 1,
    arm: armOf(r),
    ...(iters === undefined ? {} : { iters }),
  })

/** A run's arm: its NCCL env and modelled host knobs as `K=V …` (sorted), "" when it has none. */
const armOf = (r: { env: Readonly<Record<string, string>>; host: Readonly<Record<string, string>> }): string =>
  [
    ...Object.entries(r.env).map(([k, v]) => `env ${k}=${v}`),
    ...Object.entries(r.host).map(([k, v]) => `host ${k}=${v}`),
  ]
    .sort()
    .join(' ')
