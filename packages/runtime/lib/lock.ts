/**
 * A read-modify-write of one file under a lock, safe when the lock is lost.
 *
 * The lock is `proper-lockfile`’s: a `<file>.lock` folder whose time its
 * holder refreshes; a lock not refreshed within `stale` is taken for a dead
 * holder’s and taken over. A holder that was only paused (a suspended
 * laptop, a stopped process) then runs on without its lock, and
 * `proper-lockfile` would throw from a timer: a stack trace, and the
 * holder’s change written over whatever the new holder wrote. Here a lost
 * lock is noted, never thrown, and every write compares first: the file is
 * written only when it is the file that was read; otherwise the whole
 * read-modify-write runs once more on the new content, and a second clash
 * is a `ConcurrentChangeError`.
 *
 * On SIGINT and SIGTERM `proper-lockfile` (through `signal-exit`) removes
 * the locks it holds and lets the signal end the process. It is loaded only
 * when a lock is first taken: `signal-exit` replaces Node’s default action
 * for those signals with a handler, which cannot run while the process
 * is busy (parsing a large contract file, say), so loaded at start it would
 * keep a busy `tiers` deaf to SIGINT and SIGTERM until the work is done.
 */
import type {BigIntStats} from 'node:fs'
import {lstat, stat, unlink} from 'node:fs/promises'
import {ConcurrentChangeError} from './concurrent-change.js'
import {FileWriteError, prepareOwnFolder, writeFailure, writeOwnFile} from './own-file.js'

const lockOptions = {
  realpath: false,
  // A lock not refreshed for this long is taken for a dead holder’s: a stray or abandoned lock costs a stop 5 s at most.
  stale: 5_000,
  // Refreshed every second (the least `proper-lockfile` takes), so a holder held up for 4 s still keeps its lock.
  update: 1_000,
  // About 12 s of waiting in all: longer than `stale`, so a dead holder’s lock is always taken over.
  retries: {retries: 65, factor: 1.3, minTimeout: 5, maxTimeout: 200, randomize: true}
}

/** How to change one file: read it, change the value, and write it back. */
export interface LockedUpdate<Value, Result> {
  read: () => Promise<Value>
  /** Changes `value` in place; when it throws, nothing is written. */
  change: (value: Value) => Result | Promise<Result>
  serialize: (value: Value) => string
}

/**
 * Read, change and write `file` under its lock, atomically (a temporary file
 * renamed over it), never through a symbolic link (see `writeOwnFile`).
 * Throws a `ConcurrentChangeError` when another process changed the file
 * during both of two tries, and a `FileWriteError` naming the file when the
 * system refuses the lock or the write (a read-only or full disk).
 */
export async function updateLocked<Value, Result>(file: string, update: LockedUpdate<Value, Result>): Promise<Result> {
  await prepareOwnFolder(file)
  for (let attempt = 1; ; attempt++) {
    const outcome = await withLock(file, () => readChangeWrite(file, update))
    if (outcome.written) return outcome.result
    if (attempt === 2) throw new ConcurrentChangeError(file)
  }
}

async function readChangeWrite<Value, Result>(
  file: string,
  {read, change, serialize}: LockedUpdate<Value, Result>
): Promise<{written: true; result: Result} | {written: false}> {
  const before = await version(file)
  const value = await read()
  const result = await change(value)
  const text = serialize(value)
  // Compare, then write: a holder that lost its lock may still write a file nobody else changed.
  if ((await version(file)) !== before) return {written: false}
  await writeOwnFile(file, text)
  return {written: true, result}
}

/** Run `work` holding `file`’s lock. A lock lost meanwhile is not an error here: the caller compares before it writes. */
async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  let lost = false
  await removeStrayLock(`${file}.lock`)
  const {default: lockfile} = await import('proper-lockfile')
  const release = await lockfile
    .lock(file, {
      ...lockOptions,
      onCompromised: () => {
        lost = true
      }
    })
    .catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
        throw new FileWriteError(
          file,
          `cannot be written: another \`tiers\` has held its lock (\`${file}.lock\`) all the time this one waited; run the command again`
        )
      }
      throw writeFailure(file, error)
    })
  try {
    return await work()
  } finally {
    // A lost lock is another process’s now, or no one’s: there is nothing of ours to remove.
    if (!lost) await release().catch(ignoreReleased)
  }
}

/**
 * A lock is always a folder: anything else at its path (a file left by an
 * editor, a copy, a crash of some other tool) has no holder, and would make
 * every taker wait out its retries and fail. It is removed.
 */
async function removeStrayLock(lock: string): Promise<void> {
  const info = await lstat(lock).catch(() => null)
  if (!info || info.isDirectory()) return
  await unlink(lock).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw writeFailure(lock, error)
  })
}

/** `proper-lockfile` found the lock gone as it released it: lost just before the end. */
function ignoreReleased(error: unknown): void {
  const code = (error as NodeJS.ErrnoException).code
  if (code !== 'ERELEASED' && code !== 'ENOTACQUIRED') throw error
}

/**
 * What tells one version of a file from the next: its inode (an atomic write
 * makes a new one), size, and change and modification times in nanoseconds;
 * or that it is missing. A file that cannot be stat-ed is left to the reader
 * to report.
 */
async function version(file: string): Promise<string> {
  let info: BigIntStats
  try {
    info = await stat(file, {bigint: true})
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code ?? 'unknown'}`
  }
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
}
