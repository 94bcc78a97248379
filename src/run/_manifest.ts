import { createHash } from 'node:crypto'
import { badInput } from '../errors/index.ts'
import type { Manifest } from '../model/index.ts'
import { newManifest, readManifest } from '../resultset/index.ts'
import type { Point } from '../sweep/index.ts'
import type { SweepOptions } from './_driver.ts'
import type { AttemptResult } from './_point.ts'
import type { Prepared, SweepDeps } from './_prepare.ts'
import { captureSweepTopology, hostFacts } from './_provenance.ts'
import { emptyExtra, SWEEP_EXTRA, sweepExtra } from './_record.ts'

/** Records the NCCL and nccl-tests versions an attempt printed, the first time one does. */
export function noteVersions(m: Manifest, a: AttemptResult): void {
  const host = (m.host ??= {})
  if (a.account?.version && !host.nccl) host.nccl = a.account.version
  const v = a.meta['nccl-tests']?.version
  if (typeof v === 'string' && !host.ncclTests) host.ncclTests = v
}

/** A new sweep's manifest: provenance, the topology capture, the sweep record. */
export async function freshManifest(
  opts: SweepOptions,
  prep: Prepared,
  deps: SweepDeps,
  hashes: Record<string, string>,
): Promise<Manifest> {
  const { spec } = prep
  const gpu = await deps.queryGpus()
  const extra = emptyExtra(spec, hashes, prep.plan)
  const sim = prep.simulated && spec.preset ? { preset: spec.preset, gpus: spec.gpus } : undefined
  const t = await captureSweepTopology(`${opts.out}/topology`, sim)
  extra.topology = t.reason ? { reason: t.reason } : { dir: 'topology', ...(sim ? { simulated: true } : {}) }
  const ids = prep.instruments.map((i) => i.id)
  const combined = createHash('sha256')
    .update(ids.map((i) => `${i}:${hashes[i]}`).join('\n'))
    .digest('hex')
    .slice(0, 16)
  return newManifest({
    origin: 'sweep',
    simulated: prep.simulated,
    ...(prep.simulated && spec.simScale !== undefined ? { simScale: spec.simScale } : {}),
    command: opts.command,
    instrument: {
      name: ids.join('+'),
      hash: combined,
      ...(spec.preset && prep.simulated ? { version: `preset ${spec.preset}` } : {}),
    },
    host: hostFacts(gpu, deps.env),
    outcomes: {},
    extra: { [SWEEP_EXTRA]: extra },
  })
}

/** The manifest of a set being resumed, checked against the plan (a point measured otherwise is bad input). */
export function resumeManifest(opts: SweepOptions, prep: Prepared, keyOf: (p: Point) => string): Manifest {
  const m = readManifest(opts.out)
  if (m.origin !== 'sweep' || !m.extra?.[SWEEP_EXTRA])
    throw badInput(`--resume ${opts.out}: not a result set written by gpucomm sweep`)
  const extra = sweepExtra(m)
  for (const p of prep.plan.points) {
    const o = m.outcomes?.[p.id]
    const stored = extra.points[p.id]?.key
    if (o?.status === 'ok' && stored !== keyOf(p)) {
      throw badInput(
        `--resume ${opts.out}: point ` +
          `${p.id} was measured with another instrument build or other settings; start a new result set`,
      )
    }
  }
  extra.order = prep.plan.points.map((p) => p.id)
  return m
}
