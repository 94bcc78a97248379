/**
 * Opening a cluster sweep's result set: a new one (the directory must be empty), or, with
 * `--resume`, the one a stopped sweep left: its manifest must record a cluster sweep over the
 * same nodes and the same steps; the rows of steps without an ok outcome (cut off by a stop
 * or a crash, or failed) and torn lines are dropped (the sweep's own prepareResume), and
 * those steps run again. Either way the set's lock is held until release().
 */
import { mkdirSync } from 'node:fs'
import { badInput } from '../errors/index.ts'
import { acquireLock } from '../exec/index.ts'
import type { Manifest } from '../model/index.ts'
import { isNonEmptyDir, readManifest } from '../resultset/index.ts'
import { prepareResume } from '../run/index.ts'
import type { ClusterPlan } from './_plan.ts'

/** Manifest `extra` key of a cluster sweep. */
export const CLUSTER_EXTRA = 'cluster'

/** What opening found. */
export interface OpenedSet {
  /** The stored manifest (resume), else undefined: the caller makes a new one. */
  manifest?: Manifest
  /** Steps already done (ok outcome). */
  done: Set<string>
  /** Rows dropped because their step had not finished. */
  dropped: number
  release: () => void
}

/** Opens `out` for a new sweep or a resumed one (see the module comment). */
export async function openClusterSet(out: string, plan: ClusterPlan, resume: boolean): Promise<OpenedSet> {
  if (!resume) {
    if (isNonEmptyDir(out))
      throw badInput(`${out}: directory is not empty (use --resume ${out} to continue a sweep there, or another --out)`)
    mkdirSync(out, { recursive: true })
    return { done: new Set(), dropped: 0, release: acquireLock(out) }
  }
  const manifest = readManifest(out)
  const rec = manifest.extra?.[CLUSTER_EXTRA] as { nodes?: string[] } | undefined
  if (!rec) throw badInput(`--resume ${out}: not a cluster sweep's result set`)
  if (JSON.stringify(rec.nodes) !== JSON.stringify(plan.nodes))
    throw badInput(
      `--resume ${out}: the set ran on ${rec.nodes?.join(',')}; this sweep would run on ` +
        `${plan.nodes.join(',')} (resume inside the same allocation)`,
    )
  const ids = new Set(plan.steps.map((s) => s.id))
  const foreign = Object.keys(manifest.outcomes ?? {}).find((id) => !ids.has(id))
  if (foreign) throw badInput(`--resume ${out}: step ${foreign} is not in this plan (the flags changed the plan)`)
  const release = acquireLock(out)
  try {
    const { dropped } = await prepareResume(out, manifest)
    const done = new Set(
      Object.entries(manifest.outcomes ?? {})
        .filter(([, o]) => o.status === 'ok')
        .map(([id]) => id),
    )
    return { manifest, done, dropped, release }
  } catch (e) {
    release()
    throw e
  }
}
