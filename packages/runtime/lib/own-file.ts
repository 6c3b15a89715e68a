/**
 * Writing tiers’ own files (slice state, the verification status, the stop
 * hook’s counts, the caches): only as regular files in a real folder. A
 * symbolic link at `.greenlight/tiers`, or at one of its files, would take
 * the write wherever it points, and `write-file-atomic` follows links by
 * design; so a link there is refused with an error naming it, never
 * followed. (A link placed between the check and the write is a race with
 * someone who can already write the project, so it is not guarded.)
 */
import {constants} from 'node:fs'
import type {Stats} from 'node:fs'
import {access, lstat, mkdir} from 'node:fs/promises'
import path from 'node:path'

/** A file tiers could not write, named, with the system’s reason: `S-01.json: cannot be written (ENOSPC: …)`. */
export class FileWriteError extends Error {
  constructor(
    readonly file: string,
    reason: string
  ) {
    super(`${file}: ${reason}`)
    this.name = 'FileWriteError'
  }
}

const throughLink = 'tiers writes its own files only inside the project, never through a link'

/**
 * Make the folder `file` goes in, unless it is there. A folder that is a
 * symbolic link, or not a folder, is a `FileWriteError` naming it; so is one
 * that cannot be made or written (a read-only or full disk). Checked here,
 * at once: the lock taken next would retry a read-only folder for half a
 * minute before failing.
 */
export async function prepareOwnFolder(file: string): Promise<void> {
  const folder = path.dirname(file)
  const info = await lstatOrNull(folder)
  if (info === null) {
    await mkdir(folder, {recursive: true}).catch((error: unknown) => {
      throw writeFailure(folder, error)
    })
    return
  }
  if (info.isSymbolicLink()) throw new FileWriteError(folder, `Unexpected symbolic link, expected a folder: ${throughLink}`)
  if (!info.isDirectory()) throw new FileWriteError(folder, 'Unexpected file, expected a folder')
  await access(folder, constants.W_OK).catch((error: unknown) => {
    throw writeFailure(folder, error)
  })
}

/**
 * Write `file` atomically (a temporary file beside it, renamed over it), in
 * a folder `prepareOwnFolder` checked. A symbolic link or anything but a
 * regular file at `file` is refused; a failed write is a `FileWriteError`
 * naming the file, and leaves the old file as it was.
 */
export async function writeOwnFile(file: string, text: string): Promise<void> {
  const info = await lstatOrNull(file)
  if (info?.isSymbolicLink()) throw new FileWriteError(file, `Unexpected symbolic link, expected a regular file: ${throughLink}`)
  if (info && !info.isFile()) throw new FileWriteError(file, `Unexpected ${info.isDirectory() ? 'folder' : 'special file'}, expected a regular file`)
  try {
    // Loaded on the first write: most runs only read.
    const {default: writeFileAtomic} = await import('write-file-atomic')
    await writeFileAtomic(file, text)
  } catch (error) {
    throw writeFailure(file, error)
  }
}

/**
 * A system error while writing `file`, as a `FileWriteError` naming it:
 * `cannot be written (ENOSPC: no space left on device)`. The system’s own
 * path is left out: it may be a temporary file’s, with a random name.
 */
export function writeFailure(file: string, error: unknown): Error {
  if (error instanceof FileWriteError || !(error instanceof Error) || !('code' in error)) return error as Error
  const {syscall, message} = error as NodeJS.ErrnoException
  const cut = syscall ? message.indexOf(`, ${syscall}`) : -1
  return new FileWriteError(file, `cannot be written (${cut === -1 ? message.split('\n')[0] : message.slice(0, cut)})`)
}

async function lstatOrNull(file: string): Promise<Stats | null> {
  try {
    return await lstat(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    throw writeFailure(file, error)
  }
}
