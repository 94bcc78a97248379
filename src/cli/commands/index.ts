import type { CommandDef } from '../_types.ts'
import { analyzeCommand } from './analyze.ts'
import { buildCommand } from './build.ts'
import { compareCommand } from './compare.ts'
import { diffCommand } from './diff.ts'
import { exportCommand } from './export.ts'
import { importCommand } from './import.ts'
import { plotCommand } from './plot.ts'
import { reportCommand } from './report.ts'
import { restoreCommand } from './restore.ts'
import { showCommand } from './show.ts'
import { simCommand } from './sim.ts'
import { sweepCommand } from './sweep.ts'
import { topoCommand } from './topo.ts'

/** Every CLI command, in the order `--help` lists them. Add a command with one line here. */
export const COMMANDS: readonly CommandDef[] = [
  importCommand,
  showCommand,
  exportCommand,
  diffCommand,
  simCommand,
  analyzeCommand,
  compareCommand,
  buildCommand,
  topoCommand,
  sweepCommand,
  restoreCommand,
  plotCommand,
  reportCommand,
]
