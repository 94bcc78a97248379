import type { Options } from 'yargs'
import { FABRIC_IDS, INJECT_KINDS, presetNames } from '../../sim/index.ts'
import { defineCommand } from '../_types.ts'

// Spec flags → SpecInput keys (flags not given stay undefined, so presets and defaults apply).
const SPEC_FLAGS: Record<string, string> = {
  instrument: 'instrument',
  preset: 'preset',
  gpus: 'gpus',
  pairs: 'pairs',
  groupings: 'groupings',
  collectives: 'collectives',
  sizes: 'sizes',
  env: 'env',
  hostAxis: 'hostAxis',
  sysfsRoot: 'sysfsRoot',
  trials: 'trials',
  warmup: 'warmup',
  iters: 'iters',
  order: 'order',
  seed: 'seed',
  launcher: 'launcher',
  hosts: 'hosts',
  srunGpus: 'srunGpus',
  ncclDebug: 'ncclDebug',
  timeout: 'timeoutS',
  hardTimeout: 'hardTimeoutS',
  retries: 'retries',
  retryBackoff: 'retryBackoffS',
  ncclTestsDir: 'ncclTestsDir',
  p2pBin: 'p2pBin',
  nvbandwidthBin: 'nvbandwidthBin',
  nativeDir: 'nativeDir',
  simFault: 'simFaults',
  targetCi: 'targetCi',
  minTrials: 'minTrials',
  maxTrials: 'maxTrials',
  nodes: 'nodes',
  pattern: 'pattern',
  pairsPerNode: 'pairsPerNode',
  inject: 'inject',
  fabric: 'fabric',
  simScale: 'simScale',
}

// The flags in groups, in the order --help lists them.
/** What is swept: the instrument, GPUs, pairs, groupings, collectives, sizes, and the env and host axes. */
const planOptions = (): Record<string, Options> => ({
  instrument: {
    type: 'string',
    describe: 'native (default with GPUs), sim, nccl-tests, p2p, nvbandwidth (comma list)',
  },
  preset: { type: 'string', describe: `simulator preset: ${presetNames().join(', ')}` },
  gpus: { type: 'string', describe: 'GPUs: 0-7 or 0,2,4' },
  pairs: {
    type: 'string',
    describe: 'all (every ordered pair), self (each GPU to itself), none, or 0>1,2>3',
  },
  groupings: {
    type: 'string',
    describe: 'tp8,tp4,tp2, best, or explicit 0-3/4-7 (";" between explicit ones)',
  },
  collectives: {
    alias: 'collective',
    type: 'string',
    describe: 'all_reduce,all_gather,… (default all_reduce)',
  },
  sizes: { type: 'string', describe: 'MIN:MAX:xF (8:128M:x2), MIN:MAX:+STEP, or a list' },
  env: {
    type: 'string',
    array: true,
    describe: 'env axis NAME=V1,V2 (repeatable), e.g. NCCL_PROTO=LL,Simple',
  },
  'host-axis': {
    type: 'string',
    array: true,
    describe:
      'host knob axis NAME=V1,V2 (repeatable): cstates=default,shallow (root), numa=local,remote ' +
      '(numactl); every change is restored after its point (gpucomm restore DIR after a ' +
      'SIGKILL); the simulator models them',
  },
  'sysfs-root': {
    type: 'string',
    describe: 'host knobs read and write DIR/sys instead of /sys (tests)',
  },
})

/** How each point is repeated (fixed or adaptive) and ordered. */
const TRIAL_OPTIONS: Record<string, Options> = {
  trials: {
    type: 'number',
    describe: 'repeats of every point (default 6: the fewest with a finite 95 % CI of the median)',
  },
  'target-ci': {
    type: 'number',
    describe: 'adaptive: repeat each point until its median’s 95 % CI is within ±PCT % (replaces --trials)',
  },
  'min-trials': { type: 'number', describe: 'adaptive: fewest trials per point (default 6)' },
  'max-trials': { type: 'number', describe: 'adaptive: most trials per point (default 20)' },
  warmup: { type: 'number', describe: 'warm-up iterations per size (default 1)' },
  iters: {
    type: 'number',
    describe:
      'timed iterations per size (default 20; the plan of a bare sweep without a GPU, ' +
      'bench/sweep-default-sim.json, uses 5; --dry-run prints what the plan uses)',
  },
  order: {
    type: 'string',
    choices: ['interleaved', 'shuffled'],
    describe: 'point order (default interleaved)',
  },
  seed: {
    type: 'number',
    describe: 'seed of the shuffle and the simulator noise (recorded; random when absent)',
  },
  'sim-scale': {
    type: 'number',
    describe:
      '--instrument sim: every simulated time × F, bandwidths ÷ F (a known shift, recorded and labelled ' +
      '"SIMULATED, times xF")',
  },
}

/** How a point is launched, watched and retried. */
const LAUNCH_OPTIONS: Record<string, Options> = {
  launcher: {
    type: 'string',
    choices: ['local', 'mpirun', 'srun'],
    describe: 'how groups are launched (default local)',
  },
  hosts: { type: 'string', describe: 'hosts for mpirun/srun (default: the Slurm allocation)' },
  'srun-gpus': {
    type: 'string',
    choices: ['gpus-per-task', 'gres', 'none'],
    describe: 'how srun requests GPUs',
  },
  'nccl-debug': {
    type: 'boolean',
    describe: 'capture NCCL_DEBUG=INFO and record NCCL’s transports/algo/proto (default: on with --env)',
  },
  timeout: {
    type: 'number',
    describe: 'watchdog: seconds without output before a launch is killed (default 60)',
  },
  'hard-timeout': { type: 'number', describe: 'watchdog: hard cap in seconds per launch (default 3600)' },
  retries: { type: 'number', describe: 'retries of a failed point, with backoff (default 1)' },
  'retry-backoff': { type: 'number', describe: 'first backoff in seconds, doubled per retry (default 1)' },
}

/** Where the benchmark binaries are (and the tests' simulated faults). */
const TOOL_OPTIONS: Record<string, Options> = {
  'nccl-tests-dir': { type: 'string', describe: 'directory of nccl-tests binaries (<coll>_perf)' },
  'p2p-bin': { type: 'string', describe: 'p2pBandwidthLatencyTest binary' },
  'nvbandwidth-bin': { type: 'string', describe: 'nvbandwidth binary' },
  'native-dir': { type: 'string', describe: 'directory of built native benches (default: gpucomm build)' },
  'sim-fault': {
    type: 'string',
    array: true,
    hidden: true,
    describe: 'tests: POINT-SUBSTRING=hang|crash|garbage|truncated|corrupt|exit[@ATTEMPTS]',
  },
}

/** Cluster sweeps: nodes, patterns, and the simulated cluster's faults and fabric. */
const CLUSTER_OPTIONS: Record<string, Options> = {
  nodes: {
    type: 'number',
    describe: 'cluster: simulated node count (node01…), or allocation nodes to use',
  },
  pattern: { type: 'string', describe: 'cluster patterns: per-node, node-pairs, scaling (comma list)' },
  'pairs-per-node': {
    type: 'number',
    describe: 'node-pairs: only the first K round-robin rounds (every node in K pairs)',
  },
  inject: {
    type: 'string',
    describe: `simulated cluster faults KIND@NODE[,…]: ${INJECT_KINDS.join(', ')}`,
  },
  fabric: {
    type: 'string',
    describe: `simulated inter-node network: ${FABRIC_IDS.join(', ')} (default ib)`,
  },
}

/** Where the set goes: a preset spec, the directory, resume, a dry run. */
const OUTPUT_OPTIONS: Record<string, Options> = {
  spec: { type: 'string', describe: 'a sweep preset (bench/*.json); flags override it' },
  out: {
    alias: 'o',
    type: 'string',
    describe: 'result-set directory (default results/<date>-<host>[-sim])',
  },
  resume: { type: 'string', describe: 'continue the sweep in DIR, skipping points already done' },
  'dry-run': {
    type: 'boolean',
    default: false,
    describe: 'print the points and exact commands; run nothing',
  },
}

/** `gpucomm sweep`: plan → launch → parse → append, into a result set (the main job). */
export const sweepCommand = defineCommand({
  command: 'sweep',
  describe:
    'Run a benchmark sweep (pairs × groupings × sizes × env × trials) into a result set; ' +
    'simulated when no GPU is found',
  builder: (y) =>
    y
      .options({
        ...planOptions(),
        ...TRIAL_OPTIONS,
        ...LAUNCH_OPTIONS,
        ...TOOL_OPTIONS,
        ...CLUSTER_OPTIONS,
        ...OUTPUT_OPTIONS,
      })
      .example(
        'gpucomm sweep --instrument sim --preset seed-vm --gpus 0-7 --pairs all --groupings ' +
          'tp8,tp4 --sizes 8:64M:x2 --out r1',
        'a simulated TP8 vs TP4 sweep',
      ),
  run: async (args, io) => {
    const { sweepCommand: sweep } = await import('../_sweep-flow.ts')
    const flags = Object.fromEntries(
      Object.entries(SPEC_FLAGS)
        .filter(([f]) => args[f] !== undefined)
        .map(([f, k]) => [k, args[f]]),
    )
    const { STOP_SIGNALS } = await import('../_sweep-flow.ts')
    // SIGINT, SIGTERM and SIGHUP all stop the sweep the same way: the running point's process
    // group is killed, the set is written and its lock released; a second signal ends at once.
    const ac = new AbortController()
    const handlers = Object.entries(STOP_SIGNALS).map(([s, code]) => {
      const h = (): void => (ac.signal.aborted ? process.exit(code) : ac.abort(s))
      process.on(s, h)
      return [s, h] as const
    })
    // The set is written: from here on a signal ends the process as it normally would.
    const release = (): void => {
      for (const [s, h] of handlers) process.off(s, h)
    }
    let r: Awaited<ReturnType<typeof sweep>>
    try {
      r = await sweep(
        {
          flags,
          command: ['gpucomm', ...process.argv.slice(2)],
          root: '.',
          dryRun: args.dryRun as boolean,
          // Then the analysis (its answer opens the summary) and the report beside the set.
          after: true,
          ...(args.spec ? { specFile: args.spec as string } : {}),
          ...(args.out ? { out: args.out as string } : {}),
          ...(args.resume ? { resume: args.resume as string } : {}),
        },
        {
          stdout: io.stdout,
          stderr: io.stderr,
          isTTY: io.isTTY,
          // A live bar on a terminal; plain lines in CI (CI set) and when stderr is not a terminal.
          ...(io.isTTY && !process.env.CI ? { tty: process.stderr } : {}),
          signal: ac.signal,
          written: release,
        },
      )
    } finally {
      release()
    }
    return r.code
  },
})
