import { lstatSync, rmSync } from 'node:fs'

/**
 * Removes a symbolic link planted at any of `paths` inside a set (a set may be hostile): the
 * writer then makes a real folder or file there instead of writing through the link.
 */
export function dropPlantedLinks(...paths: readonly string[]): void {
  for (const p of paths) {
    let link = false
    try {
      link = lstatSync(p).isSymbolicLink()
    } catch {
      continue // nothing there
    }
    if (link) rmSync(p)
  }
}
