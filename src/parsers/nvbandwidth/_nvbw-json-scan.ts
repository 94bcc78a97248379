/**
 * Line-level scanning of JSON documents inside a text stream: finds where a document starts
 * and ends (so log noise around it is skipped) and on which line each matrix cell sits (so
 * rows cite their real source line).
 */

/** Most characters one JSON document may hold before it is given up (garbage must stay cheap). */
export const MAX_DOC_CHARS = 64 * 1024 * 1024

/** Collects the lines of one JSON document, tracking bracket depth outside strings. */
export class JsonDocScanner {
  readonly lines: string[] = []
  chars = 0
  private depth = 0
  private inStr = false
  private esc = false

  constructor(readonly startLine: number) {}

  /**
   * Adds a line. Returns the index just past the closing bracket when the document ends on
   * this line (the line is then kept only up to there), or -1 while it goes on. Inside a
   * string it jumps to the next quote or backslash (one regular-expression search), so a long
   * string costs no per-character loop.
   */
  push(line: string): number {
    for (let i = 0; i < line.length; i++) {
      if (this.inStr) {
        if (this.esc) {
          this.esc = false
          continue
        }
        STRING_END.lastIndex = i
        const next = STRING_END.exec(line)
        if (!next) break
        i = next.index
        if (line.charCodeAt(i) === 92 /* \ */) this.esc = true
        else this.inStr = false
        continue
      }
      const ch = line.charCodeAt(i)
      if (ch === 34 /* " */) this.inStr = true
      else if (ch === 123 /* { */ || ch === 91 /* [ */) this.depth++
      else if (ch === 125 /* } */ || ch === 93 /* ] */) {
        this.depth--
        if (this.depth <= 0) {
          this.lines.push(line.slice(0, i + 1))
          return i + 1
        }
      }
    }
    this.lines.push(line)
    this.chars += line.length + 1
    return -1
  }
}

/** What can end a run of plain characters inside a JSON string: a quote or a backslash. */
const STRING_END = /["\\]/g

/** True when a key string `"name"` opens at column i of line s (not inside a longer string). */
const keyAt = (s: string, name: string): number => s.indexOf(`"${name}"`)

/**
 * The (0-based, document-relative) lines of every cell of every `"bandwidth_matrix"` in
 * document order: result[k][row][cell]. Cells are string or number tokens at depth 2.
 */
export function matrixCellLines(lines: readonly string[]): number[][][] {
  const all: number[][][] = []
  for (let li = 0; li < lines.length; li++) {
    const at = keyAt(lines[li] as string, 'bandwidth_matrix')
    if (at >= 0) all.push(scanMatrix(lines, li, at + '"bandwidth_matrix"'.length))
  }
  return all
}

function scanMatrix(lines: readonly string[], from: number, col: number): number[][] {
  const out: number[][] = []
  let depth = 0
  let inStr = false
  let esc = false
  let inNum = false
  for (let li = from; li < lines.length; li++) {
    const s = lines[li] as string
    for (let i = li === from ? col : 0; i < s.length; i++) {
      const ch = s[i] as string
      if (inStr) {
        if (esc) esc = false
        else if (ch === '\\') esc = true
        else if (ch === '"') inStr = false
        continue
      }
      const numChar = (ch >= '0' && ch <= '9') || ch === '-' || ch === '+' || ch === '.' || ch === 'e' || ch === 'E'
      if (depth === 2 && !inNum && (ch === '"' || (ch >= '0' && ch <= '9') || ch === '-')) out[out.length - 1]?.push(li)
      inNum = depth === 2 && ch !== '"' && numChar
      if (ch === '"') inStr = true
      else if (ch === '[') {
        depth++
        if (depth === 2) out.push([])
      } else if (ch === ']') {
        depth--
        if (depth <= 0) return out
      } else if (ch === '{' || ch === '}') return out // not a matrix after all
    }
  }
  return out
}
