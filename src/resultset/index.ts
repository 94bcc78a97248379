/** Result sets on disk: manifest.json, samples.jsonl and raw/ (all IO lives here). */

export { noteLoad, withLoadNotes } from './_load-notes.ts'
export { gpucommVersion, newManifest } from './_manifest.ts'
export type { LoadedSet } from './_store.ts'
export {
  Appender,
  isNonEmptyDir,
  loadSet,
  MANIFEST,
  RAW,
  readManifest,
  readRows,
  SAMPLES,
  writeManifest,
} from './_store.ts'
