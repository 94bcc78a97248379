import { existsSync, readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { failed } from '../../errors/index.ts'

const FONT_DIRS = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  join(homedir(), '.fonts'),
  join(homedir(), '.local/share/fonts'),
]

/** Font files (.ttf/.otf) found in the system font folders, DejaVu first. */
export function findFontFiles(dirs: readonly string[] = FONT_DIRS): string[] {
  const found: string[] = []
  const walk = (d: string, depth: number): void => {
    if (depth > 4 || !existsSync(d)) return
    for (const e of readdirSync(d)) {
      const p = join(d, e)
      let isDir = false
      try {
        isDir = statSync(p).isDirectory()
      } catch {
        continue
      }
      if (isDir) walk(p, depth + 1)
      else if (/\.(ttf|otf)$/i.test(e)) found.push(p)
    }
  }
  for (const d of dirs) walk(d, 0)
  return found.sort((a, b) => Number(!/DejaVuSans\./.test(a)) - Number(!/DejaVuSans\./.test(b)) || a.localeCompare(b))
}

/** Like findFontFiles, but a chart without text is worse than no chart: fail clearly when none. */
export function requireFonts(dirs?: readonly string[]): string[] {
  const fonts = findFontFiles(dirs)
  if (fonts.length === 0) {
    throw failed(
      'no fonts found in the system font folders, so charts would have no text; install one ' +
        '(Debian: apt-get install fonts-dejavu-core)',
    )
  }
  return fonts
}
