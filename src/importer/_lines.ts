import { createReadStream } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

/**
 * Streams a file (or a buffer) as lines without terminators (CR of CRLF removed), calling
 * `onChunk` with the raw bytes first (for hashing and copying). Faster than readline.
 */
export async function eachLine(
  input: string | Buffer,
  onLine: (line: string, lineNo: number) => void,
  onChunk: (chunk: Buffer) => void = () => {},
  afterChunk?: () => Promise<void>,
): Promise<number> {
  const decoder = new StringDecoder('utf8')
  let rest = ''
  let lineNo = 0
  const feed = (text: string): void => {
    let start = 0
    let data = rest + text
    let nl = data.indexOf('\n', start)
    while (nl !== -1) {
      let end = nl
      if (end > start && data.charCodeAt(end - 1) === 13) end--
      onLine(data.slice(start, end), ++lineNo)
      start = nl + 1
      nl = data.indexOf('\n', start)
    }
    rest = data.slice(start)
    data = ''
  }
  if (typeof input === 'string') {
    for await (const chunk of createReadStream(input, { highWaterMark: 1 << 20 })) {
      onChunk(chunk as Buffer)
      feed(decoder.write(chunk as Buffer))
      if (afterChunk) await afterChunk()
    }
  } else {
    onChunk(input)
    feed(decoder.write(input))
  }
  feed(decoder.end())
  if (rest !== '') {
    const last = rest.endsWith('\r') ? rest.slice(0, -1) : rest
    onLine(last, ++lineNo)
  }
  return lineNo
}
