import {mkdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import writeFileAtomic from 'write-file-atomic'

/** How to read one kind of JSON file: parse its text (throwing on bad content), or start afresh when it is missing. */
export interface JsonFileKind<Value> {
  parse: (file: string, text: string) => Value
  empty: () => Value
}

/** A file that cannot be read: its `file` is named in the message. */
export class FileReadError extends Error {
  constructor(
    readonly file: string,
    reason: string
  ) {
    super(`${file}: ${reason}`)
    this.name = 'FileReadError'
  }
}

/** A JSON syntax error with its line and column: `1:14: Unexpected end of JSON input`. */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const at = /at position (\d+)/.exec(message)
  const offset = at ? Number(at[1]) : text.length
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, '')
    // Node 20 quotes the input, line breaks and all: the message must stay one line.
    .replace(/, ".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/^JSON\.parse: /, '')
  return `${line}:${column}: ${text.trim() === '' ? 'empty file' : reason}`
}

/** Parse a JSON file’s text; a syntax error names the file and its line and column. */
export function parseJsonText(file: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new FileReadError(file, describeJsonError(text, error))
  }
}

/** Read a JSON file of a kind; a missing file is the kind’s empty value. */
export async function readJsonFile<Value>(file: string, kind: JsonFileKind<Value>): Promise<Value> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return kind.empty()
    throw new FileReadError(file, `cannot be read (${(error as Error).message})`)
  }
  return kind.parse(file, text)
}

/**
 * Change a JSON file under a lock and write it atomically: concurrent callers
 * never lose an update, and a crash never leaves a half-written file. When
 * `change` throws, nothing is written.
 */
export async function updateJsonFile<Value, Result>(
  file: string,
  kind: JsonFileKind<Value>,
  change: (value: Value) => Result | Promise<Result>
): Promise<Result> {
  await mkdir(path.dirname(file), {recursive: true})
  const release = await lockfile.lock(file, {
    realpath: false,
    stale: 10_000,
    retries: {retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 200, randomize: true}
  })
  try {
    const value = await readJsonFile(file, kind)
    const result = await change(value)
    await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n')
    return result
  } finally {
    await release()
  }
}
