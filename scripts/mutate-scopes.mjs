// The scopes of `npm run mutate` and `npm run mutate:recheck`: the source each mutates and the
// test files that must kill its mutants.
/** Each scope: the source it mutates and the tests that must kill its mutants. */
export const SCOPES = {
  stats: {
    mutate: ['src/stats/**/*.ts'],
    tests: [
      'test/unit/stats.test.ts',
      'test/unit/stats-exact-limit.test.ts',
      'test/unit/stats-ties.test.ts',
      'test/unit/stats-edges.test.ts',
    ],
  },
  diff: {
    mutate: ['src/diff/**/*.ts'],
    // The diff tests build SIMULATED sets by parsing simulator text; no diff mutant can change
    // them, so a run may cache them (test/sim-loaded.ts). Never for a scope that mutates the
    // simulator or the parsers.
    simCache: true,
    tests: [
      'test/unit/diff.test.ts',
      'test/unit/diff-gate.test.ts',
      'test/unit/diff-project.test.ts',
      'test/unit/diff-requested.test.ts',
    ],
  },
  parsers: {
    mutate: ['src/parsers/**/*.ts'],
    tests: [
      'test/unit/parsers-nccl-tests.test.ts',
      'test/unit/parsers-nccl-rows.test.ts',
      'test/unit/parsers-p2p.test.ts',
      'test/unit/parsers-nvbandwidth.test.ts',
      'test/unit/parsers-srun-label.test.ts',
      'test/unit/parsers-detect.test.ts',
      'test/unit/parsers/native.test.ts',
      'test/unit/parsers/topology-parsers.test.ts',
    ],
  },
  analysis: {
    mutate: ['src/analysis/**/*.ts'],
    tests: [
      'test/analysis/fit.test.ts',
      'test/analysis/bands.test.ts',
      'test/analysis/decode.test.ts',
      'test/analysis/analyze.test.ts',
      'test/unit/analysis-select.test.ts',
    ],
  },
  rules: {
    mutate: ['src/topology/_rules.ts'],
    tests: ['test/unit/topology/rules-grouping.test.ts', 'test/unit/topology/rules-acs.test.ts'],
  },
  resume: { mutate: ['src/run/_resume.ts'], tests: ['test/unit/resume.test.ts', 'test/unit/sweep-driver.test.ts'] },
}

/**
 * The command that runs a scope's tests: one node process that imports every test file (node:test
 * runs them in turn and exits 1 when one fails), not one process per file as `node --test` does,
 * which halves the CPU time per mutant. `cacheDir`: where test/sim-loaded.ts may keep its sets.
 */
export function testArgv(def, cacheDir) {
  const env = def.simCache && cacheDir ? { GPUCOMM_TEST_SIM_CACHE: cacheDir } : {}
  return { argv: ['--import', 'tsx', ...def.tests.flatMap((t) => ['--import', `./${t}`]), '-e', ''], env }
}
