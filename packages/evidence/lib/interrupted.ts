/**
 * A run of checks ended by SIGINT, SIGTERM or SIGHUP: its groups were
 * stopped and nothing was recorded. The caller exits with `exitCode`, 128
 * plus the signal's number (130, 143, 129), as a shell reports it.
 */
export class InterruptedError extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly exitCode: number
  ) {
    super(`interrupted by ${signal}: the running checks were stopped and nothing was recorded`)
    this.name = 'InterruptedError'
  }
}
