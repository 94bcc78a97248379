/** What one nccl-tests run says about itself: the meta of its rows' file, from a finished `Run`. */
import type { Run } from './_nccl-run.ts'
import { scaledDecimal } from './_nccl-tokens.ts'

/** The run's meta: collective, ranks, devices, parameters, columns, footer and counts. */
export function runMeta(run: Run): Record<string, unknown> {
  const m: Record<string, unknown> = { ...run.info }
  if (run.collective !== undefined || run.tableRows > 0) m.collective = run.collectiveName()
  if (run.collectiveFrom) m.collectiveFrom = run.collectiveFrom
  if (run.program) m.program = run.program
  const r = run.ranks()
  if (r.n !== undefined) Object.assign(m, { ranks: r.n, ranksFrom: r.from })
  const listed = run.ranksFromLines
  if (listed !== undefined && listed !== r.n) m.ranksListed = listed
  if (run.launch) m.launch = run.launch
  if (run.devices.length) {
    m.devices = run.devices
    m.hosts = [...new Set(run.devices.map((x) => x.host).filter((h) => h !== undefined))]
    const groups = new Set(run.devices.map((x) => x.group ?? 0))
    if (groups.size > 1) m.groups = groups.size
  }
  if (run.params) m.params = run.params
  if (run.modes.length) m.modes = run.modes
  if (run.layout) m.columns = { ...run.layout, timeLabel: run.timeLabel, timeUnit: run.timeExp === -3 ? 'ms' : 'us' }
  m.tableRows = run.tableRows
  m.rows = run.emitted
  if (run.avg)
    Object.assign(m, {
      avgBusBandwidth: scaledDecimal(String(run.avg.value), 9),
      ...(run.avg.status ? { avgBusBandwidthStatus: run.avg.status } : {}),
    })
  if (run.oob) m.outOfBounds = { count: run.oob.value, ...(run.oob.status ? { status: run.oob.status } : {}) }
  if (run.maxDeviation !== undefined) m.maxDeviation = run.maxDeviation
  if (run.wrongElements > 0) m.wrongElements = run.wrongElements
  m.complete = run.footer
  if (run.concluded) m.concluded = true
  return m
}
