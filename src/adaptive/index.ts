/** Adaptive repetition (`gpucomm sweep --target-ci PCT`): when a point has had trials enough. */

export type { AdaptiveState } from './_tracker.ts'
export { AdaptiveTracker, adaptiveCell, ciHalfWidthPct, configOf, shouldStop, worstHalfWidthPct } from './_tracker.ts'
