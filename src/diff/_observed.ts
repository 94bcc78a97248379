/**
 * What the machine gave, per side of a diff cell: cells are matched on the requested
 * configuration, and an observed condition that differs between A and B (peer access) is
 * shown beside the cell ("peer access: yes → no") instead of splitting it in two.
 */
import type { ObservedField, RowGroup } from '../cells/index.ts'
import { OBSERVED } from '../cells/index.ts'

/** One observed condition that differs between the two sides of a cell. */
export interface ObservedChange {
  /** The row field (`peerAccess`). */
  field: ObservedField
  /** What A and B observed, in words ("yes", "no", "yes/no" when a side saw both). */
  a: string
  b: string
}

const NAMES: Record<ObservedField, string> = { peerAccess: 'peer access' }
const WORDS: Record<string, string> = { true: 'yes', false: 'no' }

const words = (seen: Set<string> | undefined): string =>
  seen?.size
    ? [...seen]
        .sort()
        .reverse()
        .map((v) => WORDS[v] ?? v)
        .join('/')
    : 'not reported'

/** The observed conditions that differ between A's and B's rows of a cell. */
export function observedChanges(a: RowGroup, b: RowGroup): ObservedChange[] {
  const out: ObservedChange[] = []
  for (const field of OBSERVED) {
    const wa = words(a.observed?.[field])
    const wb = words(b.observed?.[field])
    if (wa !== wb) out.push({ field, a: wa, b: wb })
  }
  return out
}

/** "peer access: yes → no; …", or '' when nothing changed. */
export const changeText = (changes: readonly ObservedChange[]): string =>
  changes.map((c) => `${NAMES[c.field]}: ${c.a} → ${c.b}`).join('; ')

/** The cell with its observed changes noted (none: the cell as it is). */
export function withChanges<C extends { changed?: ObservedChange[] }>(cell: C, a: RowGroup, b: RowGroup): C {
  const changed = observedChanges(a, b)
  if (changed.length) cell.changed = changed
  return cell
}
