/** Every simulator preset, in one explicit list. Add a preset by adding its file and one line here. */
import type { Preset } from '../_types.ts'
import { baremetalTurin } from './baremetal-turin.ts'
import { nvlink } from './nvlink.ts'
import { pcieSwitch } from './pcie-switch.ts'
import { seedVm } from './seed-vm.ts'

/** The presets, by the name `--preset` takes. */
export const PRESETS: readonly Preset[] = [seedVm, baremetalTurin, pcieSwitch, nvlink]
