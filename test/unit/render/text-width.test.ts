/**
 * Charts are laid out with the widths of the font resvg draws them with (issue 32: vega's
 * no-canvas estimate of 0.8 em per character left an ~850 px empty band left of the diff chart's
 * row labels). The measure is checked against what resvg actually draws, not against itself.
 */
import assert from 'node:assert/strict'
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { chartFaces, diffChart, findFontFiles, renderChart, svgToPng, textWidthFor } from '../../../src/output/index.ts'
import { tmp } from '../../helpers.ts'
import { pngInfo } from '../../png.ts'
import { packageSkip } from '../../system.ts'

const fonts = findFontFiles()
const skip = packageSkip(fonts.length === 0 && 'no system fonts (Debian: fonts-dejavu-core)')

/** Where resvg draws the ink of `text` (100 px, anchored at its end at x = 3900) starts. */
async function inkLeft(text: string, bold: boolean): Promise<number> {
  const weight = bold ? ' font-weight="bold"' : ''
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="150">' +
    `<text x="3900" y="120" font-size="100" font-family="DejaVu Sans"${weight} text-anchor="end">${text}</text></svg>`
  const ink = pngInfo(await svgToPng(svg, { scale: 1 })).ink
  assert.ok(ink, `nothing drawn for ${text}`)
  return ink.x1
}

/** The advance resvg gives `text` at 100 px: "H" + text anchored at its end starts that much further left than "H". */
async function drawnWidth(text: string, bold = false): Promise<number> {
  return (await inkLeft('H', bold)) - (await inkLeft(`H${text}`, bold))
}

const STRINGS = ['mmmm', 'iiii', '13.7 µs', 'latency · 24 cross-GPU pairs (PHB → NODE)', 'p2p=enabled copy=ce']

test('text widths are the drawn font’s: each string within 1 % (+2 px) of what resvg draws at 100 px', {
  skip,
}, async () => {
  const width = await textWidthFor()
  for (const bold of [false, true]) {
    for (const s of STRINGS) {
      const measured = width({ fontSize: 100, fontWeight: bold ? 'bold' : 'normal' }, s)
      const drawn = await drawnWidth(s, bold)
      assert.ok(
        Math.abs(measured - drawn) <= 2 + 0.01 * drawn,
        `${bold ? 'bold ' : ''}"${s}": ${measured} vs drawn ${drawn}`,
      )
    }
  }
  // The font's own proportions, which 0.8 em per character cannot tell apart.
  const m = width({ fontSize: 100 }, 'mmmm')
  const i = width({ fontSize: 100 }, 'iiii')
  assert.ok(m / i > 3, `mmmm ${m} px, iiii ${i} px`)
  assert.ok(Math.abs(m / i - (await drawnWidth('mmmm')) / (await drawnWidth('iiii'))) < 0.1)
})

test('bold text is measured with the bold face when the folder has one, else with the regular face', {
  skip,
}, async () => {
  const both = await textWidthFor()
  const regular = both({ fontSize: 100 }, 'mmmm')
  assert.ok(both({ fontSize: 100, fontWeight: 700 }, 'mmmm') > regular * 1.03, 'bold is wider in DejaVu Sans')
  const onlyRegular = tmp()
  copyFileSync(fonts[0] as string, join(onlyRegular, 'DejaVuSans.ttf'))
  assert.equal(chartFaces([onlyRegular])?.bold, undefined)
  const single = await textWidthFor([onlyRegular])
  assert.equal(single({ fontSize: 100, fontWeight: 'bold' }, 'mmmm'), regular)
})

test('with no usable font the measure is vega’s own estimate (0.8 em per character)', async () => {
  const empty = tmp()
  assert.equal((await textWidthFor([empty]))({ fontSize: 10 }, 'abcde'), 40)
  const broken = tmp()
  writeFileSync(join(broken, 'Broken.ttf'), 'not a font')
  assert.equal(chartFaces([broken]), null)
  assert.equal((await textWidthFor([broken]))({ fontSize: 10 }, 'abcde'), 40)
})

test('a diff chart’s row-label column is as wide as its longest label plus padding, no empty band', {
  skip,
}, async () => {
  const bars = [14, 1.1, -0.2, -0.97].map((delta, i) => ({
    label: `latency · ${24 + i} cross-GPU pairs (PHB → NODE) · p2p=enabled copy=ce · 8 B · peer access: no → yes`,
    delta,
    verdict: delta < 0 ? ('faster' as const) : ('slower' as const),
    significant: 1,
    cells: 1,
  }))
  const spec = diffChart(bars, { simulated: true }, { a: 'vm', b: 'bm', total: 4 })
  const { png, svg } = await renderChart(spec, { scale: 1 })
  const info = pngInfo(png)
  // The plot group is translated right by the width reserved for the row labels.
  const plotLeft = Number(/<g fill="none"[^>]*transform="translate\(([\d.]+),/.exec(svg)?.[1])
  assert.ok(plotLeft > 0, 'no plot group in the SVG')
  const label = new RegExp(`font-size="([\\d.]+)px"[^>]*>${bars[0]?.label.replace(/[()]/g, '\\$&')}<`).exec(svg)
  assert.ok(label, 'the first row label is not drawn whole')
  const longest = (await textWidthFor())({ fontSize: Number(label[1]) }, bars[0]?.label)
  assert.ok(info.ink && info.ink.x1 <= 12, `empty band: ink starts at x = ${info.ink?.x1}`)
  assert.ok(plotLeft <= longest + 30, `label column ${plotLeft} px for a ${longest.toFixed(0)} px label`)
})
