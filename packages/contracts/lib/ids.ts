/**
 * Slice ids name the gate’s state files (`tiers/<slice>.json`, and their lock folders),
 * so they may hold no path separator, cannot be `.` or `..`, cannot start
 * like an option or a hidden file, and cannot be the name of tiers’ own
 * files in the state folder. `S-01`, `S-1`, `S-23`, `auth_flow` and
 * `v1.2` are slice ids; `../x`, `S-01/a`, `.x`, `-x` and `stop-hook` are not.
 */
export const sliceIdPattern = /^(?!(?:verification-status|stop-hook)$)[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/i

/** What a slice id is, for messages: `expected ${sliceIdRule}`. */
export const sliceIdRule =
  'a slice id such as `S-01`: 1 to 100 letters, digits, `_`, `-` or `.`, not starting with `-` or `.`, and not `verification-status` or `stop-hook`'

/**
 * Session ids come from coding agents (UUIDs, `sess_…`, nanoids) and are
 * keys of the stop hook’s counts, never paths.
 */
export const sessionIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/

/** What a session id is, for messages: `expected ${sessionIdRule}`. */
export const sessionIdRule = 'a session id such as a UUID: 1 to 128 letters, digits, `_`, `-`, `.` or `:`'

export function isSliceId(id: string): boolean {
  return sliceIdPattern.test(id)
}

export function isSessionId(id: string): boolean {
  return sessionIdPattern.test(id)
}

/** An id that is not one: `Unexpected slice id "../x", expected …`. */
export class IdError extends Error {
  constructor(
    readonly kind: 'slice' | 'session',
    readonly id: string
  ) {
    super(`Unexpected ${kind} id ${JSON.stringify(id)}, expected ${kind === 'slice' ? sliceIdRule : sessionIdRule}`)
    this.name = 'IdError'
  }
}
