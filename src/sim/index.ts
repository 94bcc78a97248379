/**
 * The simulator: prints nccl-tests, p2pBandwidthLatencyTest and gpucomm p2p_bench text for four preset machines,
 * with seeded noise and faults on request, so the whole pipeline runs without a GPU, and the
 * machines' topology (nvidia-smi topo, lspci -tv, a topology capture). Every output starts
 * with SIM_MARKER. The truth behind the text is exported for tests.
 */
import { collectiveModel, p2pBandwidth, p2pLatency, presetByName, trueTimeOf } from './_physics.ts'
import type { BandwidthQuery, Collective, CollectiveModel, NoiseParams, TruthQuery } from './_types.ts'

export { parseBytes, parseEnvList, parseGpuList, parseP2pModes, parsePairs, parseSizes } from './_args.ts'
export { hostDeltaS, parseSimHost, SIM_HOST_VALUES } from './_host.ts'
export { busFactor, modelTime, protocolAt, ringSteps } from './_physics.ts'
export { checkScale, simulate } from './_simulate.ts'
export type {
  AlphaBeta,
  BandwidthQuery,
  Collective,
  CollectiveModel,
  Fault,
  MachineSpec,
  NoiseParams,
  P2pMode,
  P2pPairs,
  PathLevel,
  PciNode,
  PciRoot,
  Preset,
  Protocol,
  SimFormat,
  SimOptions,
  TopoFormat,
  TruthQuery,
} from './_types.ts'
export { COLLECTIVES, FAULTS, FORMATS, TOPO_FORMATS } from './_types.ts'
export type { ClusterJob, Injection, InjectKind } from './cluster/_cluster.ts'
export { clusterModel, FABRIC_IDS, INJECT_KINDS, parseInjections, simulateClusterJob } from './cluster/_cluster.ts'
export type { LaunchedJobInput } from './cluster/_cluster-launch.ts'
export { simulateLaunchedJob } from './cluster/_cluster-launch.ts'
export type { LaunchContext } from './cluster/_mpi.ts'
export { launchContext, stepHosts } from './cluster/_mpi.ts'
export { PRESETS, presetNames, registerPreset } from './presets/index.ts'
export { renderLspciTree } from './topology/_lspci.ts'
export type { SimTopologyInput } from './topology/_topology.ts'
export { simLinks, simTopologyInputs, simTopologyText, writeSimTopology } from './topology/_topology.ts'

/** What a preset is, in numbers: the model the simulated text is drawn from. */
export interface PresetTruth {
  name: string
  description: string
  gpuName: string
  gpuCount: number
  /** The preset's machine is a VM (its hypervisor checks say so). */
  vm: boolean
  noise: NoiseParams
  /** Path level and peer access of an ordered pair of physical GPUs. */
  link(src: number, dst: number): { level: string; peerAccess: boolean }
  /** The α–β model of a collective on these physical GPUs (NCCL env optional). */
  collective(c: Collective, gpus: readonly number[], env?: Readonly<Record<string, string>>): CollectiveModel
}

/** The truth of a preset (unknown name → bad input). */
export function presetTruth(name: string): PresetTruth {
  const p = presetByName(name)
  return {
    name: p.name,
    description: p.description,
    gpuName: p.gpuName,
    gpuCount: p.pciBus.length,
    vm: p.machine.vm !== undefined,
    noise: p.noise,
    link: (src, dst) => {
      const l = p.link(src, dst)
      return { level: l.level, peerAccess: l.peerAccess }
    },
    collective: (c, gpus, env = {}) => collectiveModel(p, c, gpus, env),
  }
}

/**
 * The noise-free time (seconds) behind a printed value: one collective call at a size (the
 * size column's bytes), or one 16 B p2p copy (GPU or CPU timer).
 */
export const trueTime = (preset: string, q: TruthQuery): number => trueTimeOf(presetByName(preset), q)

/** The noise-free copy bandwidth (B/s) behind a p2p bandwidth cell. */
export const trueBandwidth = (preset: string, q: BandwidthQuery): number => p2pBandwidth(presetByName(preset), q)

/** The noise-free 16 B copy latency (seconds); the same as trueTime with a p2p-latency query. */
export const trueLatency = (
  preset: string,
  src: number,
  dst: number,
  p2p: 'enabled' | 'disabled',
  timer: 'gpu' | 'cpu' = 'gpu',
): number => p2pLatency(presetByName(preset), src, dst, p2p, timer)
