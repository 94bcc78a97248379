/**
 * nccl-tests text lines that are neither `#` metadata nor table rows: the v1.0 banner and
 * footer, NCCL's own INFO/WARN lines, test failures, and the command line that launched a run.
 */

import { COLLECTIVES } from './_nccl-collective.ts'
import type { LaunchFacts } from './_nccl-command.ts'
import { launchFacts } from './_nccl-command.ts'
import { classifyFailure, ncclLineFacts, parseBanner } from './_nccl-meta.ts'
import type { Run } from './_nccl-run.ts'
import type { CommentTarget } from './_nccl-text-rows.ts'
import { collectiveInText } from './_nccl-tokens.ts'

/** What lines before a run said of it, given to the run when it starts. */
export interface NextRun {
  /** The collective a command line named. */
  command?: string
  /** Launch facts of a command line seen before the run it starts. */
  launch?: LaunchFacts
  /** NCCL's nranks from its INFO lines. */
  nranksInfo?: number
}

/** The text parser, as these lines see it. */
export interface OtherTarget extends CommentTarget {
  next: NextRun
  /** A banner line of order 0 (version), 1 (test starting) or 2 (nThread). */
  banner(order: number, no: number): Run
  footerLine(no: number, which: 'oob' | 'avg', t: string[]): void
  name(run: Run, c: string, from: 'banner' | 'command', no: number): void
}

/** Lines that are neither `#` metadata nor rows: v1.0 banner/footer, NCCL lines, failures, commands. */
export function otherLine(p: OtherTarget, s: string, t: string[], no: number): void {
  const w0 = t[0] as string
  if (w0 === 'nThread' && t[1] !== undefined) p.banner(2, no).params = parseBanner(t)
  else if (w0 === 'Out' && t[1] === 'of' && t[2] === 'bounds') p.footerLine(no, 'oob', t)
  else if (s.indexOf(' NCCL ') !== -1 && (s.indexOf('NCCL INFO') !== -1 || s.indexOf('NCCL WARN') !== -1))
    ncclLine(p, s, t)
  else if (w0 === 'NCCL' && t[1] === 'version' && t[2] !== undefined) p.file.nccl ??= t[2]
  else if (s.indexOf('Test ') !== -1 && /Test (?:CUDA |NCCL )?failure|Test timeout/.test(s)) failure(p, s, no)
  else if (s.indexOf('_perf') !== -1) commandLine(p, s)
}

function ncclLine(p: OtherTarget, s: string, t: string[]): void {
  const f = ncclLineFacts(s, t)
  if (f.warning) p.file.ncclWarnings = ((p.file.ncclWarnings as number | undefined) ?? 0) + 1
  if (f.version) p.file.nccl ??= f.version
  if (f.nranks === undefined) return
  if (p.run && !p.run.footer) p.run.nranksInfo ??= f.nranks
  else p.next.nranksInfo ??= f.nranks
}

function failure(p: OtherTarget, s: string, no: number): void {
  const f = classifyFailure(s)
  p.file[f.key] = ((p.file[f.key] as number | undefined) ?? 0) + 1
  p.note(no, f.severity, f.code, f.text)
}

function commandLine(p: OtherTarget, s: string): void {
  const r = p.run
  const f = launchFacts(s)
  const facts = f && (f.ranks !== undefined || f.env) ? f : undefined
  if (facts && r && !r.started && !r.launch) r.launch = facts
  else if (facts) p.next.launch = facts
  const c = collectiveInText(s, COLLECTIVES)
  if (c === undefined) return
  const assumed = r?.collectiveFrom === 'option' || r?.collectiveFrom === 'file-name'
  if (r && !r.started && (r.collective === undefined || assumed)) p.name(r, c, 'command', r.lastLine)
  else p.next.command = c
}
