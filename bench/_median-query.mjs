// The bare engine query the scale bench compares `gpucomm analyze` with: a per-cell median
// over the Parquet parts of result set DIR, in DuckDB with one thread (as gpucomm opens it).
// Prints the number of cells. Usage: node _median-query.mjs DIR
import { join } from 'node:path'
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'

const dir = process.argv[2]
const instance = await DuckDBInstance.create(':memory:', { threads: '1' })
const conn = await DuckDBConnection.create(instance)
const parts = join(dir, 'samples', 'part-*.parquet').replace(/'/g, "''")
const r = await conn.runAndReadAll(
  `SELECT bench, metric, unit, src, dst, "group", ranks, sizeBytes, placement, p2p, "copy", grouping, median(value) AS median, count(*) AS n FROM read_parquet('${parts}') GROUP BY ALL`,
)
console.log(r.currentRowCount)
conn.closeSync()
instance.closeSync()
