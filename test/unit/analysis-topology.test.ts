/**
 * A result set's topology for the analysis (src/analysis/_topology.ts): the view over a
 * `gpucomm topo --json` report (link classes either way round, the worst `topo -p2p` status,
 * the hypervisor verdict, CPU vendor, GPU name and count) and where loadTopology finds it, with
 * the note a user reads when it cannot. Reports are hand-made.
 */
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadTopology, viewOfReport } from '../../src/analysis/_topology.ts'
import type { Manifest } from '../../src/model/index.ts'
import { writeSimTopology } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'

const report: Parameters<typeof viewOfReport>[0] = {
  pairs: [
    { a: 0, b: 1, link: 'PIX', p2p: { read: 'OK', write: 'OK' } },
    { a: 2, b: 0, link: 'SYS', p2p: { read: 'OK', write: 'NS', atomics: 'CNS' } },
    { a: 1, b: 2, link: 'NODE', p2p: { read: 'CNS', write: 'OK' } },
    { a: 0, b: 3 },
  ],
  gpus: [{}, { name: 'NVIDIA L40S' }, { name: 'other' }],
  hypervisor: { detected: true, kind: 'kvm', from: ['dmi: QEMU', 'cpuid'] },
  cpuVendor: 'AMD',
}

test('a report as a view: link classes either way round, the worst P2P status, VM, CPU, GPU name and count', () => {
  const v = viewOfReport(report, 'set/topology')
  assert.ok(v)
  assert.equal(v.source, 'set/topology')
  assert.deepEqual(
    [v.linkClass(0, 1), v.linkClass(1, 0), v.linkClass(0, 2), v.linkClass(2, 1)],
    ['PIX', 'PIX', 'SYS', 'NODE'],
  )
  assert.equal(v.linkClass(0, 3), undefined)
  assert.deepEqual(v.classes, ['NODE', 'PIX', 'SYS'])
  const src = 'set/topology (nvidia-smi topo -p2p)'
  assert.deepEqual(v.p2pStatus?.(1, 0), { value: 'OK', source: src })
  assert.deepEqual(v.p2pStatus?.(0, 2), { value: 'NS', source: src })
  assert.deepEqual(v.p2pStatus?.(2, 1), { value: 'CNS', source: src })
  assert.equal(v.p2pStatus?.(0, 3), undefined)
  assert.deepEqual(v.vm, { value: true, source: 'set/topology (dmi: QEMU; cpuid)' })
  assert.deepEqual(v.cpuVendor, { value: 'AMD', source: 'set/topology' })
  assert.deepEqual(v.gpuName, { value: 'NVIDIA L40S', source: 'set/topology' })
  assert.equal(v.gpus, 3)
})

test('the view without the optional parts; no link class at all is no view', () => {
  const bare = viewOfReport({ pairs: [{ a: 0, b: 1, link: 'NV18' }] }, 'm')
  assert.ok(bare)
  assert.deepEqual(Object.keys(bare).sort(), ['classes', 'linkClass', 'p2pStatus', 'source'])
  // Bare metal seen: a VM verdict of false; a check that found nothing says so.
  assert.deepEqual(viewOfReport({ ...report, hypervisor: { kind: 'none' } }, 'm')?.vm, {
    value: false,
    source: 'm (hypervisor check)',
  })
  assert.equal(viewOfReport({ ...report, hypervisor: { detected: false } }, 'm')?.vm, undefined)
  assert.equal(viewOfReport({ ...report, gpus: [{}] }, 'm')?.gpuName, undefined)
  assert.equal(viewOfReport({ ...report, gpus: [] }, 'm')?.gpus, undefined)
  assert.equal(viewOfReport({ pairs: [{ a: 0, b: 1 }] }, 'm'), null)
  assert.equal(viewOfReport({}, 'm'), null)
})

const manifest = (topology?: unknown) => ({ extra: topology ? { topology } : {} }) as unknown as Manifest

test("loadTopology: the manifest's report, none, or an unreadable capture with the manifest behind it", async () => {
  const dir = tmp('gpucomm-topology-')
  const embedded = await loadTopology(dir, manifest(report))
  assert.equal(embedded.note, 'pairs aggregated by link class')
  assert.equal(embedded.view?.source, 'manifest.json extra.topology')
  assert.equal(embedded.view?.linkClass(1, 0), 'PIX')
  assert.deepEqual(await loadTopology(dir, manifest()), {
    view: null,
    note: 'no topology capture in the set: pairs aggregated as one class',
  })
  assert.deepEqual(await loadTopology(dir, manifest({ pairs: [] })), {
    view: null,
    note: 'no topology capture in the set: pairs aggregated as one class',
  })
  // An empty capture folder names no link classes: the manifest's report, or a note naming it.
  mkdirSync(join(dir, 'topology'))
  const behind = await loadTopology(dir, manifest(report))
  assert.equal(behind.view?.source, 'manifest.json extra.topology')
  assert.equal(behind.note, 'pairs aggregated by link class')
  const none = await loadTopology(dir, manifest())
  assert.equal(none.view, null)
  assert.match(none.note, /^topology capture .*topology could not be read \(.+\): pairs aggregated as one class$/)
})

test('loadTopology from a capture (SIMULATED, written by the simulator): its link classes; one GPU has none', async () => {
  const dir = tmp('gpucomm-topology-')
  await writeSimTopology(join(dir, 'topology'), 'baremetal-turin')
  const t = await loadTopology(dir, manifest({ pairs: [{ a: 0, b: 1, link: 'PIX' }] }))
  assert.equal(t.note, 'pairs aggregated by link class')
  assert.equal(t.view?.source, join(dir, 'topology'))
  // Two sockets of four GPUs: NODE within one, SYS across (not the manifest's PIX).
  assert.deepEqual(
    [t.view?.classes, t.view?.linkClass(0, 1), t.view?.linkClass(0, 7), t.view?.gpus],
    [['NODE', 'SYS'], 'NODE', 'SYS', 8],
  )
  const one = tmp('gpucomm-topology-')
  await writeSimTopology(join(one, 'topology'), 'baremetal-turin', [0])
  assert.deepEqual(await loadTopology(one, manifest(report)), {
    view: null,
    note: 'one GPU in the topology capture: no links between GPUs',
  })
})
