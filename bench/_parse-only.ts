/**
 * The import bench's reference: parse FILES as `gpucomm import` does (streamed lines, the
 * detected parser, NCCL INFO lines read too) but keep nothing and write nothing. Prints the
 * rows parsed. Usage: node --import tsx bench/_parse-only.ts FILE...
 */
import { readFileSync } from 'node:fs'
import { eachLine } from '../src/importer/_lines.ts'
import { NcclInfoCollector } from '../src/nccl-log/index.ts'
import { DETECT_BYTES, detectParser } from '../src/parsers/index.ts'

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
