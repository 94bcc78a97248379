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
