/**
 * `readInputFile` reads only text in UTF-8: a file whose bytes are not is a
 * `FileReadError` naming it, at the line and column of the first byte that
 * is not, never text with replacement characters in it.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {FileReadError, firstNonUtf8, readInputFile, readInputFileSync, readRegularFile} from '@verification-tiers/input'

let folder: string
beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-read-input-'))
})
afterAll(async () => {
  await fs.rm(folder, {recursive: true, force: true})
})

let count = 0
/** `bytes` written to a new file, read as a contract file is. */
async function read(...parts: Array<string | number[]>): Promise<string | undefined> {
  const file = path.join(folder, `input-${count++}.md`)
  await fs.writeFile(file, Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part)))))
  return readInputFile(file, {limit: 1024 * 1024})
}

/** The error of reading `parts`: file-less, as `place` and `reason`. */
async function failure(...parts: Array<string | number[]>): Promise<{place: unknown; reason: string}> {
  try {
    await read(...parts)
  } catch (error) {
    expect(error).toBeInstanceOf(FileReadError)
    const {place, reason, message, file} = error as FileReadError
    expect(message).toBe(`${file}:${(place as {line: number}).line}:${(place as {column: number}).column}: ${reason}`)
    return {place, reason}
  }
  throw new Error('read without an error')
}

const reason = (byte: string) => `Unexpected byte ${byte}, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)`

describe('readInputFile: bytes that are not UTF-8', () => {
  it('reads UTF-8 of every length, and a byte order mark, as it is', async () => {
    expect(await read('### C-01: Café ☕ 𝄞\n')).toBe('### C-01: Café ☕ 𝄞\n')
    expect(await read([0xef, 0xbb, 0xbf], '# A\n')).toBe('\uFEFF# A\n')
    expect(await read('')).toBe('')
  })

  it.each([
    ['a Latin-1 letter', ['# Contracts\n\n- the caf', [0xe9], ' opens\n'], {line: 3, column: 10}, '0xE9'],
    ['a byte order mark of UTF-16', [[0xff, 0xfe], '#'], {line: 1, column: 1}, '0xFF'],
    ['an overlong form of `/`', ['a\r\nb', [0xc0, 0xaf]], {line: 2, column: 2}, '0xC0'],
    ['a surrogate', ['a\rb\r', [0xed, 0xa0, 0x80]], {line: 3, column: 1}, '0xED'],
    ['a code point past U+10FFFF', ['é', [0xf4, 0x90, 0x80, 0x80]], {line: 1, column: 2}, '0xF4'],
    ['a lead byte that none is', ['☕', [0xf8]], {line: 1, column: 2}, '0xF8'],
    ['a continuation byte alone', ['x', [0x80]], {line: 1, column: 2}, '0x80'],
    ['a sequence cut short by the end of the file', ['- 5 ', [0xe2, 0x82]], {line: 1, column: 5}, '0xE2'],
    ['a sequence cut short by a letter', ['𝄞', [0xf0, 0x9d, 0x84], 'x'], {line: 1, column: 3}, '0xF0']
  ] as Array<[string, Array<string | number[]>, {line: number; column: number}, string]>)('is an error at its place: %s', async (_, parts, place, byte) => {
    expect(await failure(...parts)).toEqual({place, reason: reason(byte)})
  })
})

describe('firstNonUtf8', () => {
  /** Text with bytes put in anywhere: mostly UTF-8, with cut and stray sequences. */
  const bytes = fc
    .tuple(fc.string({unit: 'binary', maxLength: 12}), fc.array(fc.tuple(fc.nat(), fc.uint8Array({minLength: 1, maxLength: 3})), {maxLength: 2}))
    .map(([text, inserts]) => {
      let value = Buffer.from(text)
      for (const [at, insert] of inserts) {
        const index = at % (value.length + 1)
        value = Buffer.concat([value.subarray(0, index), insert, value.subarray(index)])
      }
      return value
    })
  const decodes = (value: Uint8Array) => {
    try {
      new TextDecoder('utf-8', {fatal: true}).decode(value)
      return true
    } catch {
      return false
    }
  }

  it('is the end of the bytes exactly when they are UTF-8 as WHATWG decodes it, else where no longer prefix is', () => {
    fc.assert(
      fc.property(bytes, (value) => {
        const at = firstNonUtf8(value)
        expect(at === value.length).toBe(decodes(value))
        expect(decodes(value.subarray(0, at))).toBe(true)
        for (let end = at + 1; end <= value.length; end++) expect(decodes(value.subarray(0, end))).toBe(false)
      }),
      {numRuns: 2000}
    )
  })
})

describe('readRegularFile, readInputFileSync: what is not a regular file within its limit', () => {
  it('names a folder, a FIFO (without waiting for a writer) and a file over the limit, as `shownAs` when given', async () => {
    const dir = await fs.mkdtemp(path.join(folder, 'kinds-'))
    await fs.mkdir(path.join(dir, 'folder.json'))
    expect(() => readInputFileSync(path.join(dir, 'folder.json'), {limit: 10, shownAs: 'folder.json'})).toThrow(
      new FileReadError('folder.json', 'Unexpected folder, expected a regular file')
    )
    await fs.writeFile(path.join(dir, 'big.json'), 'x'.repeat(11))
    expect(() => readRegularFile(path.join(dir, 'big.json'), {limit: 10, advice: 'split it'})).toThrow(
      new FileReadError(path.join(dir, 'big.json'), 'Unexpected size of 11 bytes, expected at most 10 bytes; split it')
    )
    expect(readRegularFile(path.join(dir, 'big.json'), {limit: Number.POSITIVE_INFINITY})?.toString()).toBe('x'.repeat(11))
    expect(readInputFileSync(path.join(dir, 'none.json'), {limit: 10})).toBeUndefined()
    expect(readInputFileSync(path.join(dir, 'big.json', 'below'), {limit: 10})).toBeUndefined()
    await fs.writeFile(path.join(dir, 'latin1.md'), Buffer.from([0x61, 0x0a, 0xe9]))
    expect(() => readInputFileSync(path.join(dir, 'latin1.md'), {limit: 10, shownAs: 'latin1.md'})).toThrow(
      new FileReadError('latin1.md', 'Unexpected byte 0xE9, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)', {line: 2, column: 1})
    )
    if (process.platform === 'win32') return
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')])
    expect(() => readInputFileSync(path.join(dir, 'pipe.json'), {limit: 10})).toThrow(
      `${path.join(dir, 'pipe.json')}: Unexpected FIFO (named pipe), expected a regular file`
    )
  })
})
