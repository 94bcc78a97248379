/**
 * Captures: everything topology read, saved so `gpucomm topo --from DIR` (or
 * `collectTopology({ from })`) reproduces the analysis on another machine. Layout:
 * `capture.json` (index), `commands/<file>` (each command's stdout), `inputs/NNN-<name>`
 * (copies of --input files), `root/` (the sysfs and /proc files read, symlinks as
 * symlinks), `report.json` (the analysis at capture time, for people; --from ignores it).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { CaptureIndex } from './_collect.ts'
import { analyze, CAPTURE_INDEX, gather } from './_collect.ts'
import type { CollectOptions, TopologyReport } from './_types.ts'

/**
 * Collects the topology as `collectTopology` does and writes a capture of it to `dir`
 * (which must be new or empty: nothing is overwritten); returns the report.
 */
export async function captureTopology(dir: string, opts: CollectOptions = {}): Promise<TopologyReport> {
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw badInput(`${dir}: directory is not empty; a capture is written to a new or empty directory`)
  const g = await gather(opts)
  mkdirSync(join(dir, 'commands'), { recursive: true })
  mkdirSync(join(dir, 'inputs'), { recursive: true })
  for (const c of g.commands) writeFileSync(join(dir, 'commands', c.file), c.stdout)
  const inputs = g.inputFiles.map((f, i) => ({
    path: f.path,
    file: `${String(i).padStart(3, '0')}-${basename(f.path).replace(/[^\w.+-]/g, '_')}`,
  }))
  inputs.forEach((f, i) => writeFileSync(join(dir, 'inputs', f.file), (g.inputFiles[i] as { text: string }).text))
  if (g.fs) g.fs.saveTo(join(dir, 'root'))
  const index: CaptureIndex = {
    schema: 1,
    kind: 'gpucomm-topology-capture',
    created: new Date().toISOString(),
    commands: g.commands.map(({ stdout: _, ...c }) => c),
    inputs,
    root: g.fs ? 'root' : null,
    ...(g.simulated ? { simulated: true as const } : {}),
  }
  const report = analyze(g)
  writeFileSync(join(dir, 'report.json'), `${JSON.stringify(report, null, 1)}\n`)
  writeFileSync(join(dir, CAPTURE_INDEX), `${JSON.stringify(index, null, 1)}\n`)
  return report
}
