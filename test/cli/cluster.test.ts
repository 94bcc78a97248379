/**
 * `gpucomm sweep --nodes/--pattern` (issue 16): the dry-run plan of a 256-node cluster, bad
 * input (one line, exit 2, nothing written), and a small simulated cluster sweep whose rows
 * carry `host` and whose manifest carries the allocation.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { execa } from 'execa'
import { CLEAN_ENV } from '../e2e/_sweep.ts'
import { BIN, cli, ROOT, tmp } from '../helpers.ts'

const SIM = ['sweep', '--instrument', 'sim', '--preset', 'seed-vm']

// Each test has its own sets and processes: three at a time.
suite('gpucomm on a cluster', { concurrency: 3 }, () => {
  test('256 nodes, node-pairs, --dry-run: "# node-pairs: 255 rounds of 128 pairs", nothing written', async () => {
    const out = join(tmp(), 'set')
    const r = await cli([...SIM, '--nodes', '256', '--pattern', 'node-pairs', '--dry-run', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^# node-pairs: 255 rounds of 128 pairs\b/m)
    assert.match(r.stdout, /^# cluster: 256 nodes \(node001…node256\), SIMULATED/m)
    assert.ok(!existsSync(out))
  })

  test('odd node count: the plan says one node sits out each round', async () => {
    const r = await cli([...SIM, '--nodes', '5', '--pattern', 'node-pairs', '--dry-run'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /# node-pairs: 5 rounds of 2 pairs/)
    assert.match(r.stdout, /one node sits out each round/)
    assert.match(r.stdout, /round 1: node02\+node05 node03\+node04 \(node01 sits out\)/)
  })

  test('bad cluster input: one line, exit 2, no result set', async () => {
    const cases: [string[], RegExp][] = [
      [['--nodes', '1', '--pattern', 'node-pairs'], /needs at least 2 nodes/],
      [['--nodes', '4', '--pattern', 'per-node', '--hosts', 'node02,node09'], /node09 not in the simulated cluster/],
      [['--nodes', '4', '--pattern', 'per-node', '--inject', 'slow-nic@node07'], /node node07 is not in the cluster/],
      [['--nodes', '4', '--pattern', 'per-node', '--inject', 'melted@node01'], /unknown fault "melted"/],
      [['--nodes', '4', '--pattern', 'ring'], /unknown pattern "ring"/],
      [['--nodes', '4', '--pattern', 'node-pairs', '--pairs-per-node', '4'], /1 to 3/],
      [['--pattern', 'per-node'], /--nodes/],
      [['--nodes', '4', '--pattern', 'per-node', '--fabric', 'carrier-pigeon'], /--fabric carrier-pigeon/],
    ]
    for (const [args, msg] of cases) {
      const out = join(tmp(), 'set')
      const r = await cli([...SIM, ...args, '--out', out])
      assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`)
      assert.match(r.stderr, msg)
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
      assert.ok(!existsSync(out), `${args.join(' ')} wrote ${out}`)
    }
  })

  test('a real allocation smaller than --nodes, or --hosts outside it: exit 2 before anything runs', async () => {
    const { planCluster } = await import('../../src/cluster/index.ts')
    const { resolveSpec } = await import('../../src/sweep/index.ts')
    const spec = (extra: object) =>
      resolveSpec({ instrument: 'sim', gpus: '0-7', launcher: 'srun', pattern: 'node-pairs', ...extra }, 1)
    const env = { SLURM_JOB_NODELIST: 'gpu[1-3]' }
    assert.throws(() => planCluster(spec({ nodes: 8 }), env), /allocation has only 3 node\(s\)/)
    assert.throws(() => planCluster(spec({ hosts: 'gpu2,gpu7' }), env), /gpu7 not in the Slurm allocation/)
    assert.deepEqual(planCluster(spec({ nodes: 2 }), env).nodes, ['gpu1', 'gpu2'])
  })

  test('a simulated 4-node sweep: rows carry host, the manifest the allocation, SIMULATED', async () => {
    const out = join(tmp(), 'set')
    const r = await cli([
      ...SIM,
      ...['--nodes', '4', '--pattern', 'per-node,node-pairs,scaling', '--sizes', '8,1M,64M', '--trials', '1'],
      ...['--inject', 'slow-nic@node03', '--seed', '3', '--out', out],
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /SIMULATED/)
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    assert.equal(m.simulated, true)
    assert.deepEqual(m.extra.cluster.allocation, ['node01', 'node02', 'node03', 'node04'])
    assert.deepEqual(m.extra.cluster.inject, [{ kind: 'slow-nic', node: 'node03' }])
    assert.equal(m.extra.cluster.rounds.length, 3)
    const rows = (await cli(['export', out])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.ok(rows.every((x) => typeof x.host === 'string'))
    const hosts = new Set(rows.map((x) => x.host))
    for (const h of ['node01', 'node01,node02', 'node03,node04', 'node01,node02,node03,node04'])
      assert.ok(hosts.has(h), h)
    // Every pair appears once per collective: 6 pairs of sendrecv.
    const pairs = new Set(rows.filter((x) => x.bench === 'nccl.sendrecv').map((x) => x.host))
    assert.equal(pairs.size, 6)
    const raw = readFileSync(join(out, rows[0].source.file), 'utf8')
    assert.match(raw, /^# SIMULATED by gpucomm sim/)
    assert.match(raw, /Rank {2}0 Group {2}0 Pid +\d+ on +node01 device/)
  })

  test('plot --kind node-heatmap: node × node sendrecv busbw, SIMULATED, the slow-NIC node a pale cross', async () => {
    const set = join(tmp(), 'set')
    const made = await cli([
      ...SIM,
      ...['--nodes', '6', '--pattern', 'node-pairs', '--sizes', '8,32M,128M', '--trials', '1'],
      ...['--inject', 'slow-nic@node04', '--seed', '5', '--out', set],
    ])
    assert.equal(made.code, 0, made.stderr)
    const out = tmp()
    const r = await cli(['plot', set, '--kind', 'node-heatmap', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    const spec = JSON.parse(readFileSync(join(out, 'node-heatmap.vl.json'), 'utf8'))
    assert.match(spec.title.text, /^SIMULATED: /)
    const cells = spec.data.values as { a: string; b: string; v: number }[]
    assert.equal(new Set(cells.map((c) => `${c.a}>${c.b}`)).size, 30, 'every ordered pair of 6 nodes, once')
    const slow = cells.filter((c) => c.a === 'node04' || c.b === 'node04').map((c) => c.v)
    const rest = cells.filter((c) => c.a !== 'node04' && c.b !== 'node04').map((c) => c.v)
    // A quarter of the NIC's bandwidth (400 → 100 Gb/s): every slow cell below every healthy one.
    assert.ok(Math.max(...slow) < 0.5 * Math.min(...rest), `${slow} vs ${rest}`)
  })

  /** `gpucomm sim ARGS` in its own process with `env` (the launch variables srun would set). */
  async function simProc(args: string[], env: Record<string, string> = {}) {
    const r = await execa(process.execPath, [BIN, ...args], {
      reject: false,
      cwd: ROOT,
      env: { ...CLEAN_ENV, SLURM_STEP_NODELIST: undefined, ...env },
      extendEnv: true,
    })
    return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) }
  }

  test('sim --fabric: one task per node of the srun step, rank 0 prints the rank lines on the step nodes; a task count that is not one per node is exit 2', async () => {
    const args = ['sim', '--preset', 'seed-vm', '--format', 'nccl-tests', '--collective', 'sendrecv', '--gpus', '0']
    const step = { SLURM_STEP_NODELIST: 'gpu[07,12]', SLURM_STEP_NUM_TASKS: '2' }
    const r0 = await simProc([...args, '--sizes', '8,1M', '--fabric', 'roce'], { ...step, SLURM_PROCID: '0' })
    assert.equal(r0.code, 0, r0.stderr)
    assert.match(r0.stdout, /Rank {2}0 Group {2}0 Pid +\d+ on +gpu07 device/)
    assert.match(r0.stdout, /Rank {2}1 Group {2}0 Pid +\d+ on +gpu12 device/)
    const r1 = await simProc([...args, '--sizes', '8', '--fabric', 'roce'], { ...step, SLURM_PROCID: '1' })
    assert.equal(r1.code, 0, r1.stderr)
    assert.equal(r1.stdout, '', 'rank 1 prints nothing, as nccl-tests')
    const bad = await simProc([...args, '--fabric', 'ib'], { ...step, SLURM_STEP_NUM_TASKS: '4', SLURM_PROCID: '0' })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /4 tasks on 2 nodes; run one task per node/)
    const none = await simProc([...args, '--fabric', 'ib'])
    assert.equal(none.code, 2)
    assert.match(none.stderr, /needs its nodes/)
  })

  test('srun job command: one task per node on exactly the job nodes, the sim with the fabric and every injection', async () => {
    const { planCluster, srunJobCommand } = await import('../../src/cluster/index.ts')
    const { resolveSpec } = await import('../../src/sweep/index.ts')
    const spec = resolveSpec(
      { instrument: 'sim', gpus: '0-3', launcher: 'srun', srunGpus: 'gres', pattern: 'node-pairs', sizes: '8,1M' },
      4,
    )
    const plan = planCluster(
      { ...spec, cluster: { ...spec.cluster!, inject: ['slow-nic@gpu3'] } },
      {
        SLURM_JOB_NODELIST: 'gpu[1-4]',
      },
    )
    const step = plan.steps.find((s) => s.collective === 'all_reduce') as (typeof plan.steps)[number]
    const cmd = srunJobCommand(spec, plan, step, step.jobs[0] as (typeof step.jobs)[number], { node: 'N', bin: 'B' })
    assert.equal(cmd.file, 'srun')
    assert.deepEqual(cmd.args.slice(0, 8), [
      '--nodes',
      '2',
      '--ntasks',
      '2',
      '--ntasks-per-node',
      '1',
      '--nodelist',
      'gpu1,gpu4',
    ])
    assert.ok(cmd.args.includes('--gres') && cmd.args.includes('gpu:4'))
    const tail = cmd.args.slice(cmd.args.indexOf('N'))
    assert.deepEqual(tail.slice(0, 3), ['N', 'B', 'sim'])
    assert.deepEqual(tail.slice(-4), ['--fabric', 'ib', '--inject', 'slow-nic@gpu3'])
    assert.equal(cmd.env.CUDA_VISIBLE_DEVICES, '0,1,2,3')
  })

  test('analyze text and the HTML report show the fleet: outliers with mechanism, scaling against the model, fits per host', async () => {
    const set = join(tmp(), 'set')
    const made = await cli([
      ...SIM,
      ...['--nodes', '8', '--pattern', 'per-node,node-pairs,scaling', '--sizes', '8,128,32M,128M'],
      ...['--trials', '2', '--inject', 'slow-nic@node02,flapping-nic@node05', '--seed', '2', '--out', set],
    ])
    assert.equal(made.code, 0, made.stderr)
    const r = await cli(['analyze', set, '--all'])
    assert.equal(r.code, 0, r.stderr)
    const fleet = r.stdout.slice(r.stdout.indexOf('\nFleet: '))
    assert.match(fleet, /^\nFleet: 8 nodes \(node01…node08\), 28 node pairs measured/)
    const outliers = fleet.split('\n').filter((l) => l.startsWith('- node ') || l.startsWith('- link '))
    assert.equal(outliers.length, 2, fleet)
    assert.match(outliers[0] as string, /^- node node02: net\.busbw .* \(-7\d\.\d %\); the node's NIC/)
    assert.match(
      outliers[1] as string,
      /^- node node05: net\.busbw(\.tail)? .*; a flapping NIC: \d+ of \d+ network cells/,
    )
    assert.match(fleet, /Scaling: all_reduce against NCCL's model/)
    assert.match(fleet, /^8 × 8 GPUs +\S+ GB\/s +\S+ GB\/s +[-+]\d\.\d % /m)
    // α–β fits per host: one per node for the per-node all_reduce, one per pair for sendrecv.
    const fits = r.stdout.split('\n')
    for (let i = 1; i <= 8; i++)
      assert.equal(
        fits.filter((l) => l.startsWith(`node0${i} nccl.all_reduce group 0-7 (8 ranks) per-node `)).length,
        1,
      )
    assert.equal(
      fits.filter((l) => /^node0\d,node0\d nccl\.sendrecv group 0 \(2 ranks\) node-pairs /.test(l)).length,
      28,
    )
    const html = join(tmp(), 'report.html')
    const rep = await cli(['report', set, '--out', html])
    assert.equal(rep.code, 0, rep.stderr)
    const page = readFileSync(html, 'utf8')
    const sec = page.slice(
      page.indexOf('<section id="fleet">'),
      page.indexOf('</section>', page.indexOf('<section id="fleet">')),
    )
    assert.match(sec, /<li>node node02: net\.busbw/)
    assert.match(sec, /<li>node node05: net\.busbw(\.tail)? [^<]*a flapping NIC/)
    assert.match(sec, /<td>16 × 8 GPUs<\/td>|<td>8 × 8 GPUs<\/td>/)
    assert.match(sec, /data-chart="node-heatmap"/)
  })
})
