/**
 * The fleet view of imported multi-host nccl-tests runs (cluster sweeps have theirs from
 * `analyzeFleet`): the hosts each launch ran on (named by its rank lines or NCCL INFO prefixes,
 * counted by its command line), ranks per host, per launch its busbw at the largest sizes and
 * its time at the smallest, per node pair the busbw of launches over exactly two hosts, and
 * link outliers among three or more such pairs (modified z-score, MIN_FLEET_DELTA and the
 * Mann-Whitney U test, as `analyzeFleet`). What a file cannot tell apart is said in the notes:
 * one launch over many hosts prints one time per size for the whole communicator. Pure.
 */
import type { Row } from '../model/index.ts'
import { DEFAULT_THRESHOLDS, mannWhitney, medianOf, modifiedZ, sortSample } from '../stats/index.ts'
import { aboveNetwork } from './_network.ts'
import type { Fleet, FleetOutlier, FleetPair } from './fleet/_fleet.ts'
import { MIN_FLEET_DELTA } from './fleet/_fleet.ts'
import type { Unit } from './fleet/_fleet-units.ts'
import { units } from './fleet/_fleet-units.ts'
import type { SourceLike } from './verdict/_sources.ts'
import { launchOfSource } from './verdict/_sources.ts'

/** One imported launch over several hosts. */
export interface FleetLaunch {
  source: string
  bench: string
  ranks?: number
  hosts: number
  /** Hosts the file names (may be fewer than `hosts` when the rank list is cut). */
  named: string[]
  hostsFrom: string
  ranksPerHost?: Record<string, number>
  busbwBps?: number
  latencyS?: number
}

const rowsOf = (rows: readonly Row[], raw: string, bench: string, metric: Row['metric']): Map<string, Row[]> =>
  new Map([['launch', rows.filter((r) => r.source.file === raw && r.bench === bench && r.metric === metric)]])

/** The fleet of a set's imported multi-host runs, or undefined when no source ran on more than one host. */
export function importedFleet(rows: readonly Row[], sources: readonly SourceLike[]): Fleet | undefined {
  const launches: FleetLaunch[] = []
  const pairUnits: (Unit & { bench: string })[] = []
  for (const src of sources) {
    const l = launchOfSource(src)
    if (!l || l.count < 2) continue
    const benches = [...new Set(rows.filter((r) => r.source.file === src.raw).map((r) => r.bench))].sort()
    for (const bench of benches) {
      const bw = units(rowsOf(rows, src.raw, bench, 'busbw'), 'large')[0]
      const lat = units(rowsOf(rows, src.raw, bench, 'time'), 'small')[0]
      const ranks = rows.find((r) => r.source.file === src.raw && r.bench === bench)?.ranks ?? undefined
      launches.push({
        source: src.raw,
        bench,
        ...(ranks !== undefined && ranks !== null ? { ranks } : {}),
        hosts: l.count,
        named: l.named,
        hostsFrom: l.countFrom,
        ...(l.ranksPerHost ? { ranksPerHost: l.ranksPerHost } : {}),
        ...(bw ? { busbwBps: bw.value } : {}),
        ...(lat ? { latencyS: lat.value } : {}),
      })
      if (l.count === 2 && l.named.length === 2 && bw)
        pairUnits.push({ ...bw, key: l.named.join(','), hosts: [...l.named], bench })
    }
  }
  if (launches.length === 0) return undefined
  const nodes = [...new Set(launches.flatMap((x) => x.named))]
  const pairs: FleetPair[] = pairUnits.map((u) => ({
    hosts: [u.hosts[0], u.hosts[1]] as [string, string],
    busbwBps: u.value,
  }))
  const outliers: FleetOutlier[] = []
  for (const bench of new Set(pairUnits.map((u) => u.bench)))
    outliers.push(...linkOutliers(pairUnits.filter((u) => u.bench === bench)))
  return { nodes, outliers, pairs, scaling: [], notes: notesOf(launches, pairUnits.length), launches }
}

/** Pairs whose busbw is below the others' (see the module comment). */
function linkOutliers(list: readonly Unit[]): FleetOutlier[] {
  if (list.length < 3) return []
  const values = list.map((u) => u.value)
  const z = modifiedZ(values)
  const med = medianOf(sortSample(values))
  const out: FleetOutlier[] = []
  list.forEach((u, i) => {
    const d = med > 0 ? (u.value - med) / med : 0
    const zi = z[i] as number
    if (-d < MIN_FLEET_DELTA || Math.abs(zi) <= DEFAULT_THRESHOLDS.outlierZ) return
    const p = mannWhitney(
      u.samples,
      list.flatMap((o, j) => (j === i ? [] : o.samples)),
    ).p
    if (!(p <= DEFAULT_THRESHOLDS.alpha)) return
    out.push({
      kind: 'link',
      hosts: u.hosts,
      metric: 'net.busbw',
      delta: d,
      value: u.value,
      fleetMedian: med,
      z: zi,
      p,
      mechanism:
        'this pair only, among the imported two-host runs (the path between them: NICs, cable, switch port or ' +
        'routing; the file cannot separate a host from its link)',
      evidence: [
        `net.busbw ×${(u.value / med).toFixed(2)} of the pairs' median (z ${zi.toFixed(1)}, p ${p.toPrecision(2)})`,
      ],
    })
  })
  return out
}

function notesOf(launches: readonly FleetLaunch[], pairs: number): string[] {
  const notes: string[] = []
  for (const x of launches) {
    const per = x.ranksPerHost ? [...new Set(Object.values(x.ranksPerHost))] : []
    notes.push(
      `${x.bench} on ${x.ranks ?? '?'} ranks over ${x.hosts} hosts (from ${x.hostsFrom})` +
        `${per.length === 1 ? `, ${per[0]} ranks on each named host` : ''}` +
        `${x.named.length < x.hosts ? `; the file names ${x.named.length} of them` : ''}: one time per size for the whole ` +
        'communicator, so a slow host, GPU, NIC or link cannot be told apart from the rest (per-host and ' +
        'per-node-pair figures need single-host and two-host runs, as a cluster sweep makes)',
    )
  }
  for (const x of launches) {
    const n = x.ranks
    if (x.bench !== 'nccl.all_reduce' || !n || n < 2 || x.busbwBps === undefined) continue
    const mn = aboveNetwork((x.busbwBps * n) / (2 * (n - 1)), n, x.hosts)
    if (mn) notes.push(`${x.bench} on ${n} ranks over ${x.hosts} hosts: ${mn.fact}`)
  }
  if (pairs > 0 && pairs < 3)
    notes.push(`${pairs} two-host run(s): at least 3 node pairs are needed to call one an outlier`)
  return notes
}
