/**
 * Worker threads started from a module of this package, whether it runs compiled (dist/) or
 * from its TypeScript sources: then the worker runs the compiled twin in dist/ when dist/ was
 * built after every change under src/ (bin/gpucomm.js' rule), else it first registers tsx's
 * loader, found from here (a loader registered on the main thread does not reach a worker).
 */
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { distIsFresh } from '../../bin/dist-fresh.js'

/** The URL of module `name` (without extension) beside the module `from` (its import.meta.url). */
export function besides(from: string, name: string): URL {
  return new URL(`./${name}.${from.endsWith('.ts') ? 'ts' : 'js'}`, from)
}

/** Starts `script` (a besides() URL) on a worker thread; throws as `new Worker` does. */
export function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script)
  const twin = compiledTwin(fileURLToPath(script))
  if (twin) return new Worker(twin)
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}
register()
await import(${JSON.stringify(script.href)})`
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`))
}

const ROOT = resolve(import.meta.dirname, '..', '..')
let fresh: boolean | undefined

/**
 * dist/'s compiled twin of a source under src/, while dist/.built (the build's start time) is
 * newer than every file under src/ (checked once a process): a worker started from it loads
 * JavaScript, not tsx and the sources again (~0.3 s of CPU a worker).
 */
function compiledTwin(source: string): URL | undefined {
  const rel = relative(join(ROOT, 'src'), source)
  if (rel.startsWith('..')) return undefined
  fresh ??= distIsFresh(ROOT)
  return fresh ? pathToFileURL(join(ROOT, 'dist', rel.replace(/\.ts$/, '.js'))) : undefined
}
