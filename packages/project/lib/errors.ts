/** The caller’s mistake: an unknown slice, an argument that is no slice id, a folder without contracts. */
export class UserError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UserError'
  }
}

/** A project file that cannot be used as it is (bad JSON, a graph listing unknown contracts); the message starts with the file. */
export class ProjectError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string
  ) {
    super(`${file}: ${reason}`)
    this.name = 'ProjectError'
  }
}

/** The first line of an error’s message: what a one-line report shows of it. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
