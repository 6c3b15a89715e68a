/**
 * Helpers the protocol templates may use, registered by name in the compiler
 * (generate-protocol) and in the runtime alike. Templates are compiled with
 * `knownHelpersOnly`, so any other helper name fails at build time.
 */
export const templateHelpers = {
  /** 1-based number of a 0-based `@index`. */
  inc(value: unknown): number {
    return Number(value) + 1
  },
  /** Whether any argument is truthy (the last argument is Handlebars’ options). */
  or(...values: unknown[]): boolean {
    return values.slice(0, -1).some(Boolean)
  },
  /** Items joined: `a, b and c` (or another word given for `and`). */
  join(items: unknown, ...rest: unknown[]): string {
    const conjunction = typeof rest[0] === 'string' ? rest[0] : 'and'
    const list = Array.isArray(items) ? items.map(String) : []
    return list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} ${conjunction} ${list[list.length - 1]}`
  }
} as const

/** Names of the helpers, for `knownHelpers`. */
export const templateHelperNames = Object.keys(templateHelpers) as Array<keyof typeof templateHelpers>

/** Compile options every protocol template uses: markdown out, nothing missing, no unknown helpers. */
export const templateCompileOptions = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(templateHelperNames.map((name) => [name, true])) as Record<string, true>
}
