import { printable } from '../_argv.ts'
import { defineCommand, fromStdinArg } from '../_types.ts'

/** `gpucomm import FILE... --out DIR`: existing tool outputs → a result set. */
export const importCommand = defineCommand({
  command: 'import <files..>',
  describe: 'Import outputs of nccl-tests, p2pBandwidthLatencyTest, nvbandwidth, … into a result set',
  builder: (y) =>
    y
      .positional('files', {
        type: 'string',
        array: true,
        // yargs would show "[default: []]" beside "[required]" for an array positional.
        default: undefined,
        describe: 'files to import ("-" reads stdin)',
      })
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'result-set directory to create' })
      .option('append', { type: 'boolean', default: false, describe: 'add to an existing result set' })
      .option('collective', {
        type: 'string',
        describe: 'collective of nccl-tests logs that do not name theirs (e.g. alltoall; the file name is tried too)',
      })
      .example('gpucomm import all_reduce.log p2p.txt --out results/box1', 'import two logs')
      .example('gpucomm import run7.log --collective alltoall --out results/a2a', 'a log without its banner'),
  run: async (args, io) => {
    const { importFiles } = await import('../../importer/index.ts')
    const { simLabel } = await import('../../model/index.ts')
    const files = (args.files as string[]).map(fromStdinArg)
    const inputs = await Promise.all(
      files.map(async (path) => (path === '-' ? { path, data: await io.readStdin() } : { path })),
    )
    const s = await importFiles(inputs, {
      out: args.out as string,
      append: args.append as boolean,
      ...(args.collective === undefined ? {} : { collective: args.collective as string }),
      command: ['gpucomm', ...process.argv.slice(2)],
    })
    for (const d of s.diagnostics)
      if (d.severity !== 'info')
        io.stderr(`${printable(`${d.file}:${d.line}: ${d.severity}: ${d.code}: ${d.message}`)}\n`)
    const formats = [...new Set((s.manifest.sources ?? []).map((f) => f.format))].join(', ')
    io.stdout(
      `imported ${s.rows} rows from ${files.length} file(s) (${formats}) into ` +
        `${args.out as string}${s.manifest.simulated ? ` [${simLabel(s.manifest)}]` : ''}\n`,
    )
    // The set keeps what was read (and the raw copy), but a run the tool itself found corrupt fails.
    return s.diagnostics.some((d) => d.code === 'corrupt-run') ? 1 : 0
  },
})
