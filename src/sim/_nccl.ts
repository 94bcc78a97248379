/**
 * nccl-tests `*_perf` text (FORMATS §1, the v2.17.7+ layout as v2.18.3 prints it): banner,
 * one rank line per GPU, the three header lines, one row per size with out-of-place and
 * in-place columns, and the footer.
 */
import { SIM_MARKER } from '../model/index.ts'
import { fit, fmtG } from './_fmt.ts'
import { hostDeltaS } from './_host.ts'
import { noiseOfRun } from './_noise.ts'
import { busFactor, collectiveModel, modelTime, simulated } from './_physics.ts'
import { rngFor } from './_prng.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'
import type { Collective } from './_types.ts'

const HEADER = [
  '#',
  '#                                                              out-of-place               ' +
    '        in-place          ',
  '#       size         count      type   redop    root     time   algbw   busbw  #wrong     ' +
    'time   algbw   busbw  #wrong ',
  '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             ' +
    '(us)  (GB/s)  (GB/s)         ',
]
const TYPE_SIZE = 4 // float

/** The size and count columns nccl-tests prints for a requested size (getCollByteCount). */
export function sizeAndCount(c: Collective, bytes: number, n: number): { size: number; count: number } {
  const elems = Math.floor(bytes / TYPE_SIZE)
  if (simulated(c).sizeIsTotal) {
    const perRank = Math.floor(elems / n)
    return { size: perRank * n * TYPE_SIZE, count: perRank }
  }
  return { size: elems * TYPE_SIZE, count: elems }
}

/** Ranks of a run: the GPUs once, or once per host of a run across nodes (one process per host). */
const ranksOf = (r: Run): number => r.gpus.length * (r.cluster?.hosts.length ?? 1)

function banner(r: Run): string[] {
  const hosts = r.cluster?.hosts ?? [r.preset.hostname]
  const perProc = r.cluster ? r.gpus.length : r.gpus.length / r.processes
  const name = `${r.collective}_perf`
  const ranks = hosts.flatMap((host, h) =>
    r.gpus.map((g, j) => {
      const i = h * r.gpus.length + j
      const bus = (r.preset.pciBus[g] ?? 0).toString(16).padStart(2, '0')
      const pid = r.pid + Math.floor(i / perProc)
      const dev = r.cluster ? j : i
      return (
        `#  Rank ${String(i).padStart(2)} Group  0 Pid ${String(pid).padStart(6)} on ` +
        `${host.padStart(10)} device ${String(dev).padStart(2)} [0000:${bus}:00] ` +
        `${r.preset.gpuName}`
      )
    }),
  )
  return [
    '# nccl-tests version 2.18.3 nccl-headers=22807 nccl-library=22807',
    `# Collective test starting: ${name}`,
    `# nThread 1 nGpus ${perProc} minBytes ${Math.min(...r.sizes)} maxBytes ` +
      `${Math.max(...r.sizes)} step: ${r.step} warmup iters: ${r.warmup} iters: ` +
      `${r.iters} agg iters: 1 validation: 1 graph: 0 unalign: 0`,
    '#',
    '# Using devices',
    ...ranks,
  ]
}

interface Cell {
  time: number
  busbw: number
  text: string
}

function cell(size: number, timeS: number, factor: number, wrong: string): Cell {
  const algbw = timeS > 0 ? size / timeS / 1e9 : 0
  const busbw = algbw * factor
  return { time: timeS, busbw, text: `  ${fit(timeS * 1e6, 7)}  ${fit(algbw, 6)}  ${fit(busbw, 6)}  ${wrong}` }
}

/** Which rows a `corrupt` fault spoils: the middle one, and every later fourth. */
const spoiled = (i: number, rows: number): boolean => i >= Math.floor(rows / 2) && (i - Math.floor(rows / 2)) % 4 === 0

function rows(r: Run): { lines: string[]; busbw: number[]; failures: number } {
  const n = ranksOf(r)
  const model = r.cluster?.model ?? collectiveModel(r.preset, r.collective, r.gpus, r.env)
  const f = busFactor(r.collective, n)
  const staged = !r.cluster && model.transport.startsWith('SHM')
  const hostStep = staged ? hostDeltaS(r.preset, r.host, model.transport === r.preset.nccl.shmMemcpy.label) : 0
  const where = r.cluster ? `${r.cluster.hosts.join(',')}:${r.gpus.join(',')}` : r.gpus.join(',')
  const scope = `${r.preset.name}|nccl|${r.collective}|${where}|${JSON.stringify(r.env)}`
  const noise = noiseOfRun(r, scope, r.iters)
  const def = simulated(r.collective)
  const redop = def.reduction ? 'sum' : 'none'
  const root = def.rooted ? '0' : '-1'
  const out: string[] = []
  const busbw: number[] = []
  let failures = 0
  r.sizes.forEach((bytes, i) => {
    const { size, count } = sizeAndCount(r.collective, bytes, n)
    const truth = modelTime(model, size) + model.steps * hostStep
    // A flapping NIC is down for some cells and not others, each cell on its own draw.
    const flap = r.cluster?.flap
    const down = (place: string): boolean =>
      flap !== undefined && rngFor(r.seed, `flap|${r.trial}|${where}|${bytes}|${place}`).uniform() < flap.share
    const at = (place: string): number => (down(place) ? modelTime(flap?.model ?? model, size) : truth)
    const bad = r.fault === 'corrupt' && spoiled(i, r.sizes.length)
    const wrong = (place: string): string => {
      if (!bad) return '0'.padStart(6)
      failures += r.processes
      return String(rngFor(r.seed, `wrong|${r.trial}|${bytes}|${place}`).int(1, Math.max(1, count))).padStart(6)
    }
    const oop = cell(size, noise.time(at('oop'), `${bytes}|oop`, i === 0 && r.warmup === 0), f, wrong('oop'))
    const ip = cell(size, noise.time(at('ip'), `${bytes}|ip`), f, def.inPlaceUnchecked ? '  N/A' : wrong('ip'))
    busbw.push(oop.busbw, ip.busbw)
    const pre =
      `${String(size).padStart(12)}  ${String(count).padStart(12)}  ${'float'.padStart(8)}  ` +
      `${redop.padStart(6)}  ${root.padStart(6)}`
    out.push(pre + oop.text + ip.text)
  })
  return { lines: out, busbw, failures }
}

/** The whole nccl-tests log of a run. */
export function renderNccl(r: Run): Rendered {
  const head = [...simHeader(SIM_MARKER, r), ...banner(r)]
  const table = rows(r)
  const avg = table.busbw.reduce((a, b) => a + b, 0) / Math.max(1, table.busbw.length)
  const footer = [
    `# Out of bounds values : ${table.failures} ${table.failures > 0 ? 'FAILED' : 'OK'}`,
    `# Avg bus bandwidth    : ${fmtG(avg)} `,
    '#',
    `# Collective test concluded: ${r.collective}_perf`,
    '#',
    '',
  ]
  if (table.failures > 0) {
    const hosts = r.cluster?.hosts ?? Array.from({ length: r.processes }, () => r.preset.hostname)
    hosts.forEach((h, p) => {
      footer.push(` .. ${h} pid ${r.pid + p}: Test failure common.cu:1189`)
    })
  }
  const lines = [...head, ...HEADER, ...table.lines, ...footer]
  const dataStart = head.length + HEADER.length
  return { lines, bannerEnd: head.length, dataStart, dataEnd: dataStart + table.lines.length }
}
