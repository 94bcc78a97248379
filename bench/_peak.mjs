// Runs a Node script in this process and, when the process exits, writes its peak RSS and
// CPU time as JSON to the file named by GPUCOMM_PEAK_OUT (the bench suite's stand-in for
// `/usr/bin/time -v`, which is not on every machine). Usage: node _peak.mjs SCRIPT ARGS...
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const out = process.env.GPUCOMM_PEAK_OUT
const script = process.argv[2]
process.argv.splice(1, 1)
process.on('exit', () => {
  const u = process.resourceUsage()
  if (out) writeFileSync(out, JSON.stringify({ maxRssBytes: u.maxRSS * 1024, cpuS: (u.userCPUTime + u.systemCPUTime) / 1e6 }))
})
await import(pathToFileURL(resolve(script)).href)
