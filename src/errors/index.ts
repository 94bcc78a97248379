/**
 * The one error type of gpucomm. Library code throws it; only the CLI catches it,
 * prints `message` on one line and exits with `code`.
 */
export class HarnessError extends Error {
  /** Exit code the CLI uses: 1 = the work failed, 2 = bad input. */
  readonly code: number
  constructor(message: string, code: 1 | 2 | number = 1) {
    super(message)
    this.name = 'HarnessError'
    this.code = code
  }
}

/** Bad input from the user: the CLI exits 2. */
export const badInput = (message: string): HarnessError => new HarnessError(message, 2)

/** Runtime failure of the work itself: the CLI exits 1. */
export const failed = (message: string): HarnessError => new HarnessError(message, 1)
