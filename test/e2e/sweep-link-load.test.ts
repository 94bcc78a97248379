/**
 * The sweep's own under-load link reading: during its first bandwidth point it reads the
 * GPUs' links (a GENERATED stand-in sysfs root here, or the simulator's model of the preset's
 * link) and records the highest reading; the set's topology then judges the link speed from
 * it and says it did. A small-size sweep takes no reading.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { UnderLoadRecord } from '../../src/host/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import type { TopologyReport } from '../../src/topology/index.ts'
import { cli, tmp } from '../helpers.ts'
import { manifestOf, sweepIn, TWO_GPU_SIM } from './_sweep.ts'

/** The sweep (in-process, through the sim executor): 2 GPUs, their pair and one all_reduce. */
const FLAGS: SpecInput = {
  ...TWO_GPU_SIM,
  trials: 1,
  iters: 2,
  seed: 12,
}
// 8 B … 128 KiB: the p2p point runs bandwidth tests at 128 KiB.
const BW: SpecInput = { sizes: '8:128K:x128' }

/** A stand-in root whose two GPUs (the seed-vm's bus ids) report `speed` now, Gen5 x16 at most. */
function root(speed: string): string {
  const r = tmp('gpucomm-link-root-')
  for (const bus of ['01', '02']) {
    const d = join(r, 'sys/bus/pci/devices', `0000:${bus}:00.0`)
    mkdirSync(d, { recursive: true })
    writeFileSync(join(d, 'current_link_speed'), `${speed}\n`)
    writeFileSync(join(d, 'current_link_width'), '16\n')
    writeFileSync(join(d, 'max_link_speed'), '32.0 GT/s PCIe\n')
    writeFileSync(join(d, 'max_link_width'), '16\n')
  }
  return r
}

async function sweepTo(flags: SpecInput): Promise<{ out: string; extra: SweepExtra }> {
  const out = join(tmp('gpucomm-link-'), 'out')
  const r = await sweepIn({ ...FLAGS, ...flags }, { out })
  assert.equal(r.code, 0, r.stderr)
  return { out, extra: manifestOf(out).extra?.sweep as SweepExtra }
}

async function topoOf(out: string): Promise<TopologyReport> {
  const r = await cli(['topo', '--from', join(out, 'topology'), '--json'])
  assert.equal(r.code, 0, r.stderr)
  return JSON.parse(r.stdout) as TopologyReport
}

test('a link read at Gen1 during the bandwidth point is downtrained, and the finding says it used the under-load reading', async () => {
  const { out, extra } = await sweepTo({ ...BW, sysfsRoot: root('2.5 GT/s PCIe') })
  const rec = extra.linkUnderLoad as { point: string; source: string; samples: number; file: string }
  assert.equal(rec.source, 'sysfs')
  assert.match(rec.point, /^p2p~/)
  assert.ok(rec.samples >= 1)
  assert.equal(rec.file, 'topology/under-load.json')
  const t = await topoOf(out)
  const f = t.findings.find((x) => x.id === 'pcie-link-downtrained')
  assert.ok(f, JSON.stringify(t.findings.map((x) => x.id)))
  assert.match(f.message, /readings the sweep took under load, during a bandwidth point/)
  assert.equal(f.facts?.length, 2)
  assert.match(
    f.facts?.[0] ?? '',
    /x16 of x16, Gen1 of Gen5 \(sysfs: .*under load: highest of \d+ readings? during sweep point p2p~/,
  )
})

test('the same link trained at Gen5 under load is not downtrained', async () => {
  const { out, extra } = await sweepTo({ ...BW, sysfsRoot: root('32.0 GT/s PCIe') })
  assert.equal((extra.linkUnderLoad as { source: string }).source, 'sysfs')
  const t = await topoOf(out)
  assert.equal(
    t.findings.some((x) => x.id === 'pcie-link-downtrained'),
    false,
  )
  const link = t.host?.links[0]?.[0]
  assert.deepEqual(
    [link?.gen, link?.width],
    [
      { current: 5, max: 5 },
      { current: 16, max: 16 },
    ],
  )
})

test('the simulator provides a SIMULATED under-load reading; no bandwidth point, no reading', async () => {
  const { out, extra } = await sweepTo(BW)
  const rec = JSON.parse(readFileSync(join(out, 'topology', 'under-load.json'), 'utf8')) as UnderLoadRecord
  assert.equal(rec.source, 'simulated')
  assert.deepEqual(
    rec.links.map((l) => [l.bdf, l.gen?.current, l.width?.current]),
    [
      ['0000:01:00.0', 5, 16],
      ['0000:02:00.0', 5, 16],
    ],
  )
  assert.match(rec.links[0]?.from ?? '', /SIMULATED/)
  assert.deepEqual((extra.linkUnderLoad as { links: string[] }).links, [
    '0000:01:00.0 Gen5 x16',
    '0000:02:00.0 Gen5 x16',
  ])
  const link = (await topoOf(out)).host?.links[0]?.[0]
  assert.equal(link?.reading, 'simulated')
  assert.match(link?.underLoad ?? '', /^under load: /)
  const small = await sweepTo({ sizes: '8' })
  assert.equal(small.extra.linkUnderLoad, undefined)
  assert.equal(existsSync(join(small.out, 'topology', 'under-load.json')), false)
})
