/**
 * Generated multi-host nccl-tests logs (named as generated wherever they are written), in the
 * shape of the real 2-node logs in test/fixtures/nccl-tests (rtx6000d-2node-16rank…,
 * gh200-slingshot-2node-2rank…): an optional launch command line, the v2.17+ banner, rank
 * lines naming `hosts` hosts (optionally cut after `listed` ranks, as authors trim long lists),
 * the table with busbw = algbw × the collective's factor for the full rank count, and the
 * footer. Times follow α + size/β, so a fit has a known floor.
 */
import { busFactor, collectiveDef } from '../src/collectives/index.ts'

export interface MultiHostSpec {
  hosts: number
  gpusPerHost: number
  /** Rank lines printed (default: every rank). */
  listed?: number
  /** The command line printed before the banner (none when absent). */
  command?: string
  collective?: string
  /** Floor (seconds) and bandwidth (B/s) of the generated times. */
  alphaS?: number
  betaBps?: number
  gpu?: string
  /** Lines inserted after the rank lines (NCCL INFO lines, a bare `NCCL version` line). */
  after?: readonly string[]
  /** Host name of host i. */
  hostName?: (i: number) => string
}

const pad = (s: string | number, w: number): string => String(s).padStart(w)

/** The log text (LF line ends, final newline). */
export function multiHostLog(spec: MultiHostSpec): string {
  const coll = spec.collective ?? 'all_reduce'
  const def = collectiveDef(coll)
  if (!def) throw new Error(`unknown collective ${coll}`)
  const n = spec.hosts * spec.gpusPerHost
  const listed = Math.min(spec.listed ?? n, n)
  const name = spec.hostName ?? ((i: number) => `node${String(i + 1).padStart(3, '0')}`)
  const alpha = spec.alphaS ?? 30e-6
  const beta = spec.betaBps ?? 40e9
  const out: string[] = []
  if (spec.command) out.push(spec.command)
  out.push(
    '# nccl-tests version 2.17.8 nccl-headers=22603 nccl-library=22603',
    `# Collective test starting: ${coll}_perf`,
    '# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
    '#',
    '# Using devices',
  )
  for (let r = 0; r < listed; r++) {
    const h = Math.floor(r / spec.gpusPerHost)
    const d = r % spec.gpusPerHost
    out.push(
      `#  Rank ${pad(r, 2)} Group  0 Pid ${pad(1000 + r, 6)} on ${pad(name(h), 10)} device ${pad(d, 2)} ` +
        `[0000:${(0x18 + d * 0x10).toString(16).padStart(2, '0')}:00] ${spec.gpu ?? 'NVIDIA H100 80GB HBM3'}`,
    )
  }
  out.push(...(spec.after ?? []))
  out.push(
    '#',
    '#                                                              out-of-place                       in-place          ',
    '#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ',
    '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         ',
  )
  const factor = busFactor(def.bus, n)
  const redop = def.reduction ? 'sum' : 'none'
  const root = coll === 'broadcast' || coll === 'reduce' ? '0' : '-1'
  let sum = 0
  let rows = 0
  for (let size = 8; size <= 8 * 2 ** 30; size *= 2) {
    const count = def.sizeIsTotal ? size / 4 / n : size / 4
    if (!Number.isInteger(count) || count < 1) continue
    const t = alpha + size / beta
    const alg = size / t / 1e9
    const bus = alg * factor
    sum += bus
    rows++
    const cells = `${pad((t * 1e6).toFixed(2), 8)}  ${pad(alg.toFixed(2), 6)}  ${pad(bus.toFixed(2), 6)}  ${pad(0, 6)}`
    out.push(
      `${pad(size, 12)}  ${pad(count, 12)}  ${pad('float', 8)}  ${pad(redop, 6)}  ${pad(root, 6)}  ${cells}  ${cells}`,
    )
  }
  out.push('# Out of bounds values : 0 OK', `# Avg bus bandwidth    : ${(sum / rows).toFixed(4)} `, '#', '')
  return out.join('\n')
}
