/**
 * A path’s stamp: what tells, without reading it, that it is as it was. The
 * change time (ctime) is set by the system on every write, rename or change
 * of mode and cannot be set back by a program, so a file written again, same
 * size and modification time or not (npm gives installed files fixed ones),
 * has another stamp; a folder gains or loses an entry only by a change of its
 * own times.
 */
import {lstatSync, statSync} from 'node:fs'

// A change within this long of a stamp may share its times on a file system that counts coarsely: such a stamp is not trusted.
const racyMs = 2000

/** The inode, size, and the modification and change times in nanoseconds of `file` (not following a link); `-` when it is absent. */
export function stampOf(file: string): string {
  const info = lstatSync(file, {bigint: true, throwIfNoEntry: false})
  return info ? `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}` : '-'
}

/**
 * The stamp of the file `file` leads to (following links), or `null` when it
 * is not a file or changed too recently for its times to tell a later change
 * apart.
 */
export function fileStampOf(file: string): string | null {
  let info
  try {
    info = statSync(file, {bigint: true})
  } catch {
    return null
  }
  if (!info.isFile() || Date.now() - Number(info.ctimeMs) < racyMs) return null
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
}
