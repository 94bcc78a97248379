/**
 * Collection: gathers what the machine (or a sysfs tree, saved outputs, a capture) says,
 * then analyzes it into a TopologyReport. Gathering does the IO; analysis is pure.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { HostFacts } from '../host/index.ts'
import { applyUnderLoad, readHostFacts, readUnderLoad } from '../host/index.ts'
import { FsView } from '../machine/index.ts'
import { SIM_MARKER } from '../model/index.ts'
import { buildGpus } from './_gpus.ts'
import { adviseGroupings } from './_grouping.ts'
import type { VirtAnswers } from './_hypervisor.ts'
import { detectHypervisor } from './_hypervisor.ts'
import type { ParsedInputs } from './_inputs.ts'
import { addInput, noInputs } from './_inputs.ts'
import type { CommandRun } from './_live.ts'
import { runLiveCommands } from './_live.ts'
import { buildPairs } from './_pairs.ts'
import type { SysfsScan } from './_pci.ts'
import { scanPci } from './_pci.ts'
import type { CollectOptions, TopologyReport } from './_types.ts'
import { runRules } from './rules/_rules.ts'

/** Name of the index file of a capture directory. */
export const CAPTURE_INDEX = 'capture.json'

/** `capture.json`: what a capture holds, so `--from` can read it back. */
export interface CaptureIndex {
  schema: 1
  kind: 'gpucomm-topology-capture'
  created: string
  commands: Omit<CommandRun, 'stdout'>[]
  inputs: { path: string; file: string }[]
  /** `root` when the sysfs files read were saved under root/. */
  root: string | null
  /** Present (true) when the capture describes a simulated machine (written by gpucomm's simulator). */
  simulated?: true
}

/** Everything read, before analysis. */
export interface Gathered {
  fs?: FsView
  scan?: SysfsScan
  inputs: ParsedInputs
  commands: CommandRun[]
  inputFiles: { path: string; text: string }[]
  virt?: VirtAnswers
  hypervisor: TopologyReport['hypervisor']
  cpuVendor?: string
  /** The sources describe a simulated machine. */
  simulated?: boolean
  /** Host facts, read here so a capture saves the files they came from. */
  host?: HostFacts
}

function readInputFile(path: string): { path: string; text: string } {
  if (!existsSync(path)) throw badInput(`${path}: no such file`)
  if (!statSync(path).isFile()) throw badInput(`${path}: not a regular file`)
  return { path, text: readFileSync(path, 'utf8') }
}

function fromCapture(dir: string): {
  commands: CommandRun[]
  inputFiles: { path: string; text: string }[]
  root?: string
  simulated?: boolean
} {
  const index = join(dir, CAPTURE_INDEX)
  if (!existsSync(index))
    throw badInput(
      `${dir}: not a gpucomm topology capture (no ${CAPTURE_INDEX}); make one with gpucomm topo --capture DIR`,
    )
  let cap: CaptureIndex
  try {
    cap = JSON.parse(readFileSync(index, 'utf8')) as CaptureIndex
  } catch (e) {
    throw badInput(`${index}: not valid JSON (${(e as Error).message})`)
  }
  if (cap.kind !== 'gpucomm-topology-capture' || !Array.isArray(cap.commands) || !Array.isArray(cap.inputs))
    throw badInput(`${index}: not a gpucomm topology capture index`)
  const read = (p: string): string => (existsSync(p) ? readFileSync(p, 'utf8') : '')
  const commands = cap.commands.map((c) => ({ ...c, stdout: read(join(dir, 'commands', c.file)) }))
  const inputFiles = cap.inputs.map((i) => ({ path: i.path, text: read(join(dir, 'inputs', i.file)) }))
  const simulated = cap.simulated === true ? { simulated: true } : {}
  return cap.root && existsSync(join(dir, cap.root))
    ? { commands, inputFiles, root: join(dir, cap.root), ...simulated }
    : { commands, inputFiles, ...simulated }
}

function virtFrom(commands: readonly CommandRun[]): VirtAnswers | undefined {
  const answer = (file: string): string | undefined => {
    const c = commands.find((x) => x.file === file)
    return c && c.exitCode !== null && !c.error?.includes('not installed') ? c.stdout.trim() : undefined
  }
  const vm = answer('systemd-detect-virt-vm.txt')
  const container = answer('systemd-detect-virt-container.txt')
  if (vm === undefined && container === undefined) return undefined
  return { ...(vm !== undefined ? { vm } : {}), ...(container !== undefined ? { container } : {}) }
}

/** Where the topology comes from: a capture (--from), input files, a sysfs root, or (none given) this machine, live. */
async function sourcesOf(opts: CollectOptions): Promise<{
  commands: CommandRun[]
  inputFiles: { path: string; text: string }[]
  root?: string
  simulated: boolean
}> {
  let commands: CommandRun[] = []
  let inputFiles: { path: string; text: string }[] = []
  let root: string | undefined
  let simulated = opts.simulated === true
  if (opts.from !== undefined) {
    const cap = fromCapture(opts.from)
    ;({ commands, inputFiles, root } = cap)
    simulated ||= cap.simulated === true
  }
  const live = opts.from === undefined && !opts.inputs?.length && opts.sysfsRoot === undefined
  if (opts.sysfsRoot !== undefined) {
    if (!existsSync(opts.sysfsRoot) || !statSync(opts.sysfsRoot).isDirectory())
      throw badInput(`${opts.sysfsRoot}: no such directory (--sysfs-root)`)
    root = resolve(opts.sysfsRoot)
  }
  inputFiles = [...inputFiles, ...(opts.inputs ?? []).map(readInputFile)]
  if (live) [root, commands] = ['/', await runLiveCommands(opts.timeoutMs ?? 15_000)]
  return { commands, inputFiles, ...(root !== undefined ? { root } : {}), simulated }
}

/** Reads every source the options name (IO: files, sysfs, launched commands). */
export async function gather(opts: CollectOptions): Promise<Gathered> {
  const { commands, inputFiles, root, ...from } = await sourcesOf(opts)
  let simulated = from.simulated
  const inputs = noInputs()
  let usable = false
  for (const c of commands) {
    if (c.file.startsWith('systemd-detect-virt')) continue
    if (c.error || c.stdout.trim() === '') noteFailed(inputs, c)
    else usable = addInput(inputs, c.file, c.stdout, 'command') || usable
  }
  for (const f of inputFiles) usable = addInput(inputs, f.path, f.text) || usable
  simulated ||= [...inputFiles.map((f) => f.text), ...commands.map((c) => c.stdout)].some((t) =>
    t.slice(0, 4096).includes(SIM_MARKER),
  )
  const fs = root !== undefined ? new FsView(root) : undefined
  const scan = fs ? scanPci(fs) : undefined
  const sysfsNote = (s: SysfsScan): string =>
    `${simulated && !s.present ? 'SIMULATED host files (cpuinfo, DMI) only: ' : ''}` +
    `${s.deviceCount} PCI devices, ${s.gpus.length} NVIDIA GPUs`
  if (scan)
    inputs.sources.push({
      kind: 'sysfs',
      name: root === '/' ? '/sys' : (root as string),
      ok: scan.present,
      note: sysfsNote(scan),
    })
  if (!usable && !scan?.present && inputFiles.length > 0) {
    const problems = inputs.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file}:${d.line}: ${d.message}`)
    throw badInput(`no usable topology input: ${problems.join('; ') || 'nothing recognized'}`)
  }
  const virt = virtFrom(commands)
  const { hypervisor, cpuVendor } = detectHypervisor(fs, virt)
  const topoGpus = buildGpus(inputs, scan).gpus
  const atRest = readHostFacts(fs?.root !== undefined && scan?.present ? fs : undefined, topoGpus, {
    underLoad: opts.underLoad === true,
    vm: hypervisor.detected,
    smi: inputs.smiQ,
  })
  // A sweep's capture may hold the link readings it took during a bandwidth point.
  const loaded = opts.from !== undefined ? readUnderLoad(opts.from) : undefined
  const host = loaded ? applyUnderLoad(atRest, loaded, topoGpus) : atRest
  return {
    ...(host ? { host } : {}),
    ...(fs ? { fs } : {}),
    ...(scan ? { scan } : {}),
    inputs,
    commands,
    inputFiles,
    ...(virt ? { virt } : {}),
    hypervisor,
    ...(cpuVendor ? { cpuVendor } : {}),
    ...(simulated ? { simulated } : {}),
  }
}

/** Records a command that gave nothing to parse. */
function noteFailed(inputs: ParsedInputs, c: CommandRun): void {
  inputs.sources.push({ kind: 'command', name: c.argv.join(' '), ok: false, note: c.error ?? 'no output' })
}

/** Pure: turns gathered facts into the report (GPUs, pairs, findings, groupings). */
export function analyze(g: Gathered): TopologyReport {
  const { gpus, diagnostics } = buildGpus(g.inputs, g.scan)
  const pairs = buildPairs(gpus, g.inputs)
  const roots = new Set([
    ...(g.scan?.rootBuses ?? []),
    ...g.inputs.lspciTv.flatMap((x) => x.t.rootBuses),
    ...g.inputs.lspciNn.flatMap((x) => x.t.rootBuses),
  ])
  const report: TopologyReport = {
    schema: 1,
    gpus,
    pairs,
    findings: runRules({
      gpus,
      pairs,
      hypervisor: g.hypervisor,
      ...(g.cpuVendor ? { cpuVendor: g.cpuVendor } : {}),
      ...(g.simulated ? { simulated: true } : {}),
      ...(g.host ? { host: g.host } : {}),
    }),
    groupings: [],
    hypervisor: g.hypervisor,
    ...(g.cpuVendor ? { cpuVendor: g.cpuVendor } : {}),
    pciRootBuses: [...roots].sort(),
    ...(g.host ? { host: g.host } : {}),
    sources: g.inputs.sources,
    diagnostics: [...g.inputs.diagnostics, ...diagnostics],
    ...(g.simulated ? { simulated: true as const } : {}),
  }
  report.groupings = adviseGroupings(report)
  return report
}

/**
 * Collects the topology: live (nvidia-smi, lspci, sysfs, /proc/cpuinfo) when no option
 * names another source; else from `sysfsRoot`, `inputs` and/or a capture (`from`).
 * Throws bad input (exit 2) when inputs were given and nothing usable remains.
 */
export async function collectTopology(opts: CollectOptions = {}): Promise<TopologyReport> {
  return analyze(await gather(opts))
}
