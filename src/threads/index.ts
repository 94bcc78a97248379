/**
 * Worker threads started from a module of this package, whether it runs compiled (dist/) or
 * from its TypeScript sources: then the worker first registers tsx's loader, found from here
 * (a loader registered on the main thread does not reach a worker).
 */
import { Worker } from 'node:worker_threads'

/** The URL of module `name` (without extension) beside the module `from` (its import.meta.url). */
export function besides(from: string, name: string): URL {
  return new URL(`./${name}.${from.endsWith('.ts') ? 'ts' : 'js'}`, from)
}

/** Starts `script` (a besides() URL) on a worker thread; throws as `new Worker` does. */
export function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script)
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}
register()
await import(${JSON.stringify(script.href)})`
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`))
}
