import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: unknown): string {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )
}

/**
 * HTML made by `html` (or the helpers below): the only kind of text that is written into the
 * page unescaped. Every other value interpolated into `html` is escaped, so escaping does not
 * depend on remembering it at each call.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

/** One interpolated value: Html as is, arrays joined, anything else escaped. */
const piece = (v: unknown): string =>
  v instanceof Html ? v.text : Array.isArray(v) ? v.map(piece).join('') : v === undefined ? '' : escapeHtml(v)

/** The one templating path of the report: html`<h3>${name}</h3>${table}` escapes `name`, keeps `table`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + (strings[i + 1] as string)
  return new Html(out)
}

/** JSON safe inside a <script> element: no `<`, so no `</script>` and no `<!--`. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** A block of the report: a heading and its body, built with `html`/`table`/`list`. */
export interface Section {
  id: string
  title: string
  body: Html
  /** Charts drawn after the body. */
  charts?: ReportChart[]
  /** Charts after those, collapsed under a summary line (drawn when opened). */
  folded?: { summary: string; charts: ReportChart[] }
}

/** A chart of the report: a vega-lite spec rendered in the page by vega-embed. */
export interface ReportChart {
  id: string
  title: string
  spec: object
  caption?: string
}

/** Everything the page shows. Every string is escaped when the page is written. */
export interface ReportPage {
  title: string
  simulated: boolean
  sections: Section[]
  generated: string
}

/** A table; every header and cell escaped. */
export function table(header: readonly unknown[], rows: readonly (readonly unknown[])[], cls = ''): Html {
  const trs = rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>\n`)
  return html`<table class="${cls}"><thead><tr>${header.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>\n${trs}</tbody></table>`
}

/** Paragraphs or list items from plain strings, escaped. */
export const paragraphs = (lines: readonly unknown[]): Html => html`${lines.map((l) => html`<p>${l}</p>\n`)}`
export const list = (items: readonly unknown[]): Html => html`<ul>${items.map((l) => html`<li>${l}</li>`)}</ul>`
/** A collapsed block: an escaped summary line over a body. */
export const details = (summary: unknown, body: Html): Html =>
  html`<details><summary>${summary}</summary>${body}</details>`

/** Finds node_modules/<pkg>/<file> above this module (the bundles are not in the packages' exports). */
function packageFile(pkg: string, file: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const p = join(dir, 'node_modules', pkg, file)
    if (existsSync(p)) return p
    if (dirname(dir) === dir) throw new Error(`cannot find ${pkg}/${file} in node_modules (run npm ci)`)
  }
}

function bundle(pkg: string, file: string): string {
  const text = readFileSync(packageFile(pkg, file), 'utf8')
  // A bundle never contains a literal closing script tag; guard anyway.
  return text.replace(/<\/script/gi, '<\\/script')
}

const CSS =
  `body{font-family:"DejaVu Sans",system-ui,sans-serif;margin:2em ` +
  `auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px ` +
  `solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em ` +
  `0;font-size:.9em}td,th{border:1px solid #ddd;padding:.25em ` +
  `.6em;text-align:left}
th{background:#f4f4f4}.sim{background:#b00020;color:#fff;padding:.4em ` +
  `.8em;font-weight:bold;border-radius:4px}
.chart{margin:1em 0}details{margin:.6em ` +
  `0}summary{cursor:pointer;color:#0645ad}.caption{color:#555;font-size:.9em}code{background:#f4f4f4;padding:0 ` +
  `.2em}`

/** Writes the whole page: one self-contained HTML file (vega bundles inlined, no network). */
export function renderHtml(page: ReportPage): string {
  const figure = (c: ReportChart): Html => {
    const caption = c.caption ? html` <span class="caption">${c.caption}</span>` : ''
    const vis = html`<div class="vis" data-chart="${c.id}"></div>`
    return html`<figure class="chart" id="fig-${c.id}"><figcaption><b>${c.title}</b>${caption}</figcaption>${vis}</figure>\n`
  }
  const sections = page.sections.map(
    (s) =>
      html`<section id="${s.id}"><h2>${s.title}</h2>\n${s.body}\n${(s.charts ?? []).map(figure)}${
        s.folded ? details(s.folded.summary, html`${s.folded.charts.map(figure)}`) : ''
      }</section>\n`,
  )
  const all = page.sections.flatMap((s) => [...(s.charts ?? []), ...(s.folded?.charts ?? [])])
  const specs = Object.fromEntries(all.map((c) => [c.id, c.spec]))
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>` +
    `${escapeHtml(page.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>` +
    `${CSS}</style></head><body>
<h1>${escapeHtml(page.title)}</h1>
` +
    `${page.simulated ? '<p class="sim">SIMULATED DATA: these numbers come from gpucomm\'s simulator, not from a GPU.</p>' : ''}
<p class="caption">Generated by gpucomm on ` +
    `${escapeHtml(page.generated)}.</p>
${html`${sections}`.text}
<script>` +
    `${bundle('vega', 'build/vega.min.js')}</script>
<script>` +
    `${bundle('vega-lite', 'build/vega-lite.min.js')}</script>
<script>` +
    `${bundle('vega-embed', 'build/vega-embed.min.js')}</script>
<script type="application/json" id="gpucomm-specs">` +
    `${scriptJson(specs)}</script>
<script>
(function () {
  var specs = ` +
    `JSON.parse(document.getElementById('gpucomm-specs').textContent);
  var nodes = ` +
    `document.querySelectorAll('div.vis[data-chart]');
  var jobs = [];
  ` +
    `nodes.forEach(function (el) {
    jobs.push(vegaEmbed(el, ` +
    `specs[el.getAttribute('data-chart')], { renderer: 'svg', actions: false }));
  });
  ` +
    `Promise.all(jobs).then(function () { document.body.setAttribute('data-charts-rendered', ` +
    `String(jobs.length)); },
    function (e) { console.error('chart failed: ' + e); ` +
    `document.body.setAttribute('data-charts-failed', String(e)); ` +
    `});
})();
</script>
</body></html>
`
  )
}
