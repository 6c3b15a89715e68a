/**
 * The caller’s mistake: a request the slice’s state cannot take (a bad
 * choice, nothing to route), an unknown slice, an argument that is no slice
 * id (the project’s `UserError` is this class).
 */
export class GateError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GateError'
  }
}
