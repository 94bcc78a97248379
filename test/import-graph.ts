/**
 * The folder-level import graph of a source tree, for the layering test: every relative
 * import (static, `export … from`, type-only and dynamic `import()`) between two top-level
 * folders of `src/` is an edge; an edge that does not land on the target folder's `index.ts`
 * goes around its door. Files directly in `src/` (the package entry) are outside the graph.
 * A folder of folders (src/output/) is one folder: its subfolders' doors are inside it, and
 * the rest of src/ enters it through src/output/index.ts only.
 * Specifiers are read with TypeScript's own pre-processor, so an import-looking line inside a
 * comment or a string is not taken for an import.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

export interface ImportGraph {
  /** folder → folder → the imports ("src/a/_x.ts -> src/b/index.ts") that make the edge. */
  edges: Map<string, Map<string, string[]>>
  /** Cross-folder imports that land on a file other than the target folder's index.ts. */
  bypasses: string[]
  /** The top-level folders of src/ with the number of .ts files directly inside each. */
  topLevel: Map<string, number>
}

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (/\.tsx?$/.test(name)) out.push(p)
  }
  return out
}

/** The target file of a relative specifier written in `from`, or undefined when it names no file. */
function target(from: string, spec: string): string | undefined {
  const t = resolve(dirname(from), spec)
  for (const c of [t, `${t}.ts`, join(t, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c
  return undefined
}

const tsCount = (dir: string): number => readdirSync(dir).filter((n) => /\.tsx?$/.test(n)).length
const subfolders = (dir: string): string[] => readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory())

/** The top-level folders under `src` with the number of .ts files directly inside each. */
function folders(src: string): Map<string, number> {
  return new Map(subfolders(src).map((name) => [name, tsCount(join(src, name))]))
}

/** Reads the graph of `<root>/src`. */
export function importGraph(root: string): ImportGraph {
  const src = resolve(root, 'src')
  const topLevel = folders(src)
  const folderOf = (f: string): string | undefined => {
    const parts = relative(src, f).split(sep)
    return parts.length > 1 ? parts[0] : undefined
  }
  const edges = new Map<string, Map<string, string[]>>()
  const bypasses: string[] = []
  for (const file of walk(src, [])) {
    const a = folderOf(file)
    if (a === undefined) continue
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName: spec } of importedFiles) {
      if (!spec.startsWith('.')) continue
      const to = target(file, spec)
      if (to === undefined || !to.startsWith(src + sep)) continue
      const b = folderOf(to)
      if (b === undefined || b === a) continue
      const line = `${relative(root, file)} -> ${relative(root, to)}`
      const out = edges.get(a) ?? new Map<string, string[]>()
      out.set(b, [...(out.get(b) ?? []), line])
      edges.set(a, out)
      if (to !== join(src, b, 'index.ts')) bypasses.push(line)
    }
  }
  return { edges, bypasses, topLevel }
}

/** The groups of folders that import each other round a cycle (strongly connected, two or more), sorted. */
export function folderCycles(edges: ImportGraph['edges']): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v) as number)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop() as string
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1) groups.push(group.sort())
  }
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v)
  return groups.sort((x, y) => (x[0] as string).localeCompare(y[0] as string))
}
