/** Result sets on disk: manifest.json, samples (Parquet parts, or a schema-1 samples.jsonl) and raw/ (all IO lives here). */

export { ColumnBatch } from './_columns.ts'
export { dropPlantedLinks } from './_links.ts'
export { noteLoad, withLoadNotes } from './_load-notes.ts'
export { gpucommVersion, newManifest } from './_manifest.ts'
export { Appender, exportParquet, LEGACY_SAMPLES, listParts, PARTS, partBytes, pruneParts } from './_parts.ts'
export type { ReadSet, SampleSet } from './_samples.ts'
export { loadSamples, rowCount } from './_samples.ts'
export type { LoadedSet } from './_store.ts'
export {
  isNonEmptyDir,
  legacySamples,
  loadSet,
  MANIFEST,
  RAW,
  readJsonl,
  readManifest,
  readRows,
  SAMPLES,
  writeManifest,
} from './_store.ts'
export type { Streamed, StreamOptions } from './_stream.ts'
export { CHUNK_ROWS, streamRows } from './_stream.ts'
export { ThreadedAppender } from './_threaded.ts'
