/**
 * Model presets of the decode-step model (src/analysis/compare/models.ts): found by id in any case,
 * overridden field by field (an undefined override keeps the preset's value), the preset itself
 * left unchanged, an unknown id undefined.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MODEL_PRESETS, resolveModel } from '../../src/analysis/compare/models.ts'

test('resolveModel: by id in any case, overrides applied, undefined ones ignored, the preset untouched', () => {
  const glm = resolveModel('GLM-5')
  assert.deepEqual(
    [glm?.id, glm?.layers, glm?.hidden, glm?.dtypeBytes, glm?.batch, glm?.allreducesPerLayer],
    ['glm-5', 78, 6144, 2, 64, 2],
  )
  const o = resolveModel('glm-5', { layers: 40, batch: undefined, dtypeBytes: 1 })
  assert.deepEqual([o?.layers, o?.batch, o?.dtypeBytes, o?.hidden], [40, 64, 1, 6144])
  assert.equal(MODEL_PRESETS['glm-5']?.layers, 78)
  assert.equal(resolveModel('no-such-model'), undefined)
  assert.equal(resolveModel('no-such-model', { layers: 1 }), undefined)
})
