// Preloaded into a gpucomm process by a test (node --import): once the file named by
// GPUCOMM_THROW_WHEN exists, an uncaught exception is thrown in that process, as a bug in the
// harness would throw one. Nothing in gpucomm knows about it.
import { existsSync } from 'node:fs'

const when = process.env.GPUCOMM_THROW_WHEN
if (when) {
  const t = setInterval(() => {
    if (!existsSync(when)) return
    clearInterval(t)
    throw new Error('injected harness fault (test/helpers/throw-when.mjs)')
  }, 50)
  t.unref()
}
