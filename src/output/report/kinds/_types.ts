import type { ReadSet } from '../../../resultset/index.ts'
import type { NamedChart } from '../../charts/index.ts'

/** Who a chart is drawn for: the set's simulated flag and the result set it names. */
export interface KindContext {
  simulated: boolean
  subject?: string
}

/** Options a kind may need beyond the set (`--baseline`, `--allow-sim`). */
export interface KindOptions {
  baseline?: string
  allowSim: boolean
}

/**
 * A chart kind of `gpucomm plot --kind`: one file under report/kinds/ plus one line in the
 * registry. `build` loads what it needs lazily, so the CLI can list kinds without loading it.
 */
export interface ChartKind {
  id: string
  /** What the kind draws, for --help. */
  describe: string
  build(set: ReadSet, ctx: KindContext, opts: KindOptions): Promise<NamedChart[]>
}
