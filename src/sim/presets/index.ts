/**
 * Every simulator preset, in one registry. A new preset is its file plus one line in
 * BUILT_IN; `gpucomm sim`, the sim instrument of `sweep`, their help and the tests read
 * the names from here. registerPreset adds one at run time (tests, embedding programs).
 */
import type { Preset } from '../_types.ts'
import { baremetalTurin } from './baremetal-turin.ts'
import { nvlink } from './nvlink.ts'
import { pcieSwitch } from './pcie-switch.ts'
import { seedVm } from './seed-vm.ts'

const BUILT_IN: readonly Preset[] = [seedVm, baremetalTurin, pcieSwitch, nvlink]

const presets: Preset[] = [...BUILT_IN]

/** The presets, by the name `--preset` takes (a live view: registered presets appear). */
export const PRESETS: readonly Preset[] = presets

/** The names `--preset` takes, in registry order. */
export const presetNames = (): string[] => presets.map((p) => p.name)

/** Adds a preset; a name already taken is refused. */
export function registerPreset(p: Preset): void {
  if (presets.some((x) => x.name === p.name)) throw new Error(`simulator preset ${p.name} is already registered`)
  presets.push(p)
}
