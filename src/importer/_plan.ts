import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs'
import { badInput } from '../errors/index.ts'
import type { Diagnostic } from '../model/index.ts'
import { SIM_MARKER, simScaleIn, simScaleWords } from '../model/index.ts'
import type { Parser } from '../parsers/index.ts'
import { DETECT_BYTES, detectParser } from '../parsers/index.ts'

/** One input to import: a path, or "-" with the bytes read from stdin. */
export interface ImportInput {
  path: string
  data?: Buffer
}

/** An input with its parser, whether it is SIMULATED output, and its --sim-scale (1: none). */
export interface Planned {
  input: ImportInput
  parser: Parser
  simulated: boolean
  scale: number
}

/** The first DETECT_BYTES of an input, for detecting its format. */
function head(input: ImportInput): string {
  if (input.data) return input.data.subarray(0, DETECT_BYTES).toString('utf8')
  const fd = openSync(input.path, 'r')
  try {
    const buf = Buffer.alloc(DETECT_BYTES)
    const n = readSync(fd, buf, 0, DETECT_BYTES, 0)
    return buf.subarray(0, n).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** Checks every input and picks its parser before anything is written. */
export function plan(inputs: readonly ImportInput[], diagnostics: Diagnostic[]): Planned[] {
  if (inputs.length === 0) throw badInput('import: no input files given')
  const planned = inputs.map((input) => {
    if (!input.data) {
      if (!existsSync(input.path)) throw badInput(`${input.path}: no such file`)
      if (!statSync(input.path).isFile()) throw badInput(`${input.path}: not a regular file`)
    }
    const h = head(input)
    const parser = detectParser(h, undefined, { file: input.path, diagnostics })
    if (!parser)
      throw badInput(
        `${input.path}: not in any format gpucomm knows (nccl-tests, p2pBandwidthLatencyTest, nvbandwidth, ` +
          `nvidia-smi topo, lspci, native benches)`,
      )
    const simulated = h.includes(SIM_MARKER)
    return { input, parser, simulated, scale: (simulated && simScaleIn(h)) || 1 }
  })
  const scaled = planned.find((p) => p.scale !== planned[0]?.scale)
  if (scaled)
    throw badInput(
      `${scaled.input.path}: simulated ${scaled.scale === 1 ? 'unscaled' : simScaleWords(scaled.scale)}, unlike ` +
        `${planned[0]?.input.path} (import sets of different --sim-scale separately)`,
    )
  return planned
}
