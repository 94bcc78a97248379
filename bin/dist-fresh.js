// Whether dist/ (the compiled CLI, `npm run build`) may be run instead of the sources: true when
// dist/.built (the build's start time) is newer than every file under src/. One rule for the
// bin (bin/gpucomm.js), the build (scripts/build-dist.mjs --if-stale) and the workers
// (src/threads), so none runs JavaScript older than the sources.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** @param {string} root the package root (holding src/ and dist/) */
export function distIsFresh(root) {
  let built
  try {
    built = Number(readFileSync(join(root, 'dist', '.built'), 'utf8'))
  } catch {
    return false
  }
  const changed = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? changed(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs >= built,
    )
  return Number.isFinite(built) && !changed(join(root, 'src'))
}
