/**
 * Imports flow one way (issue 33): no two folders of src/ import each other round a cycle,
 * and a folder is entered only through its index.ts. The graph is read by test/import-graph.ts;
 * the hand-made trees below show that it sees a cycle (also through type-only and dynamic
 * imports) and a door bypass, treats a folder of folders (src/output/) as one folder,
 * and ignores what only looks like an import.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { folderCycles, importGraph } from '../import-graph.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** Writes `files` (path under src/ → text) into a fresh directory and reads its graph. */
function graphOf(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'gpucomm-layers-'))
  try {
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, 'src', p)), { recursive: true })
      writeFileSync(join(root, 'src', p), text)
    }
    return importGraph(root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

test('src/: no cross-folder cycle, no import around a door', () => {
  const g = importGraph(ROOT)
  assert.ok(g.edges.size > 20, `the graph of src/ was read (${g.edges.size} folders import others)`)
  const cycles = folderCycles(g.edges).map((c) => {
    const why = c.flatMap((a) => c.flatMap((b) => g.edges.get(a)?.get(b) ?? []))
    return `${c.join(' <-> ')}\n    ${why.join('\n    ')}`
  })
  assert.deepEqual(cycles, [], `folders that import each other:\n  ${cycles.join('\n  ')}`)
  assert.deepEqual(g.bypasses, [], `imports around a folder's index.ts:\n  ${g.bypasses.join('\n  ')}`)
})

test('src/: no folder holds more than 15 files at its top level', () => {
  const big = [...importGraph(ROOT).topLevel].filter(([, n]) => n > 15).map(([d, n]) => `src/${d}/ ${n} files`)
  assert.deepEqual(big, [])
})

test('a cycle through a type-only import and a dynamic import is found, with the folders in it', () => {
  const g = graphOf({
    'a/index.ts': "export { x } from './_x.ts'\n",
    'a/_x.ts': "import type { Y } from '../b/index.ts'\nexport const x = (y: Y) => y\n",
    'b/index.ts': "export type Y = number\nexport const load = () => import('../c/index.ts')\n",
    'c/index.ts': "import { x } from '../a/index.ts'\nexport const z = x\n",
    'd/index.ts': "import { x } from '../a/index.ts'\nexport const w = x\n",
  })
  assert.deepEqual(folderCycles(g.edges), [['a', 'b', 'c']])
  assert.deepEqual(g.bypasses, [])
})

test("an import of another folder's inner file is a bypass, even without a cycle; its own folder's files are not", () => {
  const g = graphOf({
    'a/index.ts': "export { x } from './_x.ts'\n",
    'a/_x.ts': 'export const x = 1\n',
    'b/index.ts': "import { x } from '../a/_x.ts'\nimport { y } from './inner/_y.ts'\nexport const z = x + y\n",
    'b/inner/_y.ts': 'export const y = 2\n',
    'index.ts': "export { x } from './a/_x.ts'\n",
  })
  assert.deepEqual(folderCycles(g.edges), [])
  assert.deepEqual(g.bypasses, ['src/b/index.ts -> src/a/_x.ts'])
  assert.deepEqual(
    [...g.topLevel],
    [
      ['a', 2],
      ['b', 1],
    ],
  )
})

test('a folder of folders is one folder: only its own index.ts is its door, and its subfolders import each other freely', () => {
  const g = graphOf({
    'a/index.ts': "import { t } from '../g/text/index.ts'\nexport const a = t\n",
    'g/index.ts': "export { t } from './text/index.ts'\nexport { c } from './charts/index.ts'\n",
    'g/text/index.ts': "export { t } from './_t.ts'\n",
    'g/text/_t.ts': 'export const t = 1\n',
    'g/charts/index.ts':
      "import { a } from '../../a/index.ts'\nimport { t } from '../text/_t.ts'\nexport const c = a + t\n",
  })
  // a enters g through a subfolder's door: around g's door, and a round trip a -> g -> a.
  assert.deepEqual(folderCycles(g.edges), [['a', 'g']])
  assert.deepEqual(g.bypasses, ['src/a/index.ts -> src/g/text/index.ts'])
  assert.deepEqual(
    [...g.topLevel],
    [
      ['a', 1],
      ['g', 1],
    ],
  )
})

test('import-looking text in comments and strings is no import', () => {
  const g = graphOf({
    'a/index.ts': "// import { y } from '../b/index.ts'\nexport const s = \"from '../b/_y.ts'\"\n",
    'b/index.ts': "import { s } from '../a/index.ts'\nexport const y = s\n",
  })
  assert.deepEqual(folderCycles(g.edges), [])
  assert.deepEqual(g.bypasses, [])
  assert.deepEqual([...(g.edges.get('b') ?? [])], [['a', ['src/b/index.ts -> src/a/index.ts']]])
})
