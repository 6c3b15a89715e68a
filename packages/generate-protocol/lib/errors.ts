/**
 * What stops generate-protocol before it writes anything, in one or more
 * lines: options that do not fit together (`usage`: the CLI exits 2), or a
 * folder they name that is not there, a template that cannot be used
 * (`file:line:column: reason`), or the docs over their budget, one line
 * each (the CLI exits 1). A settings file that cannot be used is a
 * `FileReadError`, as `tiers` throws it.
 */
export class GenerateError extends Error {
  constructor(
    message: string,
    readonly usage = false
  ) {
    super(message)
    this.name = 'GenerateError'
  }
}

/** A template that cannot be used as it is, at its line and column when known. */
export function templateError(file: string, line: number | null, column: number | null, reason: string): GenerateError {
  return new GenerateError(`${file}${line === null ? '' : `:${line}${column === null ? '' : `:${column}`}`}: ${reason}`)
}
