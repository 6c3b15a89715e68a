import path from 'node:path'
import {applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode} from 'jsonc-parser'
import type {JSONPath, ParseError} from 'jsonc-parser'
import {location} from 'vfile-location'
import {FileReadError, inputLimits, readInputFile} from '@verification-tiers/input/read'

/** A file `tiers init` would write: its text before (none: new) and after, and what the change is, in words. */
export interface PlannedFile {
  /** Path from the project folder, with `/`. */
  file: string
  before: string | null
  after: string
  change: string
}

/** What `tiers init` found for one part of the set-up. */
export type Step = {kind: 'write'; planned: PlannedFile} | {kind: 'unchanged'; file: string; reason: string} | {kind: 'note'; text: string}

/**
 * The text of `file` in `cwd`, or `null` when there is none, read as every
 * input is (a regular file of at most 16 MiB, in UTF-8): what cannot be
 * read is a `FileReadError` naming `file`.
 */
export async function readIfPresent(cwd: string, file: string): Promise<string | null> {
  return (await readInputFile(path.join(cwd, file), {limit: inputLimits.json, shownAs: file})) ?? null
}

/** Parse JSON text of `file`; bad JSON is a `FileReadError` naming the file and where (jsonc-parser’s first error). */
export function parseJsonFile(file: string, text: string): unknown {
  const body = text.replace(/^\uFEFF/, '')
  try {
    return JSON.parse(body)
  } catch (error) {
    const errors: ParseError[] = []
    try {
      parse(body, errors, {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false})
    } catch {
      // jsonc-parser reads by recursion: nesting thousands deep exhausts the stack, and the place is the start.
    }
    const [first] = errors
    const point = location(body).toPoint(first?.offset ?? 0)
    const what = first ? printParseErrorCode(first.error) : (error as Error).message.split('\n')[0]
    const place = point ? {line: point.line, column: point.column} : {line: 1, column: 1}
    throw new FileReadError(file, `Unexpected text that is not JSON (${what}), expected JSON; fix it, then run \`tiers init\` again`, place)
  }
}

/** The indentation a JSON file uses (default: two spaces), so a merged file keeps its look. */
export function indentOf(text: string): string {
  return /^[{[]\s*\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
}

/** The indentation of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? ''
}

/**
 * `text` with `value` added at `at` (an index of -1 appends to a list, a new
 * key adds a property), every other byte as it was: the new entry goes after
 * the last one, on its own line, at its indentation, so a merge keeps the
 * user’s formatting. Into an empty list or object, jsonc-parser writes it.
 */
export function setJson(text: string, at: JSONPath, value: unknown): string {
  const unit = indentOf(text)
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const parent = findNodeAtLocation(parseTree(text) ?? {type: 'null', offset: 0, length: 0}, at.slice(0, -1))
  const last = parent?.children?.at(-1)
  if (parent && last && (parent.type === 'array' || parent.type === 'object')) {
    const indent = lineIndent(text, last.offset)
    const key = parent.type === 'object' ? `${JSON.stringify(at.at(-1))}: ` : ''
    const end = last.offset + last.length
    // On one line with the last entry when the list is written on one line.
    const sameLine = !text.slice(parent.offset, end).includes('\n')
    const entry =
      key +
      (sameLine
        ? JSON.stringify(value)
        : JSON.stringify(value, undefined, unit)
            .split('\n')
            .join(eol + indent))
    return text.slice(0, end) + (sameLine ? ', ' : ',' + eol + indent) + entry + text.slice(end)
  }
  const formattingOptions = {insertSpaces: !unit.includes('\t'), tabSize: unit.includes('\t') ? 1 : unit.length, eol}
  return applyEdits(text, modify(text, at, value, {formattingOptions, isArrayInsertion: at.at(-1) === -1}))
}

/** JSON as `tiers init` writes it: indented, with a final line ending. */
export function toJson(value: unknown, indent = '  '): string {
  return JSON.stringify(value, undefined, indent) + '\n'
}
