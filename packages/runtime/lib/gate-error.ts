/** A request the slice’s state cannot take (bad choice, nothing to route): the caller’s mistake. */
export class GateError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GateError'
  }
}
