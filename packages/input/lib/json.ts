import {location} from 'vfile-location'
import {FileReadError} from './file-error.js'
import type {FilePlace} from './file-error.js'
import {findJsonError, findJsonValue} from './json-error.js'

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
    return {ok: false, place: placeOf(body, found.offset), reason: found.reason}
  }
}

/**
 * Line and column of the value at `path` (keys and list indexes) in JSON text
 * that parses, or of the deepest value on the way there (the object a
 * missing key belongs in): where a message about that value points.
 */
export function jsonPlace(text: string, path: ReadonlyArray<string | number>): FilePlace {
  const body = text.startsWith(byteOrderMark) ? text.slice(1) : text
  return placeOf(body, findJsonValue(body, path))
}

/** The line and column of `offset` in `text`. */
function placeOf(text: string, offset: number): FilePlace {
  const point = location(text).toPoint(offset) ?? {line: 1, column: 1}
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
