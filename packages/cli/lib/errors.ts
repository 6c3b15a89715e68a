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

/** The first line of an error’s message: what `tiers` prints on stderr. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}

/** Node’s option-parsing messages may run over several lines (`--timeout -2`): one line. */
export function optionsMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
}
