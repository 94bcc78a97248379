/**
 * The import bench's reference: parse FILES as `gpucomm import` does (streamed lines, the
 * detected parser, NCCL INFO lines read too) but keep nothing and write nothing. Prints the
 * rows parsed. It runs the compiled modules of dist/ (`npm run build`), as the installed CLI
 * that the bench times does, so neither side pays for compiling TypeScript.
 * Usage: node bench/_parse-only.mjs FILE...
 */
import { readFileSync } from 'node:fs'
import { eachLine } from '../dist/importer/_lines.js'
import { NcclInfoCollector } from '../dist/nccl-log/index.js'
import { DETECT_BYTES, detectParser } from '../dist/parsers/index.js'

let rows = 0
for (const path of process.argv.slice(2)) {
  const head = readFileSync(path).subarray(0, DETECT_BYTES).toString('utf8')
  const parser = detectParser(head)
  if (!parser) throw new Error(`${path}: no parser`)
  const lp = parser.open({ file: path }, () => void rows++)
  const nccl = new NcclInfoCollector()
  await eachLine(path, (line, no) => {
    lp.line(line, no)
    nccl.line(line)
  })
  lp.end()
}
console.log(rows)
