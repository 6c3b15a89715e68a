import {readRegularFile as readInput} from '@verification-tiers/input/read'

/**
 * What is at `file`, opened only when it is a regular file (a FIFO or a
 * device would hold the run), read as every input is: its bytes, `'other'`
 * for anything else or a file that cannot be read, `null` when there is
 * nothing there.
 */
export function readRegularFile(file: string): Buffer | 'other' | null {
  try {
    return readInput(file, {limit: Number.POSITIVE_INFINITY}) ?? null
  } catch {
    return 'other'
  }
}
