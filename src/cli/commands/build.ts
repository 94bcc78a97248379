import { defineCommand } from '../_types.ts'

/** `gpucomm build`: compile the native benches (cached), or a user's nccl-tests / cuda-samples checkout. */
export const buildCommand = defineCommand({
  command: 'build',
  describe: 'Compile the native benches (p2p_bench, coll_bench) with nvcc, or build your own nccl-tests / cuda-samples',
  builder: (y) =>
    y
      .option('arch', {
        type: 'string',
        describe: 'target arches, e.g. sm_90,sm_120 (default: nvidia-smi compute_cap, else a fatbin)',
      })
      .option('force', { type: 'boolean', default: false, describe: 'rebuild even when cached' })
      .option('cache', { type: 'string', describe: 'cache folder (default $GPUCOMM_CACHE, else .cache/gpucomm)' })
      .option('upstream-src', {
        type: 'string',
        describe: 'build this nccl-tests or cuda-samples checkout with make instead',
      })
      .option('nccl-home', { type: 'string', describe: 'NCCL_HOME for an nccl-tests build' })
      .option('mpi', { type: 'boolean', default: false, describe: 'build nccl-tests with MPI=1' })
      .option('mpi-home', { type: 'string', describe: 'MPI_HOME for an MPI build' })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
      .example('gpucomm build --arch sm_90', 'compile both benches for Hopper')
      .example(
        'gpucomm build --upstream-src ~/nccl-tests --nccl-home /opt/nccl --mpi',
        'build and register nccl-tests',
      ),
  run: async (args, io) => {
    const { buildNative, buildUpstream } = await import('../../build/index.ts')
    const cacheDir = args.cache as string | undefined
    if (typeof args.upstreamSrc === 'string') {
      const u = await buildUpstream(args.upstreamSrc, {
        ncclHome: args.ncclHome as string | undefined,
        mpi: args.mpi as boolean,
        mpiHome: args.mpiHome as string | undefined,
        cacheDir,
      })
      if (args.json) io.stdout(`${JSON.stringify(u, null, 2)}\n`)
      else
        io.stdout(
          `${u.name} at ${u.dir} (commit ${u.commit ?? 'unknown'}` +
            `${u.dirty ? ', with local changes' : ''}) registered:\n` +
            `${Object.entries(u.binaries)
              .map(([k, v]) => `  ${k}: ${v}`)
              .join('\n')}\n`,
        )
      return 0
    }
    const arch =
      typeof args.arch === 'string'
        ? args.arch
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined
    const b = await buildNative({ arch, force: args.force as boolean, cacheDir })
    if (args.json) io.stdout(`${JSON.stringify(b, null, 2)}\n`)
    else {
      const how = b.cached ? 'cached' : `built in ${b.compileS.toFixed(1)} s`
      io.stdout(
        `p2p_bench: ${b.p2pBench}\ncoll_bench: ${b.collBench}\nkey ${b.hash}, arch ` +
          `${b.arch.join(',')}${b.ptx ? ' + PTX' : ''}, nvcc ${b.nvcc.version} (${how})\n` +
          `host compiler: ${b.host.tools.map((t) => `${t.path ?? `${t.name} (not found)`} (${t.versionText?.split('\n')[0] ?? 'no version'})`).join(', ')}\n`,
      )
    }
    return 0
  },
})
