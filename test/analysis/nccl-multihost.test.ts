/**
 * Multi-host nccl-tests imports cross the network (issue 30 items 2 and 5): the real 2-host
 * logs (RTX 6000D over IB, GH200 over Slingshot, GB200 with INFO host prefixes) and generated
 * 8- and 128-host logs (test/nccl-multihost-gen.ts) get NCCL's NET transport, named as far as
 * the file says, beside NCCL's own multi-host model; the bare `NCCL version` line and
 * `--tag-output` INFO lines are read.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis, Fit } from '../../src/analysis/index.ts'
import { analysisAnswerText, analyze, renderAnalysis } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import type { Manifest } from '../../src/model/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'
import { multiHostLog } from '../nccl-multihost-gen.ts'

const fixture = (name: string): string => readFileSync(join(FIXTURES, 'nccl-tests', `${name}.txt`), 'utf8')

async function importText(name: string, text: string): Promise<{ m: Manifest; a: Analysis; f: Fit }> {
  const out = join(tmp('gpucomm-nccl-multihost-'), 'set')
  const r = await importFiles([{ path: `${name}.txt`, data: Buffer.from(text) }], {
    out,
    command: ['generated-by-test'],
  })
  const a = await analyze(out, { cells: false })
  const f = a.fits.find((x) => x.bench.startsWith('nccl.')) as Fit
  return { m: r.manifest, a, f }
}

const facts = (f: Fit): string => f.evidence.map((e) => e.fact).join('\n')

test('real RTX 6000D 2-host alltoall: NET across 2 hosts, IB verbs from NCCL_IB_HCA on the command line; the bare version line is NCCL 2.30.3', async () => {
  const { m, f } = await importText(
    'rtx6000d',
    fixture('rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings'),
  )
  assert.equal(f.mechanism.id, 'nccl-net')
  assert.match(f.mechanism.text, /across 2 hosts: InfiniBand or RoCE/)
  assert.match(facts(f), /ranks run on 2 hosts \(R6KD-CX8aaS-GPU-11, R6KD-CX8aaS-GPU-12\), from the rank lines/)
  assert.ok(f.evidence.some((e) => /^NCCL_IB_HCA=mlx5_2,.* on the command line$/.test(e.source)))
  assert.ok(f.evidence.some((e) => e.fact === 'NCCL_SHM_DISABLE=1 requested'))
  assert.equal(m.sources?.[0]?.nccl?.version, '2.30.3+cuda13.0')
  assert.equal(m.sources?.[0]?.nccl?.infoLines, 0)
  assert.match(facts(f), /NCCL 2\.30\.3\+cuda13\.0 \(its version line; no NCCL_DEBUG=INFO lines/)
})

test('real GH200 2-host all_reduce (Slingshot, not named in the file): NET, transport not stated, beside NCCL’s ring and tree model for 2 hosts', async () => {
  const { f } = await importText('gh200', fixture('gh200-slingshot-2node-2rank-v2.17.8-wrong-elements-oob-failed'))
  assert.equal(f.mechanism.id, 'nccl-net')
  assert.match(f.mechanism.text, /across 2 hosts: network, transport not stated$/)
  const refs = f.cited.filter((c) => c.role === 'reference').map((c) => c.id)
  assert.deepEqual(refs.sort(), ['nccl-model-net-ring-ll-n2-m2', 'nccl-model-net-tree-ll-n2-m2'])
  // Ring LL: 6.6 + 0 × 1 + 2 × 2 × 2.7 = 12.0 µs; Tree LL: 6.8 + 2 × (0 + 1 × 5.0) = 16.8 µs.
  assert.match(facts(f), /predicts ring 12(\.0)? µs, tree 16\.8 µs/)
  // No single-host all_reduce band is cited for it.
  assert.ok(!f.cited.some((c) => c.role !== 'reference'))
})

test('real GB200 log tail without rank lines: 2 hosts from its NCCL INFO prefixes, and 847 GB/s busbw is above any network: multi-node NVLink (MNNVL), in the verdict and the fleet view', async () => {
  const { m, a, f } = await importText('gb200', fixture('oci-gb200-2node-8rank-allreduce-tail-with-nccl-info'))
  assert.deepEqual(m.sources?.[0]?.nccl?.hosts, ['nccl-test-worker-0', 'nccl-test-worker-1'])
  assert.equal(f.mechanism.id, 'nccl-mnnvl')
  assert.match(
    facts(f),
    /2 hosts \(nccl-test-worker-0, nccl-test-worker-1\), from the host names of its NCCL INFO lines/,
  )
  // algbw ≈ 482 GB/s against 4 GPUs per host × one 800 Gb/s NIC = 400 GB/s into a host.
  assert.match(
    f.mechanism.text,
    /not the network: algbw 4\d\d\.\d GB\/s, 1\.2\d× what a network carries into a host of 4 GPUs \(400 GB\/s\)/,
  )
  assert.ok(
    f.cited.some((c) => c.id === 'nccl-model-nvlink-ll-n8'),
    f.cited.map((c) => c.id).join(),
  )
  assert.ok(!f.cited.some((c) => c.id.startsWith('nccl-model-net-')))
  assert.match(
    a.fleet?.notes.join('\n') ?? '',
    /over 2 hosts: algbw .* \(busbw 84\d\.\d GB\/s\) .* multi-node NVLink \(MNNVL\)/,
  )
  // The same log at a tenth of the bandwidth (48 GB/s algbw) is NET: no MNNVL finding.
  const tenth = (c: string[]): string[] => [
    (Number(c[0]) * 10).toFixed(1),
    (Number(c[1]) / 10).toFixed(2),
    (Number(c[2]) / 10).toFixed(2),
    c[3] as string,
  ]
  const slow = fixture('oci-gb200-2node-8rank-allreduce-tail-with-nccl-info').replace(
    /^\s+\d+\s+\d+\s+float\s+sum\s+-1\s+.*$/gm,
    (line) => {
      const c = line.trim().split(/\s+/)
      return `  ${[...c.slice(0, 5), ...tenth(c.slice(5, 9)), ...tenth(c.slice(9, 13))].join('  ')}`
    },
  )
  const s = await importText('generated-gb200-slow', slow)
  assert.equal(s.f.mechanism.id, 'nccl-net')
  assert.doesNotMatch(s.a.fleet?.notes.join('\n') ?? '', /MNNVL/)
})

test('generated 8-host log with NCCL_IB_DISABLE=1: sockets; generated 128-host log cut at 99 with -np 1024: NET across 128 hosts on 1024 ranks', async () => {
  const sock = multiHostLog({
    hosts: 8,
    gpusPerHost: 8,
    command: 'mpirun -np 64 -npernode 8 -x NCCL_IB_DISABLE=1 ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1',
  })
  const s = (await importText('generated-8host-socket', sock)).f
  assert.equal(s.mechanism.id, 'nccl-net')
  assert.match(s.mechanism.text, /across 8 hosts: TCP sockets/)
  const cut = multiHostLog({
    hosts: 128,
    gpusPerHost: 8,
    listed: 100,
    command: 'mpirun -np 1024 -npernode 8 --hostfile hosts ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1',
  })
  const c = (await importText('generated-128host-cut', cut)).f
  assert.equal(c.ranks, 1024)
  assert.equal(c.mechanism.id, 'nccl-net')
  assert.match(c.mechanism.text, /across 128 hosts: network, transport not stated/)
  assert.match(
    facts(c),
    /128 hosts \(node001, node002, node003, …\), from the command line \(128 hosts; the rank lines name 13\)/,
  )
  assert.match(facts(c), /rank lines list 100 of 1024 ranks \(count from command-line\)/)
  assert.ok(c.cited.some((x) => x.id === 'nccl-model-net-ring-ll-n1024-m128'))
})

test('generated 2-host log with --tag-output INFO lines of the aws-ofi-nccl plug-in: EFA/OFI from NCCL’s via lines', async () => {
  const tagged = multiHostLog({
    hosts: 2,
    gpusPerHost: 8,
    hostName: (i) => `ip-10-0-1-${5 + i}`,
    after: [
      '[1,0]<stdout>:ip-10-0-1-5:2345:2400 [0] NCCL INFO NCCL version 2.21.5+cuda12.4',
      '[1,0]<stdout>:ip-10-0-1-5:2345:2400 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA',
      '[1,8]<stdout>:ip-10-0-1-6:2390:2410 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via NET/AWS Libfabric/0/GDRDMA',
      '[1,1]<stdout>:ip-10-0-1-5:2346:2401 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/CUMEM',
    ],
  })
  const { m, f } = await importText('generated-2host-efa-tagged', tagged)
  assert.deepEqual(m.sources?.[0]?.nccl?.transports, ['NET/AWS Libfabric/GDRDMA', 'P2P/CUMEM'])
  assert.equal(m.sources?.[0]?.nccl?.version, '2.21.5+cuda12.4')
  assert.equal(f.mechanism.id, 'nccl-net')
  assert.match(f.mechanism.text, /across 2 hosts: EFA\/OFI/)
  assert.ok(f.evidence.some((e) => /"via NET\/AWS Libfabric\/GDRDMA" lines/.test(e.source)))
})

test('fleet view of imports (item 3): the real 2-host RTX 6000D log and the generated 128-host log show hosts, per-launch figures, "none found" and what the file cannot tell apart', async () => {
  const { a } = await importText('rtx6000d', fixture('rtx6000d-2node-16rank-alltoall-v2.18.3-inplace-na-mpi-warnings'))
  const f = a.fleet as NonNullable<Analysis['fleet']>
  assert.deepEqual(f.nodes, ['R6KD-CX8aaS-GPU-11', 'R6KD-CX8aaS-GPU-12'])
  assert.equal(f.launches?.[0]?.ranks, 16)
  // busbw median of the cells at the largest sizes (≥ 512 MiB): 41.00–41.19 GB/s printed.
  assert.ok(Math.abs((f.launches?.[0]?.busbwBps as number) - 41.02e9) < 0.05e9, String(f.launches?.[0]?.busbwBps))
  const text = renderAnalysis(a)
  assert.match(text, /Fleet \(imported runs\): 2 hosts \(R6KD-CX8aaS-GPU-11…R6KD-CX8aaS-GPU-12\), 1 multi-host launch/)
  // The default (answer-first) analyze text shows the fleet view too, not only --all.
  const answer = analysisAnswerText(a)
  assert.doesNotMatch(answer, /Every fit:/)
  assert.match(answer, /Fleet \(imported runs\): 2 hosts/)
  assert.match(answer, /- none found: nothing to compare with/)
  assert.match(text, /- none found: nothing to compare with/)
  assert.match(text, /8 ranks on each named host: one time per size for the whole communicator/)
  const cut = multiHostLog({
    hosts: 128,
    gpusPerHost: 8,
    listed: 100,
    command: 'mpirun -np 1024 -npernode 8 --hostfile hosts ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1',
  })
  const big = renderAnalysis((await importText('generated-128host-cut', cut)).a)
  assert.match(big, /Fleet \(imported runs\): 128 hosts \(13 named: node001…node013\)/)
  assert.match(big, /nccl\.all_reduce, 1024 ranks over 128 hosts: busbw/)
  assert.match(big, /the file names 13 of them/)
})

test('fleet view of imports: four generated two-host runs, one pair at half the bandwidth, is a link outlier; a single-host import has no fleet', async () => {
  const out = join(tmp('gpucomm-nccl-multihost-'), 'set')
  const betas = [40e9, 41e9, 39.5e9, 20e9]
  const inputs = betas.map((b, i) => ({
    path: `generated-pair-${i}.txt`,
    data: Buffer.from(
      multiHostLog({ hosts: 2, gpusPerHost: 1, betaBps: b, hostName: (h) => `n${2 * i + h}`, collective: 'sendrecv' }),
    ),
  }))
  await importFiles(inputs, { out, command: ['generated-by-test'] })
  const f = (await analyze(out, { cells: false })).fleet as NonNullable<Analysis['fleet']>
  assert.equal(f.pairs.length, 4)
  assert.deepEqual(
    f.outliers.map((o) => [o.kind, o.hosts.join('–')]),
    [['link', 'n6–n7']],
  )
  const one = await importText('a100', fixture('a100-sxm4-8gpu-mpirun-np8-interleaved-ompi-help-v2.13'))
  assert.equal(one.a.fleet, undefined)
})
