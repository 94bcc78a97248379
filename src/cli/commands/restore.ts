import { defineCommand } from '../_types.ts'

/** `gpucomm restore DIR`: puts back host settings a sweep changed and could not restore (killed). */
export const restoreCommand = defineCommand({
  command: 'restore <dir>',
  describe: "Put back the host settings (cpuidle states) a sweep's --host-axis changed, from DIR's restore record",
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('sysfs-root', {
        type: 'string',
        describe: 'the stand-in root the sweep wrote under (its --sysfs-root); default the live /',
      })
      .example('gpucomm restore results/box1', 'after a sweep was killed with a host knob applied'),
  run: async (args, io) => {
    const { statSync } = await import('node:fs')
    const { badInput } = await import('../../errors/index.ts')
    const { applyPendingRestore, RESTORE_FILE } = await import('../../host/index.ts')
    const dir = args.dir as string
    const st = statSync(dir, { throwIfNoEntry: false })
    if (!st) throw badInput(`${dir}: no such directory`)
    if (!st.isDirectory()) throw badInput(`${dir}: not a directory (give the result set a sweep wrote)`)
    const r = applyPendingRestore(dir, (args['sysfs-root'] as string | undefined) ?? '/')
    io.stdout(
      r.restored
        ? `restored ${r.restored} host setting${r.restored === 1 ? '' : 's'} changed for point ${r.point ?? '?'}\n`
        : `${dir}: nothing to restore (no ${RESTORE_FILE})\n`,
    )
    return 0
  },
})
