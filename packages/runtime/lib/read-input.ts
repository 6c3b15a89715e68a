import {constants} from 'node:fs'
import type {Stats} from 'node:fs'
import {open} from 'node:fs/promises'
import type {FileHandle} from 'node:fs/promises'
import {FileReadError} from './file-error.js'

const mebibyte = 1024 * 1024

/**
 * Largest inputs `tiers` reads, whole, on every run: 16 MiB of markdown in
 * one file (a contract file, `GRAPH.md`), 32 MiB of contract files in all,
 * and 16 MiB of JSON (`config.json`, `GRAPH.json`, the state files): the
 * verification status keeps the end of the output of every failing check,
 * up to 8 KiB of each stream, so it is the one JSON file that grows with the
 * project.
 */
export const inputLimits = {markdown: 16 * mebibyte, contracts: 32 * mebibyte, json: 16 * mebibyte} as const

/** How to read one input file. */
export interface ReadInputOptions {
  /** Largest size in bytes. */
  limit: number
  /** What to do about a file over the limit, said after the error (`split it …`). */
  advice?: string
}

/**
 * The text of an input file (UTF-8), or `undefined` when there is none. Only
 * a regular file is read: a folder, a FIFO, a socket or a device is a
 * `FileReadError` naming the file and what it is, and so is a file larger
 * than `limit`. The file is opened without blocking and checked through the
 * opened handle, so a FIFO can never hold the reader, and swapping the file
 * after the check changes nothing; at most `limit` bytes are ever read.
 */
export async function readInputFile(file: string, {limit, advice}: ReadInputOptions): Promise<string | undefined> {
  let handle: FileHandle
  try {
    // Opening a FIFO for reading blocks until a writer comes, unless non-blocking (Windows has no FIFOs).
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A path through something that is not a folder names no file either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'EISDIR') throw new FileReadError(file, 'Unexpected folder, expected a regular file')
    throw new FileReadError(file, `cannot be read (${(error as Error).message})`)
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new FileReadError(file, `Unexpected ${kindOf(info)}, expected a regular file`)
    if (info.size > limit) throw tooLarge(file, formatSize(info.size), limit, advice)
    const bytes = await readAtMost(handle, info.size, limit)
    // It grew after its size was taken.
    if (bytes === null) throw tooLarge(file, `more than ${formatSize(limit)}`, limit, advice)
    return bytes.toString('utf8')
  } catch (error) {
    if (error instanceof FileReadError) throw error
    throw new FileReadError(file, `cannot be read (${(error as Error).message})`)
  } finally {
    await handle.close()
  }
}

/** A size as messages give it: `50.0 MiB`, or bytes below one. */
export function formatSize(bytes: number): string {
  if (bytes < mebibyte) return `${bytes} bytes`
  const mebibytes = bytes / mebibyte
  return `${Number.isInteger(mebibytes) ? mebibytes : mebibytes.toFixed(1)} MiB`
}

function tooLarge(file: string, size: string, limit: number, advice: string | undefined): FileReadError {
  return new FileReadError(file, `Unexpected size of ${size}, expected at most ${formatSize(limit)}${advice ? `; ${advice}` : ''}`)
}

/** The whole file, read in chunks; `null` when it holds more than `limit` bytes (it may grow after its size was taken). */
async function readAtMost(handle: FileHandle, size: number, limit: number): Promise<Buffer | null> {
  let buffer = Buffer.allocUnsafe(Math.min(size, limit) + 1)
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) return null
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1))
      buffer.copy(grown, 0, 0, length)
      buffer = grown
    }
    const {bytesRead} = await handle.read(buffer, length, buffer.length - length, null)
    if (bytesRead === 0) return buffer.subarray(0, length)
    length += bytesRead
  }
}

/** What a file that is not a regular file is, as messages name it. */
function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'folder'
  if (info.isFIFO()) return 'FIFO (named pipe)'
  if (info.isSocket()) return 'socket'
  if (info.isCharacterDevice()) return 'character device'
  if (info.isBlockDevice()) return 'block device'
  return 'special file'
}
