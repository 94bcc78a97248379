/**
 * Text from a result set (set paths, group and bench names, env values, notes) placed in
 * Markdown. A set may be hostile, and Markdown passes HTML through: a `<script>` in a label
 * would run in the viewer that renders the table. So data is written as text, never markup.
 */

/**
 * `s` as the text of a table cell, list item or heading, on one line: a `<` that could open
 * an HTML tag, comment or declaration (before a letter, `/`, `!` or `?`, CommonMark's raw
 * HTML) and `|` are backslash-escaped, so they print as themselves; "p > 0.05" and
 * "n = 2 < 6" stay as written.
 */
export const mdText = (s: string): string =>
  s
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')

/** `s` as a code span: fenced by one more backtick than its longest run of them, on one line. */
export function mdCode(s: string): string {
  const one = s.replace(/[\r\n]+/g, ' ')
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((r) => r.length))
  const fence = '`'.repeat(longest + 1)
  return longest > 0 ? `${fence} ${one} ${fence}` : `${fence}${one}${fence}`
}
