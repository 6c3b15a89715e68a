import {mkdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import writeFile from 'write-file-atomic'

/**
 * Write a file atomically (write-file-atomic: a temporary file beside it, then
 * a rename), creating its folder, so an error or a crash never leaves it
 * half-written or empty.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), {recursive: true})
  await writeFile(file, text)
}

/** Text of a file, or `null` when there is none. */
export async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
