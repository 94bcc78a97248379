/** Result sets on disk: manifest.json, samples.jsonl and raw/ (all IO lives here). */
export { MANIFEST, SAMPLES, RAW, isNonEmptyDir, writeManifest, readManifest, saveRaw, Appender, readRows, loadSet } from './_store.ts'
export type { LoadedSet } from './_store.ts'
export { newManifest, gpucommVersion } from './_manifest.ts'
