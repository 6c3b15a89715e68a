import {randomBytes} from 'node:crypto'
import {mkdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

/**
 * Write a file atomically: a temporary file beside it, then a rename, so an
 * error or a crash never leaves it half-written or empty.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), {recursive: true})
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    await writeFile(temporary, text, {flag: 'wx'})
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, {force: true})
    throw error
  }
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
