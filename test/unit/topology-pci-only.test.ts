/**
 * Issue 30 item 6: `nvidia-smi topo -mp` (PCIe paths only, NVLink hidden). A generated variant
 * of the real 8 × A100 NV12 topo -m fixture: the command line made `topo -mp` and the NV12 cells
 * replaced by the PCIe path SYS. The matrix is recognised, a finding says NVLink is not shown,
 * and no pair gets a link class from it.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { captureTopology } from '../../src/topology/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const A100 = join(FIXTURES, 'nvidia-smi-topo-m', 'ml-engineering-8x-a100-nv12-compact-spacing.txt')

test('a generated topo -mp of the A100 NV12 fixture: recognised from its command line, NVLink not shown, no pair called PCIe', async () => {
  const text = readFileSync(A100, 'utf8').replace('nvidia-smi topo -m', 'nvidia-smi topo -mp').replace(/NV12/g, 'SYS ')
  const dir = tmp('gpucomm-topo-mp-')
  const file = join(dir, 'generated-a100-topo-mp.txt')
  writeFileSync(file, text)
  const r = await captureTopology(join(dir, 'topology'), { inputs: [file] })
  assert.equal(r.pairs.length, 28)
  for (const p of r.pairs) {
    assert.equal(p.link, undefined, `${p.a}-${p.b}`)
    assert.equal(p.pciPath, 'SYS')
    assert.match(p.expected?.why ?? '', /if the pair has no NVLink/)
  }
  const f = r.findings.find((x) => x.id === 'pci-only-matrix')
  assert.ok(f, r.findings.map((x) => x.id).join())
  assert.match(f.message, /NVLink is not shown/)
  // The real topo -m keeps its NV12 link classes and gets no such finding.
  const full = await captureTopology(join(tmp('gpucomm-topo-m-'), 'topology'), { inputs: [A100] })
  assert.ok(full.pairs.every((p) => p.link === 'NV12'))
  assert.ok(!full.findings.some((x) => x.id === 'pci-only-matrix'))
})
