/**
 * Which condition columns of a set's parts can differ from row to row, read from the
 * Parquet footers alone (no scan). A column is constant when every row group says so:
 * all of it null, or none of it null with equal min and max statistics, the same in every
 * row group. Statistics are bounds (min ≤ every value ≤ max, truncated or not), so equal
 * bounds mean one value. DOUBLE columns count as constant only when all null: a NaN is left
 * out of the statistics, and −0 and 0 print alike. Anything else, missing statistics
 * included, is varying. Grouping rows by the varying columns alone makes the same groups
 * as grouping by all of them, at a fraction of the hashing.
 */
import type { Duck } from './_duck.ts'
import { sqlString } from './_duck.ts'

/** The names among `columns` whose values may differ between rows of `parts`. */
export async function varyingColumns(
  db: Duck,
  parts: readonly string[],
  columns: readonly string[],
): Promise<string[]> {
  if (parts.length === 0) return [...columns]
  const r = await db.conn.runAndReadAll(
    `SELECT path_in_schema AS name,
       bool_and(stats_null_count = num_values) AS all_null,
       bool_and(stats_null_count = 0 AND type <> 'DOUBLE' AND stats_min_value IS NOT NULL
         AND stats_min_value = stats_max_value) AND count(DISTINCT stats_min_value) = 1 AS one_value
     FROM parquet_metadata([${parts.map(sqlString).join(', ')}]) GROUP BY path_in_schema`,
  )
  const constant = new Set<string>()
  for (const [name, allNull, oneValue] of r.getRows())
    if (allNull === true || oneValue === true) constant.add(String(name))
  return columns.filter((c) => !constant.has(c))
}
