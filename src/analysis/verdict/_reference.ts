/**
 * The band table of docs/REFERENCE.md, rendered from the bands themselves (a test keeps the
 * document in step with bands.ts): one Markdown row per band with its range, conditions and
 * original public source.
 */

import { BANDS, NCCL_MODEL, ncclModelBand } from '../../bands/index.ts'
import type { Band } from '../_types.ts'
import { bandRange } from '../_words.ts'

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The structured conditions of a band in words ("bare metal; GPU RTX 4090; links SYS; …"). */
export function conditionsOf(b: Band): string {
  const c = [
    b.vm === true ? 'VM' : b.vm === false ? 'bare metal' : '',
    b.gpuFamily === 'any' ? '' : b.gpuFamily === 'unstated' ? 'GPU not stated' : `GPU ${b.gpuFamily}`,
    b.p2p === 'any' ? '' : `P2P ${b.p2p}`,
    b.links ? `links ${b.links.join('/')}` : '',
    b.attach ? (b.attach === 'direct' ? 'GPUs on own root ports' : 'GPUs behind PCIe switches') : '',
    b.ranks !== undefined ? `${b.ranks} GPUs` : '',
    b.transports ? `NCCL ${b.transports.join(' or ')}` : '',
    b.launch ? 'one process (-g N)' : '',
    ...Object.entries(b.env ?? {}).map(([k, v]) => `${k}=${v}`),
    b.channels !== undefined ? `${b.channels} channel(s)` : '',
    b.sizes ? `sizes ${b.sizes[0]}–${b.sizes[1]} B` : '',
  ].filter(Boolean)
  return [...c, b.conditions].join('; ')
}

/** The Markdown table of every band, NCCL's model for 2, 4 and 8 GPUs included. */
export function referenceTable(): string {
  const model = Object.keys(NCCL_MODEL).flatMap((k) => [2, 4, 8].map((n) => ncclModelBand(k as never, n)))
  const rows = [...BANDS, ...model].map(
    (b) => `| \`${b.id}\` | ${cell(b.label)} | ${cell(bandRange(b))} | ${cell(conditionsOf(b))} | ${cell(b.source)} |`,
  )
  return ['| id | what | value | conditions | source |', '|---|---|---|---|---|', ...rows].join('\n')
}
