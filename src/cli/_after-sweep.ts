/**
 * What `gpucomm sweep` does once its points are written: the analysis (whose answer opens the
 * closing summary) and the HTML report beside the set, each showing its progress on stderr.
 */
import { stagesFor } from './_stages.ts'
import type { SweepIo } from './_sweep-flow.ts'

/** The question a sweep answers and the analysis' answer to it (numbers and mechanism). */
export interface SweepAnswer {
  question: string
  answer: string[]
  /** Each class's floor against its published band (analysis bandLines). */
  bands: string[]
}

/** Analyzes the swept set (progress on stderr) and returns its answer. */
export async function analyzeAfterSweep(dir: string, io: SweepIo): Promise<SweepAnswer> {
  const progress = stagesFor('analysis', { stderr: io.stderr, isTTY: io.tty !== undefined })
  try {
    progress.stage('fitting every pair and group', 0, 1)
    const { analysisAnswer, analyze, bandLines } = await import('../analysis/index.ts')
    const analysis = await analyze(dir)
    const a = analysisAnswer(analysis)
    progress.done()
    return { question: a.question, answer: a.answer, bands: bandLines(analysis) }
  } catch (e) {
    progress.stop()
    throw e
  }
}

/** Writes DIR/report.html (progress on stderr, step by step) and returns its path. */
export async function reportAfterSweep(dir: string, io: SweepIo): Promise<string> {
  const progress = stagesFor('report', { stderr: io.stderr, isTTY: io.tty !== undefined })
  try {
    const { writeReport } = await import('../output/index.ts')
    const { join } = await import('node:path')
    const path = await writeReport(dir, { out: join(dir, 'report.html'), onStage: progress.stage })
    progress.done()
    return path
  } catch (e) {
    progress.stop()
    throw e
  }
}
