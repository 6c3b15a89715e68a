import {UserError} from './errors.js'

/** Standard input, read up to `limitBytes` and no further. */
export type ReadInput = (limitBytes: number) => Promise<string>

/** More input than a command reads: the reading stopped at its limit. */
export class InputTooLargeError extends UserError {
  constructor(readonly limitBytes: number) {
    super(`Unexpected standard input of more than ${limitBytes} bytes, expected at most ${limitBytes} bytes`)
    this.name = 'InputTooLargeError'
  }
}

/**
 * Read `stream` (default: standard input) as UTF-8 text, holding at most
 * `limitBytes` bytes: past the limit the stream is destroyed, so an endless
 * input (`< /dev/zero`) is never read further and no longer keeps the
 * process alive, and the promise rejects with an `InputTooLargeError`.
 */
export function readInput(limitBytes: number, stream: NodeJS.ReadableStream & {destroy?: () => void} = process.stdin): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const cleanup = () => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
    }
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += bytes.length
      if (size > limitBytes) {
        cleanup()
        stream.destroy?.()
        reject(new InputTooLargeError(limitBytes))
        return
      }
      chunks.push(bytes)
    }
    const onEnd = () => {
      cleanup()
      resolve(Buffer.concat(chunks, size).toString('utf8'))
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
  })
}

/** Stop reading standard input, so a writer that never ends it does not keep `tiers` alive. */
export function stopReadingInput(): void {
  process.stdin.destroy()
}

/** One line typed in answer; `null` when the input ended before anything was typed. */
export type ReadLine = () => Promise<string | null>

/** The most one typed line may hold. */
export const lineLimitBytes = 64 * 1024

/**
 * Read one line of `stream` (default: standard input) as UTF-8 text, without
 * its line ending: what a person types at a terminal, then Enter. Input that
 * ends first gives what was typed, or `null` when nothing was. Reading stops
 * at the line (standard input is then let go, so the process can end), and
 * past `limitBytes` with an `InputTooLargeError`.
 */
export function readLine(limitBytes = lineLimitBytes, stream: NodeJS.ReadableStream & {destroy?: () => void} = process.stdin): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (settle: () => void) => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.pause()
      stream.destroy?.()
      settle()
    }
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      const end = bytes.indexOf(0x0a)
      const kept = end < 0 ? bytes : bytes.subarray(0, end)
      size += kept.length
      if (size > limitBytes) return finish(() => reject(new InputTooLargeError(limitBytes)))
      chunks.push(kept)
      if (end >= 0) finish(() => resolve(lineOf(chunks, size)))
    }
    const onEnd = () => finish(() => resolve(size === 0 ? null : lineOf(chunks, size)))
    const onError = (error: Error) => finish(() => reject(error))
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
  })
}

/** The text of a line read, without a carriage return before its end. */
function lineOf(chunks: Buffer[], size: number): string {
  return Buffer.concat(chunks, size).toString('utf8').replace(/\r$/, '')
}
