/** printf-style number formatting the simulated tools need (C's %g, nccl-tests' fit-to-width). */

/** C's exponent form: at least two exponent digits (`1.2e+07`), as printf prints it. */
function cExp(v: number, decimals: number): string {
  return v.toExponential(decimals).replace(/e([+-])(\d)$/, 'e$10$2')
}

/**
 * nccl-tests ≥ 2.17.3: the most decimals (2, 1, 0) that fit in `width` characters, then
 * `%.1e`; right-aligned.
 */
export function fit(v: number, width: number): string {
  for (const d of [2, 1, 0]) {
    const s = v.toFixed(d)
    if (s.length <= width) return s.padStart(width)
  }
  return cExp(v, 1).padStart(width)
}

/** C's `%g` (6 significant digits, trailing zeros dropped). */
export function fmtG(v: number, precision = 6): string {
  if (v === 0) return '0'
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf'
  const exp = Number(v.toExponential(precision - 1).split('e')[1])
  if (exp < -4 || exp >= precision) {
    const [m, e] = cExp(v, precision - 1).split('e') as [string, string]
    return `${m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m}e${e}`
  }
  const s = v.toFixed(Math.max(0, precision - 1 - exp))
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s
}

/** C's `%6.02f ` cell of p2pBandwidthLatencyTest (value, then one space). */
export const cell = (v: number): string => `${v.toFixed(2).padStart(6)} `
