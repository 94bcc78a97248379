/** docs/serving-validation.md's table, written from the code (a test keeps the file equal to it). */
import { EFFICIENCY } from './_calibrate.ts'
import { TOLERANCE, validation } from './_validate.ts'

/** The validation table as Markdown. */
export function validationMarkdown(): string {
  const rows = validation().map((v) => {
    const r = v.row
    const p = r.plan
    const plan = `TP${p.tp}${p.pp > 1 ? `×PP${p.pp}` : ''}${p.dcp > 1 ? ` DCP${p.dcp}` : ''}, batch ${p.batch}`
    const verdict =
      r.role === 'calibration' ? 'calibration' : v.within ? 'within' : `outside: ${r.caveat ?? 'not explained'}`
    return `| ${r.id} | ${r.model} | ${r.machine} | ${r.engine} | ${plan} | ${r.measured} | ${v.prediction.tokPerSec.toFixed(1)} | ${v.ratio.toFixed(2)} | ${verdict} | ${r.source} |`
  })
  return [
    '| row | model | machine | engine | plan | measured tok/s | predicted tok/s | ratio | ±' +
      `${TOLERANCE * 100} % | source |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Constants: memory at ${(EFFICIENCY.memory * 100).toFixed(1)} % of the datasheet bandwidth, ${(EFFICIENCY.perLayer * 1e6).toFixed(1)} µs per layer (${EFFICIENCY.from}).`,
    '',
  ].join('\n')
}
