import {stat} from 'node:fs/promises'
import path from 'node:path'
import {FileReadError} from '@verification-tiers/input/read'

/**
 * Files the lint engine opens in every folder above a linted file, looking
 * for its configuration: the remark configuration files, `package.json`
 * (for `remarkConfig`) and the ignore file. The engine reads them with no
 * check of what they are, so a FIFO there would hold it, and `tiers`, for
 * good.
 */
export const engineConfigNames = [
  '.remarkrc',
  '.remarkrc.json',
  '.remarkrc.cjs',
  '.remarkrc.mjs',
  '.remarkrc.js',
  '.remarkrc.yaml',
  '.remarkrc.yml',
  'package.json',
  '.remarkignore'
]

/**
 * Check, before the engine starts, that every configuration file it could
 * open for `files` (absolute paths) is a regular file, in each folder from
 * theirs up to the root. `stat` never opens a file, so a FIFO cannot hold
 * the check; one found is a `FileReadError` naming it.
 */
export async function checkEngineConfigFiles(files: readonly string[]): Promise<void> {
  const folders = new Set<string>()
  for (const file of files) {
    for (let folder = path.dirname(file); !folders.has(folder); folder = path.dirname(folder)) {
      folders.add(folder)
      if (path.dirname(folder) === folder) break
    }
  }
  await Promise.all(
    [...folders].flatMap((folder) =>
      engineConfigNames.map(async (name) => {
        const file = path.join(folder, name)
        const info = await stat(file).catch(() => null)
        if (info && !info.isFile() && !(info.isDirectory() && name === 'package.json')) {
          throw new FileReadError(
            file,
            `Unexpected ${info.isFIFO() ? 'FIFO (named pipe)' : info.isDirectory() ? 'folder' : 'special file'}, expected a regular file (the lint engine reads it for its configuration)`
          )
        }
      })
    )
  )
}
