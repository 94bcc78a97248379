/**
 * The one kind of skip a test may take: something outside npm is absent (a system package, a
 * compiler, a browser) or present where its absence is the subject (a GPU). Every skip reason
 * starts with SYSTEM_SKIP; scripts/run-tests.mjs fails a run in which a test skips for any
 * other reason, so a guard can never turn a failure into a skip.
 */
export const SYSTEM_SKIP = 'system: '

/** The skip option for a test that needs `missing` (false when nothing is missing). */
export const systemSkip = (missing: string | false | undefined): string | false =>
  missing ? `${SYSTEM_SKIP}${missing}` : false

/** Whether `env` is a CI run (CI set to anything but empty, `0` or `false`, as CI services set it). */
export const inCI = (env: NodeJS.ProcessEnv = process.env): boolean => {
  const v = (env.CI ?? '').trim().toLowerCase()
  return v !== '' && v !== '0' && v !== 'false'
}

/**
 * The skip option for a test that needs a system package .ci/run installs (OpenMPI, Slurm,
 * Chromium, fonts): a skip on a developer's machine, but in CI a missing package throws, so
 * the test file fails instead of CI going green with the test never run.
 */
export function packageSkip(missing: string | false | undefined, env: NodeJS.ProcessEnv = process.env): string | false {
  if (missing && inCI(env))
    throw new Error(
      `CI is set and a system package is missing: ${missing} (.ci/run must install it; CI fails, not skips)`,
    )
  return systemSkip(missing)
}
