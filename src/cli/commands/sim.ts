import { defineCommand } from '../_types.ts'

/** `gpucomm sim`: prints one simulated tool output (nccl-tests or p2pBandwidthLatencyTest text). */
export const simCommand = defineCommand({
  command: 'sim',
  describe: 'Print one SIMULATED nccl-tests or p2pBandwidthLatencyTest output (presets, seeded noise, faults)',
  builder: (y) =>
    y
      .option('preset', { type: 'string', demandOption: true, describe: 'seed-vm, baremetal-turin, pcie-switch or nvlink' })
      .option('format', { type: 'string', demandOption: true, choices: ['nccl-tests', 'p2p'], describe: 'which tool to imitate' })
      .option('collective', { type: 'string', default: 'all_reduce', describe: 'nccl-tests collective' })
      .option('gpus', { type: 'string', describe: 'GPUs, in rank order: 0-7 or 0,2,4 (default: all)' })
      .option('sizes', { type: 'string', describe: 'MIN:MAX:xF, MIN:MAX:+S or a list (default 8:64M:x2)' })
      .option('iters', { type: 'number', default: 20, describe: 'iterations per size (nccl-tests -n)' })
      .option('warmup', { type: 'number', default: 1, describe: 'warm-up iterations (0 shows a cold first iteration)' })
      .option('seed', { type: 'number', default: 0, describe: 'noise seed (same seed and flags, same bytes)' })
      .option('trial', { type: 'number', default: 0, describe: 'trial number (drift between trials)' })
      .option('env', { type: 'string', array: true, default: [], describe: 'NCCL env as NAME=VALUE (NCCL_P2P_DISABLE, NCCL_PROTO, NCCL_P2P_LEVEL, NCCL_SHM_DISABLE, NCCL_SHM_USE_CUDA_MEMCPY)' })
      .option('fault', { type: 'string', choices: ['hang', 'crash', 'garbage', 'truncated', 'corrupt', 'exit'], describe: 'act out a failure' })
      .example('gpucomm sim --preset seed-vm --format nccl-tests --gpus 0-7 --sizes 8:64M:x2', 'a simulated all_reduce_perf log'),
  run: async (args, io) => {
    const sim = await import('../../sim/index.ts')
    const fault = args.fault as import('../../sim/index.ts').Fault | undefined
    const launch = sim.launchContext(process.env)
    const sizes = typeof args.sizes === 'string' ? sim.parseSizes(args.sizes) : undefined
    const text = sim.simulate({
      preset: args.preset as string,
      format: args.format as import('../../sim/index.ts').SimFormat,
      collective: args.collective as import('../../sim/index.ts').Collective,
      ...(typeof args.gpus === 'string' ? { gpus: sim.parseGpuList(args.gpus) } : {}),
      ...(sizes ? { sizes: sizes.sizes, step: sizes.step } : {}),
      iters: args.iters as number,
      warmup: args.warmup as number,
      seed: args.seed as number,
      trial: args.trial as number,
      env: sim.parseEnvList((args.env as string[]).map(String)),
      ...(fault ? { fault } : {}),
      processes: launch.size,
    })
    // Under MPI/Slurm only rank 0 prints, as nccl-tests does; the others print nothing.
    if (launch.rank === 0) io.stdout(text)
    await new Promise<void>((done) => process.stdout.write('', () => done()))
    if (fault === 'hang') await new Promise<never>(() => setInterval(() => {}, 1 << 30))
    if (launch.rank !== 0) return 0
    if (fault === 'crash') {
      process.kill(process.pid, 'SIGABRT')
      await new Promise<never>(() => setInterval(() => {}, 1 << 30))
    }
    return fault === 'exit' || fault === 'corrupt' ? 1 : 0
  },
})
