/** Exit codes of `tiers`. */
export const exitCodes = {ok: 0, user: 1, broken: 2} as const

/** The caller’s mistake (unknown slice, bad choice): exit 1. */
export class UserError extends Error {
  readonly exitCode = exitCodes.user
  constructor(message: string) {
    super(message)
    this.name = 'UserError'
  }
}

/** A project file that cannot be used as it is (bad JSON, missing contracts): exit 2. */
export class ProjectError extends Error {
  readonly exitCode = exitCodes.broken
  constructor(
    readonly file: string,
    reason: string
  ) {
    super(`${file}: ${reason}`)
    this.name = 'ProjectError'
  }
}
