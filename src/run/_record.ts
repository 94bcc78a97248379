import type { Manifest, Row } from '../model/index.ts'
import type { NcclAccount, NoEffectFlag, PointEvidence } from '../nccl-log/index.ts'
import type { Plan, SkippedPoint, SweepSpec } from '../sweep/index.ts'
import type { LaunchRecord } from './_point.ts'

/** Key of the sweep's record under manifest.extra. */
export const SWEEP_EXTRA = 'sweep'

/** What a sweep keeps in manifest.extra.sweep. */
export interface SweepExtra {
  /** The resolved spec (a bare `--resume DIR` runs it again). */
  spec: SweepSpec
  /** Instrument hash per instrument id. */
  instrumentHashes: Record<string, string>
  /** Point ids in execution order. */
  order: string[]
  skipped: SkippedPoint[]
  /** Per point: its resume key, every attempt with its launches, NCCL's account. */
  points: Record<
    string,
    {
      key: string
      attempts: { attempt: number; status: string; reason: string; launches: LaunchRecord[] }[]
      nccl?: NcclAccount
    }
  >
  resumes: { at: string; command: string[]; droppedRows: number; tornLines: number }[]
  interrupted: boolean
  noVisibleEffect: NoEffectFlag[]
  topology?: { dir?: string; reason?: string; simulated?: boolean }
  /**
   * The GPUs' PCIe links as the sweep read them during its first bandwidth point (highest of
   * the readings; `file` is the record beside the topology capture), or why it could not.
   */
  linkUnderLoad?:
    | { point: string; at: string; source: string; samples: number; links: string[]; file?: string }
    | { reason: string }
  /** --target-ci: per configuration (point id without ~tN), ok trials and the widest median CI half-width (%). */
  adaptive?: Record<string, { trials: number; worstCiPct: number | null; reached: boolean }>
}

/** A fresh sweep record. */
export function emptyExtra(spec: SweepSpec, hashes: Record<string, string>, plan: Plan): SweepExtra {
  return {
    spec,
    instrumentHashes: hashes,
    order: plan.points.map((p) => p.id),
    skipped: plan.skipped,
    points: {},
    resumes: [],
    interrupted: false,
    noVisibleEffect: [],
  }
}

/** The sweep record of a manifest (created empty-shaped if absent). */
export function sweepExtra(m: Manifest): SweepExtra {
  const e = (m.extra ??= {})
  const x = e[SWEEP_EXTRA] as Partial<SweepExtra> | undefined
  if (!x || typeof x !== 'object') throw new Error('manifest has no sweep record')
  x.points ??= {}
  x.resumes ??= []
  x.noVisibleEffect ??= []
  x.skipped ??= []
  return x as SweepExtra
}

/** The spec a sweep set was run with (for a bare `--resume DIR`), or undefined. */
export function storedSpec(m: Manifest): SweepSpec | undefined {
  const x = m.extra?.[SWEEP_EXTRA] as Partial<SweepExtra> | undefined
  return x?.spec
}

/** Evidence for the no-visible-effect check: out-of-place times per size, per point, plus NCCL's account. */
export function evidenceOf(rows: readonly Row[], extra: SweepExtra): Map<string, PointEvidence> {
  const out = new Map<string, PointEvidence>()
  for (const r of rows) {
    if (r.point === undefined) continue
    let e = out.get(r.point)
    if (!e) {
      e = { times: new Map() }
      const acc = extra.points[r.point]?.nccl
      if (acc) e.account = acc
      out.set(r.point, e)
    }
    if (r.metric === 'time' && r.placement !== 'in-place' && r.sizeBytes !== null) {
      e.times.set(r.sizeBytes, [...(e.times.get(r.sizeBytes) ?? []), r.value])
    }
  }
  return out
}
