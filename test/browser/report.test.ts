import assert from 'node:assert/strict'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { writeReport } from '../../src/output/index.ts'
import { ROOT, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'
import { packageSkip } from '../system.ts'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
const skip = packageSkip(CHROMIUM ? false : "Debian's chromium is not installed (.ci/run installs it with apt-get)")
if (skip) console.log(`# skipping browser test: ${skip}`)

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

async function chromium(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await execa(CHROMIUM as string, [...FLAGS, `--user-data-dir=${tmp('gpucomm-chromium-')}`, ...args], {
    reject: false,
    timeout: 90_000,
  })
  return { stdout: r.stdout, stderr: r.stderr }
}

test('the report opens in headless Chromium with every chart rendered and no console message', {
  skip,
  timeout: 180_000,
}, async () => {
  const set = await simSet({ preset: 'seed-vm', seed: 7, trials: 2 })
  const base = await simSet({ preset: 'seed-vm', seed: 8, trials: 2 })
  const html = join(tmp(), 'report.html')
  await writeReport(set, { out: html, baseline: base })
  const url = pathToFileURL(html).href
  // One browser run both prints the DOM and saves the screenshot (test/output/report.png, for people).
  const outDir = join(ROOT, 'test', 'output')
  mkdirSync(outDir, { recursive: true })
  const shot = join(outDir, 'report.png')
  rmSync(shot, { force: true })
  const dom = await chromium([
    '--enable-logging=stderr',
    '--v=0',
    '--window-size=1200,2400',
    '--virtual-time-budget=15000',
    `--screenshot=${shot}`,
    '--dump-dom',
    url,
  ])
  const figures = (dom.stdout.match(/<figure class="chart"/g) ?? []).length
  assert.ok(figures >= 4, `figures: ${figures}`)
  const rendered = /data-charts-rendered="(\d+)"/.exec(dom.stdout)
  assert.ok(
    rendered,
    `charts did not finish rendering: ${/data-charts-failed="([^"]*)"/.exec(dom.stdout)?.[1] ?? 'no marker'}`,
  )
  assert.equal(Number(rendered[1]), figures)
  const svgs = (dom.stdout.match(/<svg[^>]*class="marks"/g) ?? []).length
  assert.equal(svgs, figures, 'one rendered SVG per chart')
  // The report opens with its conclusions: a summary of 3 to 5 items with numbers, before any other section.
  const first = /<section[^>]*id="([^"]+)"/.exec(dom.stdout)?.[1]
  assert.equal(first, 'summary')
  const items = [
    ...(/<ol class="summary">([\s\S]*?)<\/ol>/.exec(dom.stdout)?.[1] ?? '').matchAll(/<li>([^<]*)<\/li>/g),
  ].map((m) => m[1] ?? '')
  assert.ok(items.length >= 3 && items.length <= 5, `summary items: ${items.length}`)
  // Against a baseline the diff answers first, in the words and count of `gpucomm diff`.
  assert.match(
    items[0] ?? '',
    /^Against the baseline \S+: (Largest change|No significant change; the largest difference): /,
  )
  assert.match(items.join(' '), /Of [\d,]+ tested cells [\d,]+ are better in B, [\d,]+ worse/)
  // The floor and its mechanism from the analysis' verdicts: the fact it rests on and the band it falls in.
  const floor = items.find((l) => l.startsWith('Small copies between GPUs'))
  assert.match(
    floor ?? items.join('\n'),
    /^Small copies between GPUs cost 1[2-5](\.\d+)? µs each .*: host-staged copy through pinned host memory \(no peer access\) \(evidence: Device=\d CANNOT Access Peer Device=\d\); within the published band P2P off, host-staged .*\(\d+(\.\d+)?–\d+(\.\d+)? µs\)\.$/,
  )
  assert.match(items.join(' '), /nccl\.all_reduce on 8 GPUs starts at \d+(\.\d+)? µs \(floor α\): NCCL .*\(evidence: /)
  // The chart that answers (the change against the baseline) is in the summary, before any table.
  const summarySection = /<section id="summary">([\s\S]*?)<\/section>/.exec(dom.stdout)?.[1] ?? ''
  assert.match(summarySection, /<figure class="chart" id="fig-diff"/)
  assert.ok(dom.stdout.indexOf('id="fig-diff"') < dom.stdout.indexOf('<table'), 'the diff chart before any table')
  const consoleLines = dom.stderr.split('\n').filter((l) => /:CONSOLE[:(]/.test(l))
  assert.deepEqual(consoleLines, [], 'the page must log nothing (errors or warnings)')
  assert.ok(existsSync(shot) && statSync(shot).size > 20_000, 'screenshot saved')
})
