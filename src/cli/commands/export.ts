import { defineCommand } from '../_types.ts'

/** `gpucomm export DIR --format jsonl|csv|parquet [--out FILE]`: rows for other tools. */
export const exportCommand = defineCommand({
  command: 'export <dir>',
  describe: 'Write the rows of a result set as JSON lines, CSV or Parquet',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('format', {
        choices: ['jsonl', 'csv', 'parquet'] as const,
        default: 'jsonl' as const,
        describe: 'output format (JSON lines are the interchange)',
      })
      .option('out', { type: 'string', describe: 'write to this new file instead of stdout (needed for parquet)' })
      .example('gpucomm export results/box1 --format csv > box1.csv', 'CSV with time_us, busbw_GBps, … columns')
      .example('gpucomm export results/box1 --format parquet --out box1.parquet', 'one Parquet file of every row'),
  run: async (args, io) => {
    const { badInput } = await import('../../errors/index.ts')
    const out = args.out as string | undefined
    if (args.format === 'parquet' && out === undefined)
      throw badInput('export --format parquet writes a file: give --out FILE')
    const { appendFileSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync } = await import('node:fs')
    const { dirname } = await import('node:path')
    if (out !== undefined && existsSync(out)) throw badInput(`${out}: already exists (export never overwrites a file)`)
    if (out !== undefined && !(existsSync(dirname(out)) && statSync(dirname(out)).isDirectory()))
      throw badInput(`${out}: ${dirname(out)} is not a directory`)
    const { exportParquet, readManifest, streamRows } = await import('../../resultset/index.ts')
    const m = readManifest(args.dir as string)
    if (args.format === 'parquet') {
      // A damaged part: one warning from main, the other rows exported, exit 0 (as csv and jsonl).
      await exportParquet(args.dir as string, out as string, m.simulated === true)
      return 0
    }
    const { csvHeader, csvRecords, rowsToJsonl } = await import('../../output/index.ts')
    const sim = m.simulated === true
    const csv = args.format === 'csv'
    // Chunk by chunk (streamRows): memory holds one chunk of rows, not the set.
    const tmp = `${out}.${process.pid}.tmp`
    let fd = out === undefined ? undefined : openSync(tmp, 'wx')
    const write = (text: string): void => (fd === undefined ? io.stdout(text) : appendFileSync(fd, text))
    try {
      if (csv) write(csvHeader(sim))
      // Written to stdout, a chunk waits until the reader has taken the one before.
      await streamRows(args.dir as string, (rows) => {
        write(csv ? csvRecords(rows, sim) : rowsToJsonl(rows, sim))
        return fd === undefined ? io.drain?.() : undefined
      })
      if (fd !== undefined) {
        closeSync(fd)
        fd = undefined
        renameSync(tmp, out as string)
      }
    } finally {
      if (fd !== undefined) closeSync(fd)
      if (out !== undefined) rmSync(tmp, { force: true })
    }
    return 0 // corrupt lines: one warning per file from main (the rule of every command reading a set)
  },
})
