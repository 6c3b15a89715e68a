import {readFileSync, statSync} from 'node:fs'

/**
 * What is at `file`, opened only when it is a regular file (a FIFO or a
 * device would hold the run): its bytes, `'other'` for anything else, `null`
 * when there is nothing there or it cannot be read.
 */
export function readRegularFile(file: string): Buffer | 'other' | null {
  try {
    return statSync(file).isFile() ? readFileSync(file) : 'other'
  } catch {
    return null
  }
}
