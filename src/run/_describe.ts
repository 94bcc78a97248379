import type { Point } from '../sweep/index.ts'
import { formatGpuList } from '../sweep/index.ts'
import { formatBytes } from '../units/index.ts'
import type { Prepared } from './_prepare.ts'
import { groupCommand } from './_prepare.ts'

/** Quotes one word for a POSIX shell when it needs it, so printed commands can be pasted. */
export function shellQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`
}

/** The exact command (env assignments, program, arguments) of every group of a point. */
export function pointCommands(prep: Prepared, p: Point, asRoot: boolean): { group: string; line: string }[] {
  return p.groups.map((g) => {
    const cmd = groupCommand(prep, p, g, 1, asRoot, prep.hosts)
    const env = Object.entries(cmd.env).map(([k, v]) => `${k}=${shellQuote(v)}`)
    return { group: formatGpuList(g), line: [...env, ...[cmd.file, ...cmd.args].map(shellQuote)].join(' ') }
  })
}

/**
 * The dry-run text: a header with the spec, every point in execution order with the
 * exact commands its groups would run, then the skipped points with reasons.
 */
export function describePlan(prep: Prepared, asRoot: boolean): string {
  const { spec, plan } = prep
  const sizes = spec.sizes.length
    ? `${formatBytes(spec.sizes[0] as number)} … ` +
      `${formatBytes(spec.sizes[spec.sizes.length - 1] as number)} (${spec.sizes.length} sizes)`
    : 'none'
  const env = spec.env.length ? spec.env.map(([k, v]) => `${k}=${v.join(',')}`).join(' ') : 'none'
  const lines = [
    `# sweep plan (dry run, nothing is run or written)${prep.simulated ? ' [SIMULATED]' : ''}`,
    `# instruments ${spec.instruments.join(', ')}` +
      `${spec.preset ? ` (preset ${spec.preset})` : ''}; launcher ${spec.launcher}; gpus ` +
      `${formatGpuList(spec.gpus)}; pairs ${spec.pairs === 'none' ? 'none' : spec.pairs.length}`,
    `# groupings ${spec.groupings.join(', ') || 'none'}; collectives ` +
      `${spec.collectives.join(', ') || 'none'}; sizes ${sizes}; env axes ${env}`,
    `# trials ${spec.trials}; warmup ${spec.warmup}; iters ${spec.iters}; order ` +
      `${spec.order}; seed ${spec.seed}; watchdog ${spec.noOutputTimeoutS} s silent / ` +
      `${spec.hardTimeoutS} s cap; retries ${spec.retries}`,
    `# ${plan.points.length} points, ${plan.skipped.length} skipped`,
  ]
  for (const p of plan.points) {
    lines.push(p.id)
    for (const c of pointCommands(prep, p, asRoot)) lines.push(`  [${c.group}] ${c.line}`)
  }
  for (const s of plan.skipped) lines.push(`skipped ${s.id}: ${s.reason}`)
  return `${lines.join('\n')}\n`
}
