import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Manifest } from '../model/index.ts'
import { SCHEMA_VERSION } from '../model/index.ts'

let version: string | undefined

/** gpucomm's own version, from package.json. */
export function gpucommVersion(): string {
  if (version === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    version = pkg.version
  }
  return version
}

/** A fresh manifest with a new id and the creation time. */
export function newManifest(fields: Pick<Manifest, 'origin' | 'simulated' | 'command'> & Partial<Manifest>): Manifest {
  const created = new Date().toISOString()
  return {
    schema: SCHEMA_VERSION,
    id: `${created.slice(0, 19).replace(/[-:T]/g, '')}-${randomBytes(3).toString('hex')}`,
    created,
    gpucommVersion: gpucommVersion(),
    ...fields,
  }
}
