// Reading the baseline file, with Node’s own modules alone: a run answered
// whole from the lint cache compares its text without parsing it.
import {readFileSync, statSync} from 'node:fs'

// A baseline larger than this is refused, not read: no project has that many warnings.
const maxBaselineBytes = 16 * 1024 * 1024

/** A baseline that cannot be read or is not the shape: never taken for an empty one. */
export class LintBaselineError extends Error {
  constructor(
    readonly file: string,
    reason: string,
    readonly place: {line: number; column: number} | null = null
  ) {
    super(`${file}${place ? `:${place.line}:${place.column}` : ''}: ${reason}`)
    this.name = 'LintBaselineError'
  }
}

/**
 * The text of the baseline at `file`; `null` when there is none. A file that
 * is not a regular file, too large or unreadable is a `LintBaselineError`
 * naming it as `shownAs`.
 */
export async function readLintBaselineText(file: string, shownAs: string = file): Promise<string | null> {
  try {
    // `stat` opens nothing: a FIFO named as the baseline cannot hold the run.
    const info = statSync(file)
    if (!info.isFile()) throw new LintBaselineError(shownAs, 'Unexpected file that is not a regular file, expected the JSON file `tiers lint --update-baseline` writes')
    if (info.size > maxBaselineBytes) throw new LintBaselineError(shownAs, `Unexpected size of ${info.size} bytes, expected at most ${maxBaselineBytes}`)
    return readFileSync(file, 'utf8')
  } catch (error) {
    if (error instanceof LintBaselineError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new LintBaselineError(shownAs, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
}
