import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import * as gpucomm from '../../src/index.ts'
import { tmp } from '../helpers.ts'

test('the public API alone takes a simulated p2p run from text to a floor verdict', async () => {
  const text = gpucomm.simulate({ preset: 'seed-vm', format: 'p2p', gpus: [0, 1, 2, 3], seed: 9 })
  const out = join(tmp(), 'set')
  const s = await gpucomm.importFiles([{ path: 'sim.txt', data: Buffer.from(text) }], { out, command: ['api-test'] })
  assert.equal(s.manifest.simulated, true)
  const a = await gpucomm.analyze(out)
  const cross = a.fits.filter((f) => f.bench === 'p2p.latency' && f.p2p === 'disabled' && f.src !== f.dst)
  assert.equal(cross.length, 12)
  const median = gpucomm.summarize(cross.map((f) => f.alpha)).median
  assert.ok(Math.abs(median - 13.7e-6) / 13.7e-6 < 0.05, `floor ${median}`)
  assert.ok(
    cross.every((f) => f.bands.some((b) => b.startsWith('p2p-off'))),
    'host-staged bands',
  )
})
