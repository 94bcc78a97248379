/**
 * Generated nccl-tests corpora (never committed): the real runs of test/fixtures/nccl-tests
 * (banners, rank lines, MPI noise, failures, log tails) repeated into large logs in the OS
 * temp dir. Every generated file is named `generated-…`.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Parser } from '../src/parsers/index.ts'
import { DETECT_BYTES, detectParser } from '../src/parsers/index.ts'
import { ROOT } from './_util.ts'

const FIXTURES = join(ROOT, 'test', 'fixtures')

/** Every tool-output fixture file (not the .source.txt beside it, nor the generated result sets), with the parser that detects it. */
export function fixtures(): { path: string; text: string; parser: Parser | undefined }[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((e) => (statSync(join(d, e)).isDirectory() ? walk(join(d, e)) : [join(d, e)]))
  return walk(FIXTURES)
    .filter((p) => !p.endsWith('.source.txt') && !p.includes(`${join('fixtures', 'resultset-v1')}`))
    .sort()
    .map((path) => {
      const text = readFileSync(path, 'utf8')
      return { path, text, parser: detectParser(text.slice(0, DETECT_BYTES)) }
    })
}

/** Repeats `parts` (whole files, each ending in a newline), starting at `first`, until the text has `bytes` bytes. */
export function repeatTo(parts: readonly string[], bytes: number, first = 0): string {
  const out: string[] = []
  let n = 0
  for (let i = first; n < bytes; i++) {
    const p = parts[i % parts.length] as string
    const t = p.endsWith('\n') ? p : `${p}\n`
    out.push(t)
    n += Buffer.byteLength(t)
  }
  return out.join('')
}

/** The text of every real nccl-tests text fixture. */
export const ncclRuns = (): string[] =>
  fixtures()
    .filter((f) => f.parser?.id === 'nccl-tests-text')
    .map((f) => f.text)

/**
 * Writes `files` generated nccl-tests logs of `bytes / files` bytes each into a new temp
 * directory (each starts at a different run, so the files differ); returns their paths.
 */
export function writeCorpus(bytes: number, files: number): { dir: string; paths: string[]; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'gpucomm-corpus-'))
  const runs = ncclRuns()
  const paths: string[] = []
  let total = 0
  for (let k = 0; k < files; k++) {
    const path = join(dir, `generated-nccl-tests-${k}.log`)
    const text = repeatTo(runs, bytes / files, k)
    writeFileSync(path, text)
    total += Buffer.byteLength(text)
    paths.push(path)
  }
  return { dir, paths, bytes: total }
}
