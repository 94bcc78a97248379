/**
 * The chart kinds `gpucomm plot --kind` draws, in one registry: a new kind is its file plus
 * one line here; the CLI's choices and help, and chartsOf, read this list.
 */
import type { ChartKind } from './_types.ts'
import { busbwKind } from './busbw.ts'
import { diffKind } from './diff.ts'
import { groupsKind } from './groups.ts'
import { heatmapKind } from './heatmap.ts'
import { latencyKind } from './latency.ts'
import { nodeHeatmapKind } from './node-heatmap.ts'

export type { ChartKind, KindContext, KindOptions } from './_types.ts'

/** Every chart kind, in the order help lists them. */
export const CHART_KINDS: readonly ChartKind[] = [
  latencyKind,
  busbwKind,
  heatmapKind,
  groupsKind,
  diffKind,
  nodeHeatmapKind,
]

/** The kind called `id`, or undefined. */
export const chartKind = (id: string): ChartKind | undefined => CHART_KINDS.find((k) => k.id === id)
