import {lstat} from 'node:fs/promises'
import path from 'node:path'

/** The project folder’s name, looked for in a folder and each folder above it. */
export const projectFolderName = '.greenlight'

/**
 * The project folder for work in `start`: `.greenlight` in `start` or the
 * nearest folder above it that has one, as git finds `.git`; `null` when no
 * folder up to the root has one. Anything named `.greenlight` counts (a file,
 * a link, a folder that cannot be read): the loader says what is wrong with
 * it, rather than the walk passing it by.
 */
export async function findProjectFolder(start: string): Promise<string | null> {
  let folder = path.resolve(start)
  for (;;) {
    const candidate = path.join(folder, projectFolderName)
    const info = await lstat(candidate).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : 'unreadable'))
    if (info !== null) return candidate
    const parent = path.dirname(folder)
    if (parent === folder) return null
    folder = parent
  }
}
