/**
 * The simulator's known shift (`--sim-scale F`): every simulated time × F, bandwidths ÷ F.
 * A set made that way says so wherever it says SIMULATED ("SIMULATED, times x1.03").
 */

/** What a shift is called in text: "times x1.03". */
export const simScaleWords = (scale: number): string => `times x${Number(scale.toPrecision(6))}`

/**
 * The label of a set: "" for real data, "SIMULATED", or "SIMULATED, times x1.03" when its
 * simulated times were scaled (a manifest's `simScale`; absent or 1: unscaled).
 */
export function simLabel(m: { simulated: boolean; simScale?: number | undefined }): string {
  if (!m.simulated) return ''
  return m.simScale !== undefined && m.simScale !== 1 ? `SIMULATED, ${simScaleWords(m.simScale)}` : 'SIMULATED'
}

/** The shift named by a simulated output's header line (`… times x1.03 (simulated data …)`), if any. */
export function simScaleIn(text: string): number | undefined {
  const m = / times x([0-9.eE+-]+) \(simulated data/.exec(text)
  const f = m ? Number(m[1]) : Number.NaN
  return Number.isFinite(f) && f > 0 ? f : undefined
}

/** `simLabel` and a space ("SIMULATED " or "SIMULATED, times x1.03 "), or "" for real data: a line's prefix. */
export const simPrefix = (m: { simulated: boolean; simScale?: number | undefined }): string => {
  const l = simLabel(m)
  return l ? `${l} ` : ''
}
