import type { Options } from 'yargs'
import { SIMULATED_COLLECTIVES } from '../../collectives/index.ts'
import type { ClusterJob, Collective, Fault, SimFormat, TopoFormat } from '../../sim/index.ts'
import { presetNames } from '../../sim/index.ts'
import { defineCommand } from '../_types.ts'

// The flags in groups, in the order --help lists them.
/** What to print: the preset machine and the tool imitated. */
const outputOptions = (): Record<string, Options> => ({
  preset: {
    type: 'string',
    demandOption: true,
    describe: presetNames().join(', '),
  },
  format: {
    type: 'string',
    demandOption: true,
    choices: ['nccl-tests', 'p2p', 'p2p-bench', 'topo-m', 'topo-p2p-r', 'topo-p2p-w', 'lspci-tv'],
    describe:
      "which tool to imitate (p2p-bench: gpucomm's native p2p_bench; topo-m: nvidia-smi topo -m; " +
      'topo-p2p-r/w: nvidia-smi topo -p2p r/w; lspci-tv: lspci -tv)',
  },
})

/** The run imitated: collective, GPUs, sizes, p2p-bench's modes and pairs, iterations, seed and trial. */
const RUN_OPTIONS: Record<string, Options> = {
  collective: {
    type: 'string',
    default: 'all_reduce',
    describe: `nccl-tests collective: ${SIMULATED_COLLECTIVES.join(', ')}`,
  },
  gpus: { type: 'string', describe: 'GPUs, in rank order: 0-7 or 0,2,4 (default: all)' },
  sizes: {
    type: 'string',
    describe: 'MIN:MAX:xF, MIN:MAX:+S or a list (default 8:64M:x2; p2p-bench: latency sizes or none, default 4:1M:x2)',
  },
  'bw-sizes': {
    type: 'string',
    describe: 'p2p-bench: bandwidth sizes, or "none" (default 64K:256M:x4)',
  },
  p2p: {
    type: 'string',
    describe: 'p2p-bench: P2P modes, a list of enabled, disabled, bounce (default all three, as p2p_bench)',
  },
  copy: {
    type: 'string',
    choices: ['ce', 'sm', 'ce,sm'],
    describe: 'p2p-bench: copy kinds (default ce,sm)',
  },
  pairs: {
    type: 'string',
    describe: 'p2p-bench: all (every ordered pair and each GPU to itself), self, cross, or 0:1,1:0',
  },
  iters: { type: 'number', default: 20, describe: 'iterations per size (nccl-tests -n)' },
  warmup: { type: 'number', default: 1, describe: 'warm-up iterations (0 shows a cold first iteration)' },
  seed: { type: 'number', default: 0, describe: 'noise seed (same seed and flags, same bytes)' },
  trial: { type: 'number', default: 0, describe: 'trial number (drift between trials)' },
}

/** The conditions modelled: NCCL env, host knobs, a multi-node fabric, a known shift and a fault. */
const CONDITION_OPTIONS: Record<string, Options> = {
  env: {
    type: 'string',
    array: true,
    default: [],
    describe:
      'NCCL env as NAME=VALUE (NCCL_P2P_DISABLE, NCCL_PROTO, NCCL_P2P_LEVEL, NCCL_SHM_DISABLE, ' +
      'NCCL_SHM_USE_CUDA_MEMCPY)',
  },
  host: {
    type: 'string',
    array: true,
    default: [],
    describe:
      'host knob to MODEL as NAME=VALUE: cstates=default|shallow, numa=local|remote, ' +
      'iommu=as-found|identity (staged copies only; the preset says its assumptions)',
  },
  fabric: {
    type: 'string',
    choices: ['ib', 'roce', 'socket'],
    describe:
      'a multi-node nccl-tests job over this inter-node network: one process per node, the nodes ' +
      'from srun (SLURM_STEP_NODELIST) or --cluster-hosts',
  },
  'cluster-hosts': { type: 'string', describe: "with --fabric: the job's nodes, a hostlist (node[01-02])" },
  inject: {
    type: 'string',
    array: true,
    default: [],
    describe: 'with --fabric: simulated node faults KIND@NODE (slow-nic, no-p2p, pcie-gen3, straggler-gpu)',
  },
  'sim-scale': {
    type: 'number',
    describe:
      'a known shift: every simulated time × F, bandwidths ÷ F, same noise draws (default 1; ' +
      'labelled "SIMULATED, times xF"), to calibrate gates and tests',
  },
  fault: {
    type: 'string',
    choices: ['hang', 'crash', 'garbage', 'truncated', 'corrupt', 'exit'],
    describe: 'act out a failure',
  },
}

/** `gpucomm sim`: prints one simulated tool output (nccl-tests, p2pBandwidthLatencyTest, or the machine's topology text). */
export const simCommand = defineCommand({
  command: 'sim',
  describe:
    'Print one SIMULATED nccl-tests or p2pBandwidthLatencyTest output (presets, seeded noise, ' +
    "faults), or the preset machine's topology (nvidia-smi topo, lspci -tv)",
  builder: (y) =>
    y
      .options({ ...outputOptions(), ...RUN_OPTIONS, ...CONDITION_OPTIONS })
      .example(
        'gpucomm sim --preset seed-vm --format nccl-tests --gpus 0-7 --sizes 8:64M:x2',
        'a simulated all_reduce_perf log',
      )
      .example('gpucomm sim --preset baremetal-turin --format topo-m', 'what nvidia-smi topo -m would print there'),
  run: async (args, io) => {
    const sim = await import('../../sim/index.ts')
    const fault = args.fault as Fault | undefined
    const gpus = typeof args.gpus === 'string' ? sim.parseGpuList(args.gpus) : undefined
    if ((sim.TOPO_FORMATS as readonly string[]).includes(args.format as string)) {
      if (fault)
        throw (await import('../../errors/index.ts')).badInput(`--fault ${fault} needs --format nccl-tests or p2p`)
      io.stdout(sim.simTopologyText(args.preset as string, args.format as TopoFormat, gpus))
      return 0
    }
    const scale = args.simScale === undefined ? 1 : sim.checkScale(args.simScale as number)
    if (scale !== 1 && typeof args.fabric === 'string')
      throw (await import('../../errors/index.ts')).badInput('--sim-scale: not modelled for --fabric jobs')
    const launch = sim.launchContext(process.env)
    const text = simText(sim, args, { gpus, fault, scale, processes: launch.size }, launch)
    // Under MPI/Slurm only rank 0 prints, as nccl-tests does; the others print nothing.
    if (launch.rank === 0) io.stdout(text)
    await new Promise<void>((done) => process.stdout.write('', () => done()))
    return faultEnd(fault, launch.rank)
  },
})

type Sim = typeof import('../../sim/index.ts')

/** The simulated output `args` ask for: a launched cluster job (--fabric), else one tool's output. */
function simText(
  sim: Sim,
  args: Record<string, unknown>,
  o: { gpus?: number[]; fault?: Fault; scale: number; processes: number },
  launch: ReturnType<Sim['launchContext']>,
): string {
  const list = (v: unknown) =>
    typeof v !== 'string' ? undefined : v === 'none' ? { sizes: [], step: '' } : sim.parseSizes(v)
  const sizes = list(args.sizes)
  const bwSizes = list(args.bwSizes)?.sizes
  const pairs = typeof args.pairs === 'string' ? sim.parsePairs(args.pairs) : undefined
  const { gpus, fault, scale } = o
  const common = {
    preset: args.preset as string,
    collective: args.collective as Collective,
    iters: args.iters as number,
    warmup: args.warmup as number,
    seed: args.seed as number,
    trial: args.trial as number,
    env: sim.parseEnvList((args.env as string[]).map(String)),
  }
  if (typeof args.fabric === 'string')
    return sim.simulateLaunchedJob(
      {
        ...common,
        fabric: args.fabric as ClusterJob['fabric'],
        ...(typeof args.clusterHosts === 'string' ? { hosts: args.clusterHosts } : {}),
        ...(gpus ? { gpus } : {}),
        ...(sizes ? { sizes: sizes.sizes } : {}),
        inject: (args.inject as string[]).flatMap((x) => String(x).split(',')),
      },
      launch,
      process.env,
    )
  return sim.simulate({
    ...common,
    format: args.format as SimFormat,
    ...(gpus ? { gpus } : {}),
    ...(sizes ? { sizes: sizes.sizes, step: sizes.step } : {}),
    ...(bwSizes ? { bwSizes } : {}),
    ...(pairs ? { pairs } : {}),
    ...(typeof args.p2p === 'string' ? { p2pModes: sim.parseP2pModes(args.p2p) } : {}),
    ...(typeof args.copy === 'string' ? { copies: args.copy.split(',') as ('ce' | 'sm')[] } : {}),
    host: sim.parseSimHost((args.host as string[]).map(String)),
    ...(fault ? { fault } : {}),
    processes: o.processes,
    ...(scale !== 1 ? { scale } : {}),
  })
}

/** How a faulted run ends once its output is out: hung, crashed, a failing exit code, or 0. */
async function faultEnd(fault: Fault | undefined, rank: number): Promise<number> {
  if (fault === 'hang') {
    // A hung benchmark (stuck in a kernel or a collective) does not notice its reader going
    // away: a closed output pipe must not end the hang, only a signal does.
    for (const s of [process.stdout, process.stderr]) s.removeAllListeners('error').on('error', () => {})
    await new Promise<never>(() => setInterval(() => {}, 1 << 30))
  }
  if (rank !== 0) return 0
  if (fault === 'crash') {
    process.kill(process.pid, 'SIGABRT')
    await new Promise<never>(() => setInterval(() => {}, 1 << 30))
  }
  return fault === 'exit' || fault === 'corrupt' ? 1 : 0
}
