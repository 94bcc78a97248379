/**
 * Live collection on the machine gpucomm runs on: the nvidia-smi topology commands,
 * lspci, and systemd-detect-virt, each through execa with a timeout. A missing tool is a
 * note, not an error.
 */
import { execa } from 'execa'

/** One launched command and what it printed. */
export interface CommandRun {
  /** File name the output is saved under in a capture. */
  file: string
  argv: string[]
  stdout: string
  exitCode: number | null
  /** Why it produced nothing usable (not installed, timed out, exit status). */
  error?: string
}

/** The commands topology runs, with the file names a capture stores them under. */
const LIVE_COMMANDS: readonly { file: string; argv: string[]; needs: string }[] = [
  {
    file: 'nvidia-smi-query-gpu.csv',
    argv: ['nvidia-smi', '--query-gpu=index,name,pci.bus_id', '--format=csv,noheader'],
    needs: 'nvidia-smi',
  },
  { file: 'nvidia-smi-topo-m.txt', argv: ['nvidia-smi', 'topo', '-m'], needs: 'nvidia-smi' },
  ...['r', 'w', 'n', 'a', 'p'].map((c) => ({
    file: `nvidia-smi-topo-p2p-${c}.txt`,
    argv: ['nvidia-smi', 'topo', '-p2p', c],
    needs: 'nvidia-smi',
  })),
  { file: 'nvidia-smi-q.txt', argv: ['nvidia-smi', '-q'], needs: 'nvidia-smi' },
  { file: 'lspci-tv.txt', argv: ['lspci', '-tv'], needs: 'lspci' },
  { file: 'lspci-nn.txt', argv: ['lspci', '-Dnnk'], needs: 'lspci' },
  { file: 'systemd-detect-virt-vm.txt', argv: ['systemd-detect-virt', '--vm'], needs: 'systemd-detect-virt' },
  {
    file: 'systemd-detect-virt-container.txt',
    argv: ['systemd-detect-virt', '--container'],
    needs: 'systemd-detect-virt',
  },
]

async function runOne(file: string, argv: string[], timeoutMs: number): Promise<CommandRun & { missing?: boolean }> {
  const r = await execa(argv[0] as string, argv.slice(1), {
    reject: false,
    timeout: timeoutMs,
    stripFinalNewline: false,
    env: { LC_ALL: 'C' },
  })
  const code = (r as { code?: string }).code
  const stdout = typeof r.stdout === 'string' ? r.stdout : ''
  const run: CommandRun & { missing?: boolean } = { file, argv, stdout, exitCode: r.exitCode ?? null }
  if (code === 'ENOENT') return { ...run, error: `${argv[0] as string}: not installed`, missing: true }
  if (r.timedOut) run.error = `timed out after ${timeoutMs / 1000} s`
  // systemd-detect-virt exits 1 when it prints "none"; that is an answer, not a failure.
  else if (r.exitCode !== 0 && !(argv[0] === 'systemd-detect-virt' && stdout.trim() === 'none')) {
    const why = (typeof r.stderr === 'string' ? r.stderr : '').trim().split('\n')[0] ?? ''
    run.error = `exit status ${String(r.exitCode)}${why ? `: ${why}` : ''}`
  }
  return run
}

/** Runs every live command (skipping the rest of a tool once it is missing). */
export async function runLiveCommands(timeoutMs: number): Promise<CommandRun[]> {
  const runs: CommandRun[] = []
  const missing = new Set<string>()
  for (const c of LIVE_COMMANDS) {
    if (missing.has(c.needs)) {
      runs.push({ file: c.file, argv: c.argv, stdout: '', exitCode: null, error: `${c.needs}: not installed` })
      continue
    }
    const { missing: gone, ...run } = await runOne(c.file, c.argv, timeoutMs)
    if (gone) missing.add(c.needs)
    runs.push(run)
  }
  return runs
}
