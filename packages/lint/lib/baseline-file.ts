// Reading the baseline file, with Node’s own modules alone: a run answered
// whole from the lint cache compares its text without parsing it.
import {readInputFileSync} from '@verification-tiers/input/read'

// A baseline larger than this is refused, not read: no project has that many warnings.
const maxBaselineBytes = 16 * 1024 * 1024

/**
 * The text of the baseline at `file`; `null` when there is none. It is read
 * as every input is (a regular file, within its size, in UTF-8): what is
 * not is a `FileReadError` naming it as `shownAs`, never an empty baseline.
 */
export async function readLintBaselineText(file: string, shownAs: string = file): Promise<string | null> {
  return readInputFileSync(file, {limit: maxBaselineBytes, shownAs}) ?? null
}
