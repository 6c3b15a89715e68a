import {constants} from 'node:os'
import {InterruptedError} from '@verification-tiers/evidence/interrupted'

const signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Run `work` with SIGINT, SIGTERM and SIGHUP turned into an abort of its
 * signal, whose reason is an `InterruptedError` (exit code 128 plus the
 * signal’s number: 130, 143, 129): `tiers verify` then stops its checks and
 * records nothing. A second signal does not wait for the checks to stop: it
 * exits at once, and their process groups get SIGKILL as the process exits.
 * The handlers are there only while `work` runs, so every other moment
 * keeps Node’s defaults.
 */
export async function whileInterruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals) => {
    const error = new InterruptedError(name, 128 + (constants.signals[name] ?? 0))
    if (!controller.signal.aborted) return controller.abort(error)
    process.stderr.write(`tiers: ${error.message}\n`)
    process.exit(error.exitCode)
  }
  for (const name of signals) process.on(name, onSignal)
  try {
    return await work(controller.signal)
  } finally {
    for (const name of signals) process.off(name, onSignal)
  }
}
