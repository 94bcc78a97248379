import assert from 'node:assert/strict'
import { test } from 'node:test'
import { findFontFiles, renderChart, svgToPng } from '../../../src/output/index.ts'
import { tmp } from '../../helpers.ts'
import { pngInfo } from '../../png.ts'
import { packageSkip } from '../../system.ts'

const fonts = findFontFiles()
const skip = packageSkip(fonts.length === 0 && 'no system fonts (Debian: fonts-dejavu-core)')
if (skip) console.log(`# skipping render tests: ${skip}`)

test('a vega-lite chart renders to SVG with its title and to a non-blank PNG', { skip }, async () => {
  const c = await renderChart({
    title: 'SIMULATED latency',
    data: {
      values: [
        { x: 8, y: 13.7 },
        { x: 1024, y: 14.1 },
        { x: 65536, y: 19.9 },
      ],
    },
    mark: 'line',
    encoding: {
      x: { field: 'x', type: 'quantitative', scale: { type: 'log' } },
      y: { field: 'y', type: 'quantitative' },
    },
  })
  assert.match(c.svg, /<svg[^>]*width="\d+"/)
  assert.match(c.svg, /SIMULATED latency/)
  const info = pngInfo(c.png)
  assert.ok(info.width > 300 && info.height > 300, `size ${info.width}x${info.height}`)
  assert.ok(info.inkFraction > 0.02 && info.inkFraction < 0.6, `ink ${info.inkFraction}`)
})

test('text is drawn: an SVG of only text rasterizes to ink, and a blank one does not', { skip }, async () => {
  const text =
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="5" y="30" font-size="24" font-family="DejaVu Sans">13.7 µs</text></svg>'
  const blank = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"></svg>'
  assert.ok(pngInfo(await svgToPng(text)).inkFraction > 0.02)
  assert.equal(pngInfo(await svgToPng(blank)).inkFraction, 0)
})

test('without any font the PNG step fails with a clear message instead of drawing no text', async () => {
  await assert.rejects(
    svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', { fontDirs: [tmp()] }),
    /no fonts found.*fonts-dejavu-core/,
  )
})
