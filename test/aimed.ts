/**
 * Inputs aimed at the patterns that read untrusted text (issue #35 item 6), shared by
 * test/unit/aimed-inputs.test.ts (each at a small size: what comes out is right) and
 * bench/aimed.bench.ts (each at 1 MB: parsed in ≤ 1 s, and 4× the input costs about 4× the
 * time). Random fuzzing does not find these: each input is a long run of the one character
 * class a pattern could split in many ways, placed where the pattern reads it.
 *
 * Each case builds its input of about `bytes` characters once (`make`), and `run` reads it
 * and returns what the reader made of it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Fit } from '../src/analysis/index.ts'
import { gpuOutliers } from '../src/analysis/index.ts'
import { parseSmiQuery } from '../src/machine/index.ts'
import { scaled } from '../src/parsers/_matrix-common.ts'
import { parseText } from '../src/parsers/index.ts'
import { nvbandwidthParser } from '../src/parsers/nvbandwidth/nvbandwidth.ts'
import { parseQueryCsv } from '../src/topology/_inputs.ts'
import { FIXTURES } from './helpers.ts'

/** One aimed input and the reader it is aimed at. */
export interface AimedCase {
  name: string
  /** The pattern (or loop) the input is aimed at, as it was. */
  aim: string
  make(bytes: number): unknown
  run(input: unknown): unknown
}

const NVBW = join(FIXTURES, 'nvbandwidth', 'azure-nd-h100-v5-8gpu-d2d-read-ce-v0.4.txt')
/** Line 25 of NVBW: GPU1's row of the device_to_device_memcpy_read_ce matrix. */
export const NVBW_ROW = 25

/** GPU `slow` of a ring of `gpus` GPUs (pairs i → i+1) has pairs 2× slower than the rest (1.7× the class median). */
export function ring(gpus: number, slow: number): Fit[] {
  return Array.from(
    { length: gpus },
    (_, i) =>
      ({
        bench: 'p2p.latency',
        p2p: 'enabled',
        src: i,
        dst: (i + 1) % gpus,
        alpha: (i === slow || (i + 1) % gpus === slow ? 2 : 1 + (i % 5) / 10) * 1e-6,
        mechanism: { id: 'p2p-pcie', text: 'P2P over PCIe' },
      }) as Fit,
  )
}

export const AIMED: readonly AimedCase[] = [
  {
    name: 'matrix number: a run of digits ending in a letter',
    aim: String.raw`_matrix-common.ts DECIMAL/FLOAT ^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`,
    make: (bytes) => `${'9'.repeat(bytes)}x`,
    run: (s) => scaled(s as string, 9),
  },
  {
    name: 'nvbandwidth: a matrix cell of a run of digits ending in a letter',
    aim: String.raw`nvbandwidth.ts CELL ^(?:N\/A|[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|-?nan|-?inf)$`,
    make: (bytes) => {
      const lines = readFileSync(NVBW, 'utf8').split('\n')
      lines[NVBW_ROW - 1] = (lines[NVBW_ROW - 1] as string).replace('N/A', `${'9'.repeat(bytes)}x`)
      return lines.join('\n')
    },
    run: (text) => parseText(nvbandwidthParser, text as string, { file: 'aimed.txt' }),
  },
  {
    name: 'nvidia-smi -q: a line of blanks without a colon, then the link block',
    aim: String.raw`machine/_nvsmi.ts ^(\s*)([^:]+?)\s*:\s*(.*?)\s*$`,
    make: (bytes) =>
      [
        'GPU 00000000:07:00.0',
        `${' '.repeat(bytes)}x`,
        '        GPU Link Info',
        '            PCIe Generation',
        '                Max                       : 4',
        '                Current                   : 1',
        '            Link Width',
        `                Max     ${' '.repeat(bytes)}  : 16x`,
        '                Current                   : 8x',
      ].join('\n'),
    run: (text) => parseSmiQuery(text as string),
  },
  {
    name: 'nvidia-smi --query-gpu CSV: blanks around the name',
    aim: String.raw`topology/_inputs.ts ^\s*(\d+)\s*,\s*([^,]+?)\s*,\s*(bus id)\s*$`,
    make: (bytes) => {
      const b = ' '.repeat(bytes / 4)
      return `0, ${b}NVIDIA H100${b} , 00000000:07:00.0\n${b}1${b},${b}NVIDIA H100,${b}00000000:08:00.0${b}`
    },
    run: (text) => parseQueryCsv(text as string),
  },
  {
    name: 'analyze: one link class of a ring of GPUs (40 bytes of input per pair)',
    aim: 'analysis/_join.ts gpuOutliers: each GPU filtered and sorted the whole class',
    make: (bytes) => ring(Math.max(3, Math.round(bytes / 40)), 1),
    run: (fits) => gpuOutliers(fits as Fit[]),
  },
]
