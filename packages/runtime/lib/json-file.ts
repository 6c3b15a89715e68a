import {location} from 'vfile-location'
import {FileReadError} from './file-error.js'
import type {FilePlace} from './file-error.js'
import {findJsonError, findJsonValue} from './json-error.js'
import {inputLimits, readInputFile} from './read-input.js'
import {updateLocked} from './lock.js'

/** How to read one kind of JSON file: parse its text (throwing on bad content), or start afresh when it is missing. */
export interface JsonFileKind<Value> {
  parse: (file: string, text: string) => Value
  empty: () => Value
}

/** JSON text read: its value, or its first syntax error and where it is. */
export type JsonParse = {ok: true; value: unknown} | {ok: false; place: FilePlace; reason: string}

const byteOrderMark = '\uFEFF'

/**
 * Parse JSON text. A leading byte order mark is skipped, as editors hide it:
 * lines and columns count from after it. On a syntax error the place and the
 * reason come from jsonc-parser’s errors (never from the engine’s
 * message, whose wording and offsets vary between Node versions).
 */
export function parseJson(text: string): JsonParse {
  const body = text.startsWith(byteOrderMark) ? text.slice(1) : text
  try {
    return {ok: true, value: JSON.parse(body)}
  } catch (error) {
    const found = findJsonError(body) ?? {offset: 0, reason: `Unexpected content (${(error as Error).message.split('\n')[0]}), expected JSON`}
    const point = location(body).toPoint(found.offset) ?? {line: 1, column: 1}
    return {ok: false, place: {line: point.line, column: point.column}, reason: found.reason}
  }
}

/**
 * Line and column of the value at `path` (keys and list indexes) in JSON text
 * that parses, or of the deepest value on the way there (the object a
 * missing key belongs in): where a message about that value points.
 */
export function jsonPlace(text: string, path: ReadonlyArray<string | number>): FilePlace {
  const body = text.startsWith(byteOrderMark) ? text.slice(1) : text
  const point = location(body).toPoint(findJsonValue(body, path)) ?? {line: 1, column: 1}
  return {line: point.line, column: point.column}
}

/**
 * Where and why JSON text does not parse, as `line:column: reason`
 * (`1:6: Unexpected \`}\`, expected a value`). `error` is the caller’s own
 * parse error, for text that parses once its byte order mark is skipped.
 */
export function describeJsonError(text: string, error?: unknown): string {
  const parsed = parseJson(text)
  if (parsed.ok) {
    const reason = text.startsWith(byteOrderMark)
      ? 'Unexpected byte order mark (U+FEFF), expected JSON without one'
      : `Unexpected content (${error instanceof Error ? error.message.split('\n')[0] : 'no syntax error found'}), expected JSON`
    return `1:1: ${reason}`
  }
  return `${parsed.place.line}:${parsed.place.column}: ${parsed.reason}`
}

/** Parse a JSON file’s text; a syntax error is a `FileReadError` naming the file, line and column. */
export function parseJsonText(file: string, text: string): unknown {
  const parsed = parseJson(text)
  if (!parsed.ok) throw new FileReadError(file, parsed.reason, parsed.place)
  return parsed.value
}

/**
 * Read a JSON file of a kind; a missing file is the kind’s empty value. Read
 * as every input is: a regular file of at most `inputLimits.json` bytes.
 */
export async function readJsonFile<Value>(file: string, kind: JsonFileKind<Value>): Promise<Value> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  return text === undefined ? kind.empty() : kind.parse(file, text)
}

/**
 * Change a JSON file under a lock and write it atomically: concurrent callers
 * never lose an update, and a crash never leaves a half-written file. When
 * `change` throws, nothing is written; a holder that lost its lock writes
 * only over the file it read (see `updateLocked`).
 */
export async function updateJsonFile<Value, Result>(
  file: string,
  kind: JsonFileKind<Value>,
  change: (value: Value) => Result | Promise<Result>
): Promise<Result> {
  return updateLocked(file, {read: () => readJsonFile(file, kind), change, serialize: (value) => JSON.stringify(value, null, 2) + '\n'})
}
