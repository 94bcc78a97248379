import { defineCommand } from '../_types.ts'

/** `gpucomm topo`: the topology doctor (live, from saved outputs, a sysfs tree or a capture). */
export const topoCommand = defineCommand({
  command: 'topo',
  describe: 'Explain the GPU topology: PCIe paths, P2P status, hypervisor, expected copy cost, TP grouping advice',
  builder: (y) =>
    y
      .option('input', {
        type: 'string',
        array: true,
        describe:
          'saved outputs: nvidia-smi topo -m / -p2p r|w|n|a|p, lspci -tv / -nn, find /sys/kernel/iommu_groups -type l',
      })
      .option('sysfs-root', {
        type: 'string',
        describe: 'read sysfs (and proc/cpuinfo) under DIR instead of the live machine',
      })
      .option('under-load', {
        type: 'boolean',
        default: false,
        describe:
          'the sources were read while a bandwidth test ran: a PCIe link speed below its maximum is ' +
          'then a fault (at rest, only a narrow width is)',
      })
      .option('from', { type: 'string', describe: 'analyze a capture written by --capture' })
      .option('capture', { type: 'string', describe: 'save everything read into DIR (new or empty) for --from' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the report as JSON (documented in README, types exported)',
      })
      .example('gpucomm topo', 'inspect this machine')
      .example('gpucomm topo --input topo-m.txt topo-p2p-r.txt --json', 'analyze saved nvidia-smi outputs'),
  run: async (args, io) => {
    const t = await import('../../topology/index.ts')
    const opts = {
      ...(args.input ? { inputs: args.input as string[] } : {}),
      ...(args['sysfs-root'] !== undefined ? { sysfsRoot: args['sysfs-root'] as string } : {}),
      ...(args.from !== undefined ? { from: args.from as string } : {}),
      ...(args['under-load'] ? { underLoad: true } : {}),
    }
    const report =
      args.capture !== undefined ? await t.captureTopology(args.capture as string, opts) : await t.collectTopology(opts)
    for (const d of report.diagnostics)
      if (d.severity !== 'info') io.stderr(`${d.file}:${d.line}: ${d.severity}: ${d.message}\n`)
    if (args.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`)
    if (report.gpus.length === 0) {
      io.stderr(`gpucomm: ${t.noGpuLine(report)}\n`)
      return 1
    }
    if (!args.json) io.stdout(t.renderTopology(report))
    return 0
  },
})
