/** The dry-run text of a cluster plan: one `#` line per pattern, the rounds, and who sits out. */
import { formatGpuList } from '../sweep/index.ts'
import type { ClusterPlan } from './_plan.ts'

/** Rounds printed in full up to this many; a longer schedule shows its first and last rounds. */
const SHOW_ROUNDS = 16

/** The plan as the dry run prints it. */
export function describeClusterPlan(plan: ClusterPlan, trials: number, gpus: readonly number[]): string {
  const n = plan.nodes.length
  const out = [
    `# cluster: ${n} nodes (${plan.nodes[0]}…${plan.nodes[n - 1]})` +
      `${plan.simulated ? ', SIMULATED' : ''}, GPUs ${formatGpuList([...gpus])} per node, fabric ` +
      `${plan.fabric}`,
  ]
  if (plan.inject.length) out.push(`# inject: ${plan.inject.map((i) => `${i.kind}@${i.node}`).join(', ')}`)
  for (const p of plan.patterns) {
    if (p === 'per-node') out.push(`# per-node: ${n} concurrent job steps (one per node)`)
    if (p === 'scaling') {
      const counts = plan.steps.filter((s) => s.pattern === 'scaling' && s.trial === 1).map((s) => s.nodes)
      out.push(`# scaling: all_reduce over ${counts.join(', ')} nodes`)
    }
    if (p === 'node-pairs') out.push(...pairLines(plan))
  }
  out.push(`# ${plan.steps.length} steps (${trials} trial${trials === 1 ? '' : 's'} each), ${jobCount(plan)} job steps`)
  return `${out.join('\n')}\n`
}

function pairLines(plan: ClusterPlan): string[] {
  const rounds = plan.rounds
  const most = Math.max(0, ...rounds.map((r) => r.pairs.length))
  const lines = [
    `# node-pairs: ${rounds.length} rounds of ` +
      `${most} pairs (all_reduce over both nodes, sendrecv between one GPU each)`,
  ]
  if (rounds.some((r) => r.idle !== undefined))
    lines.push(`# node-pairs: ${plan.nodes.length} nodes is odd: one node sits out each round`)
  const show = rounds.length <= SHOW_ROUNDS ? rounds : [...rounds.slice(0, 3), ...rounds.slice(-1)]
  for (const [i, r] of show.entries()) {
    if (show !== rounds && i === 3) lines.push(`#   … ${rounds.length - 4} more rounds`)
    const pairs = r.pairs.map(([a, b]) => `${a}+${b}`)
    const shown = pairs.length > 8 ? [...pairs.slice(0, 8), `… ${pairs.length - 8} more`] : pairs
    lines.push(`#   round ${r.round}: ${shown.join(' ')}${r.idle ? ` (${r.idle} sits out)` : ''}`)
  }
  return lines
}

const jobCount = (plan: ClusterPlan): number => plan.steps.reduce((s, x) => s + x.jobs.length, 0)
