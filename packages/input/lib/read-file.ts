import {isUtf8} from 'node:buffer'
import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import type {Stats} from 'node:fs'
import {FileReadError} from './file-error.js'

const mebibyte = 1024 * 1024

/**
 * Largest inputs `tiers` reads, whole, on every run: 1 MiB of markdown in one
 * file (a contract file, `GRAPH.md`, a tool's spec or tasks list), 4 MiB of a
 * project's files in all (every markdown file and graph the gate reads), and
 * 16 MiB of JSON (`config.json`, `GRAPH.json`, the state files): the
 * verification status keeps the end of the output of every failing check,
 * up to 8 KiB of each stream, so it is the one JSON file that grows with the
 * project. A project reads more with `limits.file_mib` and
 * `limits.total_mib` in its settings, up to `readLimitCeilings`.
 */
export const inputLimits = {markdown: 1 * mebibyte, total: 4 * mebibyte, json: 16 * mebibyte} as const

/**
 * How much of a project the gate reads: the largest markdown file, and all
 * the files it reads together, in bytes.
 */
export interface ReadLimits {
  file: number
  total: number
}

/** The limits of a project that sets none. */
export const defaultReadLimits: ReadLimits = {file: inputLimits.markdown, total: inputLimits.total}

/**
 * The most a project's settings may raise its limits to, in MiB: a parse
 * holds about 900 bytes of memory for each byte of dense markdown, and the
 * gate must answer before the agent's hook is cut off.
 */
export const readLimitCeilings = {file_mib: 16, total_mib: 32} as const

/** How to read one input file. */
export interface ReadInputOptions {
  /** Largest size in bytes (`Infinity`: any). */
  limit: number
  /** What to do about a file over the limit, said after the error (`split it …`). */
  advice?: string
  /** How messages name the file (a path from the folder the user gave, `.claude/settings.json`); default: `file` as given. */
  shownAs?: string
}

/**
 * The bytes of a regular file, or `undefined` when there is none: the one
 * reader of every input. Only a regular file is read: a folder, a FIFO, a
 * socket or a device is a `FileReadError` naming the file and what it is,
 * and so is a file larger than `limit`. The file is opened without blocking
 * and checked through the opened descriptor, so a FIFO can never hold the
 * reader, and swapping the file after the check changes nothing; at most
 * `limit` bytes are ever read. It reads at once, not through the thread
 * pool: an input is read whole before anything is done with it.
 */
export function readRegularFile(path: string, {limit, advice, shownAs = path}: ReadInputOptions): Buffer | undefined {
  const file = shownAs
  let descriptor: number
  try {
    // Opening a FIFO for reading blocks until a writer comes, unless non-blocking (Windows has no FIFOs).
    descriptor = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A path through something that is not a folder names no file either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'EISDIR') throw new FileReadError(file, 'Unexpected folder, expected a regular file')
    throw new FileReadError(file, `cannot be read (${(error as Error).message})`)
  }
  try {
    const info = fstatSync(descriptor)
    if (!info.isFile()) throw new FileReadError(file, `Unexpected ${kindOf(info)}, expected a regular file`)
    if (info.size > limit) throw tooLarge(file, formatSize(info.size), limit, advice)
    const bytes = readAtMost(descriptor, info.size, limit)
    // It grew after its size was taken.
    if (bytes === null) throw tooLarge(file, `more than ${formatSize(limit)}`, limit, advice)
    return bytes
  } catch (error) {
    if (error instanceof FileReadError) throw error
    throw new FileReadError(file, `cannot be read (${(error as Error).message})`)
  } finally {
    closeSync(descriptor)
  }
}

/**
 * The text of an input file (UTF-8), or `undefined` when there is none, read
 * as `readRegularFile` reads it; bytes that are not UTF-8 are a
 * `FileReadError` too, with the line and column of the first that is not:
 * decoded anyway, its names and criteria would come out garbled, with no
 * word of it.
 */
export function readInputFileSync(file: string, options: ReadInputOptions): string | undefined {
  const bytes = readRegularFile(file, options)
  if (bytes === undefined) return undefined
  if (!isUtf8(bytes)) throw notUtf8(options.shownAs ?? file, bytes)
  return bytes.toString('utf8')
}

/** `readInputFileSync`, for a caller that awaits: a failure is a rejection. */
export async function readInputFile(file: string, options: ReadInputOptions): Promise<string | undefined> {
  return readInputFileSync(file, options)
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

/**
 * The error of a file whose bytes are not UTF-8: placed at the first byte
 * that is not (a line and column as the text before it counts them), and
 * naming it, so a file saved in another encoding (Latin-1, UTF-16) is found.
 */
function notUtf8(file: string, bytes: Buffer): FileReadError {
  const at = firstNonUtf8(bytes)
  const lines = bytes
    .subarray(0, at)
    .toString('utf8')
    .split(/\r\n?|\n/)
  const byte = `0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')}`
  return new FileReadError(file, `Unexpected byte ${byte}, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)`, {
    line: lines.length,
    column: lines.at(-1)!.length + 1
  })
}

/**
 * The offset of the first byte of `bytes` that does not begin a well-formed
 * UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), or of one whose sequence is cut short; `bytes.length` when all are.
 */
export function firstNonUtf8(bytes: Uint8Array): number {
  let index = 0
  while (index < bytes.length) {
    const lead = bytes[index]
    if (lead < 0x80) {
      index++
      continue
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0
    if (more === 0) return index
    // The second byte's range is narrower after E0, ED, F0 and F4 (overlong forms, surrogates, past U+10FFFF).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf
    const second = bytes[index + 1]
    if (second === undefined || second < low || second > high) return index
    for (let next = 2; next <= more; next++) {
      const byte = bytes[index + next]
      if (byte === undefined || byte < 0x80 || byte > 0xbf) return index
    }
    index += more + 1
  }
  return index
}

/** The whole file, read in chunks; `null` when it holds more than `limit` bytes (it may grow after its size was taken). */
function readAtMost(descriptor: number, size: number, limit: number): Buffer | null {
  let buffer = Buffer.allocUnsafe(Math.min(size, limit) + 1)
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) return null
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1))
      buffer.copy(grown, 0, 0, length)
      buffer = grown
    }
    const read = readSync(descriptor, buffer, length, buffer.length - length, null)
    if (read === 0) return buffer.subarray(0, length)
    length += read
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
