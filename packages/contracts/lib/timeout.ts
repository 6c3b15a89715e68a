/**
 * How long a criterion’s check may run. A day is far more than any check
 * needs, and stays well inside what a timer can count (about 24.8 days):
 * beyond it a timer fires at once, which would make every check time out.
 */
export const maxCheckTimeoutSeconds = 86_400

/** What a timeout must be, as messages say it. */
export const checkTimeoutRule = `a number of seconds above 0 and at most ${maxCheckTimeoutSeconds}`

/** Whether `value` is a usable timeout in seconds: positive, finite, at most a day. */
export function isCheckTimeout(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= maxCheckTimeoutSeconds
}
