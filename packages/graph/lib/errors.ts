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
