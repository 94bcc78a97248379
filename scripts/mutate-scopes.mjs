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
      'test/unit/stats-order.test.ts',
      'test/unit/stats-order-edges.test.ts',
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
      'test/unit/diff-edges.test.ts',
      'test/unit/diff-project-edges.test.ts',
      'test/unit/diff-format-edges.test.ts',
      'test/unit/diff-format-md-csv.test.ts',
      'test/unit/diff-fields.test.ts',
    ],
  },
  // A lower bound of the diff scope's score for the files the hand-made-cell tests guard, for a
  // loaded machine: those tests only (under 1 s of CPU a run; the whole diff scope takes about
  // 6 s, and at load 15 a run can pass Stryker's timeout, which counts as detected).
  'diff-cells': {
    mutate: ['src/diff/{_project,_fields,_format,_layout,_types}.ts'],
    tests: [
      'test/unit/diff-project-edges.test.ts',
      'test/unit/diff-format-edges.test.ts',
      'test/unit/diff-format-md-csv.test.ts',
      'test/unit/diff-fields.test.ts',
    ],
  },
  parsers: {
    mutate: ['src/parsers/**/*.ts'],
    tests: [
      'test/unit/parsers-nccl-tests.test.ts',
      'test/unit/parsers-nccl-rows.test.ts',
      'test/unit/parsers-p2p.test.ts',
      'test/unit/parsers-p2p-lines.test.ts',
      'test/unit/parsers-p2p-runs.test.ts',
      'test/unit/parsers-p2p-edges.test.ts',
      'test/unit/parsers-matrix-common.test.ts',
      'test/unit/parsers-nvbandwidth.test.ts',
      'test/unit/parsers-srun-label.test.ts',
      'test/unit/parsers-detect.test.ts',
      'test/unit/parsers/native.test.ts',
      'test/unit/parsers/topology-parsers.test.ts',
    ],
  },
  // The parsers folder by format: each part's mutants against the tests of that format only
  // (a run of all eight parser test files costs about 10 s of CPU per mutant). A mutant that
  // only another format's tests would kill counts as surviving here, so the scores are lower
  // bounds. Together the parts cover every file of src/parsers.
  'parsers-nccl': {
    mutate: ['src/parsers/nccl-tests/*.ts'],
    tests: [
      'test/unit/parsers-nccl-tests.test.ts',
      'test/unit/parsers-nccl-rows.test.ts',
      'test/unit/parsers-nccl-naming.test.ts',
      'test/unit/parsers-nccl-collective.test.ts',
      'test/unit/parsers-nccl-row-split.test.ts',
      'test/unit/parsers-nccl-tokens.test.ts',
      'test/unit/parsers-nccl-meta.test.ts',
      'test/unit/parsers-nccl-json.test.ts',
      'test/unit/parsers-nccl-json-doc.test.ts',
      'test/unit/parsers-srun-label.test.ts',
      'test/unit/parsers-hostile.test.ts',
      'test/unit/parsers-nccl-pieces.test.ts',
      'test/unit/parsers-nccl-text-lines.test.ts',
      'test/unit/parsers-nccl-text-runs.test.ts',
      'test/unit/parsers-nccl-run.test.ts',
      'test/unit/parsers-nccl-text-comments.test.ts',
    ],
  },
  'parsers-p2p': {
    mutate: ['src/parsers/{p2p/{p2p-bandwidth-latency,_p2p-*},_matrix-common}.ts'],
    tests: [
      'test/unit/parsers-p2p.test.ts',
      'test/unit/parsers-p2p-lines.test.ts',
      'test/unit/parsers-p2p-runs.test.ts',
      'test/unit/parsers-p2p-edges.test.ts',
      'test/unit/parsers-matrix-common.test.ts',
      'test/unit/parsers-detect.test.ts',
    ],
  },
  'parsers-nvbw': {
    mutate: ['src/parsers/nvbandwidth/*.ts'],
    tests: [
      'test/unit/parsers-nvbandwidth.test.ts',
      'test/unit/parsers-nvbandwidth-cli.test.ts',
      'test/unit/parsers-nvbw-parts.test.ts',
      'test/unit/parsers-nvbw-emit.test.ts',
      'test/unit/parsers-nvbw-json-scan.test.ts',
      'test/unit/parsers-nvbw-text.test.ts',
      'test/unit/parsers-nvbw-text-runs.test.ts',
      'test/unit/parsers-nvbw-text-lines.test.ts',
      'test/unit/parsers-nvbw-json.test.ts',
      'test/unit/parsers-nvbw-json-docs.test.ts',
      'test/unit/parsers-quirks.test.ts',
    ],
  },
  'parsers-topo': {
    mutate: ['src/parsers/system/*.ts'],
    tests: [
      'test/unit/parsers/topology-parsers.test.ts',
      'test/unit/parsers-quirks.test.ts',
      'test/unit/parsers-topo-matrix.test.ts',
      'test/unit/parsers-topo-m.test.ts',
      'test/unit/parsers-topo-p2p.test.ts',
      'test/unit/parsers-lspci-tv.test.ts',
      'test/unit/parsers-lspci-nn-iommu.test.ts',
    ],
  },
  'parsers-rest': {
    mutate: ['src/parsers/{p2p/native,_text,registry,index}.ts'],
    tests: [
      'test/unit/parsers/native.test.ts',
      'test/unit/parsers-detect.test.ts',
      'test/unit/parsers-srun-label.test.ts',
      'test/unit/parsers/native-edges.test.ts',
      'test/unit/parsers/registry.test.ts',
    ],
  },
  analysis: {
    mutate: ['src/analysis/**/*.ts', 'src/bands/**/*.ts'],
    tests: [
      'test/analysis/fit.test.ts',
      'test/analysis/bands.test.ts',
      'test/analysis/decode.test.ts',
      'test/analysis/analyze.test.ts',
      'test/unit/analysis-select.test.ts',
      'test/unit/analysis-mechanism.test.ts',
      'test/unit/analysis-mechanism-edges.test.ts',
      'test/unit/analysis-transport.test.ts',
      'test/unit/analysis-verdict.test.ts',
      'test/unit/analysis-conclusion.test.ts',
      'test/unit/analysis-decode.test.ts',
      'test/unit/analysis-alphabeta.test.ts',
      'test/unit/analysis-alphabeta-boot.test.ts',
      'test/unit/analysis-alpha-launches.test.ts',
      'test/unit/analysis-alpha-launches-edges.test.ts',
      'test/unit/analysis-fit-line.test.ts',
      'test/unit/analysis-fit-edges.test.ts',
      'test/unit/analysis-fit-huber.test.ts',
      'test/analysis/reference.test.ts',
      'test/analysis/nccl-import.test.ts',
      'test/analysis/fleet.test.ts',
      'test/unit/analysis-fleet.test.ts',
      'test/unit/analysis-fleet-tail.test.ts',
      'test/unit/analysis-fleet-scaling.test.ts',
      'test/unit/analysis-join.test.ts',
      'test/unit/analysis-words.test.ts',
      'test/unit/analysis-topology.test.ts',
      'test/unit/analysis-models.test.ts',
      'test/unit/analysis-band-edges.test.ts',
      'test/unit/analysis-resample-median.test.ts',
      'test/unit/analysis-compare.test.ts',
      'test/unit/analysis-compare-index.test.ts',
      'test/unit/analysis-compare-format.test.ts',
      'test/unit/analysis-text.test.ts',
      'test/unit/analysis-cite.test.ts',
      'test/unit/indexed-rows.test.ts',
      'test/unit/analysis-series.test.ts',
      'test/unit/analysis-context.test.ts',
      'test/unit/analysis-sources.test.ts',
      'test/unit/analysis-modes.test.ts',
      'test/unit/analysis-analyze.test.ts',
      'test/unit/analysis-analyze-fleet-cells.test.ts',
      'test/unit/analysis-api.test.ts',
    ],
  },
  rules: {
    mutate: ['src/topology/rules/_rules.ts'],
    tests: [
      'test/unit/topology/rules-grouping.test.ts',
      'test/unit/topology/rules-acs.test.ts',
      'test/unit/topology/rules-findings.test.ts',
      'test/unit/topology-pci-only.test.ts',
    ],
  },
  resume: { mutate: ['src/run/_resume.ts'], tests: ['test/unit/resume.test.ts', 'test/unit/sweep-driver.test.ts'] },
  // The importer and the result-set store, against the unit tests that import and read sets
  // in-process (the sim, analysis and CLI tests reach them too, but spawn the CLI or take
  // seconds a run).
  importer: {
    mutate: ['src/importer/**/*.ts'],
    tests: [
      'test/unit/resultset-threaded.test.ts',
      'test/unit/import-writer-thread.test.ts',
      'test/unit/resultset-commit.test.ts',
      'test/unit/requested-size.test.ts',
      'test/unit/api.test.ts',
    ],
  },
  resultset: {
    mutate: ['src/resultset/**/*.ts'],
    tests: [
      'test/unit/resultset.test.ts',
      'test/unit/resultset-parquet.test.ts',
      'test/unit/resultset-duck.test.ts',
      'test/unit/resultset-samples.test.ts',
      'test/unit/resultset-commit.test.ts',
      'test/unit/resultset-write.test.ts',
      'test/unit/resultset-stream.test.ts',
      'test/unit/resultset-threaded.test.ts',
    ],
  },
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

/** The scope with only the named test files (each must be one of the scope's), or undefined. */
export function narrowed(def, tests) {
  if (!def || !tests) return def
  const unknown = tests.filter((t) => !def.tests.includes(t))
  if (unknown.length > 0) {
    console.error(`mutate: not a test of this scope: ${unknown.join(', ')}`)
    process.exit(2)
  }
  return { ...def, tests }
}

/** Removes `name VALUE` from `args` and returns VALUE (undefined when the option is absent). */
export function takeOption(args, name) {
  const at = args.indexOf(name)
  return at >= 0 ? args.splice(at, 2)[1] : undefined
}
