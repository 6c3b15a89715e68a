import {createRequire} from 'node:module'
import type * as JsoncParser from 'jsonc-parser'

const require = createRequire(import.meta.url)
let scannerFactory: typeof JsoncParser.createScanner | undefined

/**
 * jsonc-parser’s scanner, loaded on first use: the scans run only to place a
 * message (a syntax error, a value of the wrong type), so a run over files
 * that are right never loads it.
 */
function createScanner(text: string, ignoreTrivia: boolean): JsoncParser.JSONScanner {
  scannerFactory ??= (require('jsonc-parser') as typeof JsoncParser).createScanner
  return scannerFactory(text, ignoreTrivia)
}

/** Where JSON text first breaks the grammar, as an offset into the text, and what was found and expected there. */
export interface JsonSyntaxError {
  offset: number
  /** `Unexpected …, expected …`. */
  reason: string
}

// jsonc-parser’s token and scan-error kinds: its declarations are ambient const
// enums, which a module compiled on its own cannot read.
const token = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  comma: 5,
  colon: 6,
  null: 7,
  true: 8,
  false: 9,
  string: 10,
  number: 11,
  lineComment: 12,
  blockComment: 13,
  lineBreak: 14,
  space: 15,
  unknown: 16,
  end: 17
} as const
const scanError = {none: 0, endOfNumber: 3} as const

/** What the grammar allows next. */
type Expected = 'value' | 'value-or-close' | 'name-or-close' | 'name' | 'colon' | 'comma-in-object' | 'comma-in-array' | 'end'

const expectations: Record<Expected, string> = {
  value: 'a value',
  'value-or-close': 'a value or `]`',
  'name-or-close': 'a property name in double quotes or `}`',
  name: 'a property name in double quotes',
  colon: '`:` after the property name',
  'comma-in-object': '`,` or `}`',
  'comma-in-array': '`,` or `]`',
  end: 'the end of the file'
}

/**
 * The first place where `text` is not JSON (RFC 8259: no comments, no
 * trailing commas, strings in double quotes), or `null` when it is JSON.
 * jsonc-parser’s scanner reads the tokens; the grammar is walked with a loop
 * and a stack, so no depth of nesting can exhaust the call stack.
 */
export function findJsonError(text: string): JsonSyntaxError | null {
  if (text.trim() === '') return {offset: text.length, reason: 'Unexpected empty file, expected a value'}
  const scanner = createScanner(text, false)
  const open: Array<'object' | 'array'> = []
  let expected: Expected = 'value'
  let comma = -1
  let previous: {kind: number; offset: number; end: number} | null = null
  for (;;) {
    const kind: number = scanner.scan()
    if (kind === token.space || kind === token.lineBreak) continue
    const offset = scanner.getTokenOffset()
    const length = scanner.getTokenLength()
    const error: number = scanner.getTokenError()
    if (kind === token.lineComment || kind === token.blockComment) {
      return {offset, reason: 'Unexpected comment, expected JSON, which has no comments'}
    }
    if (kind === token.string && error !== scanError.none) return stringError(text, offset)
    if (kind === token.number && error === scanError.endOfNumber) {
      return {offset: offset + length, reason: `Unexpected ${describeAt(text, offset + length)}, expected a digit after \`${text.slice(offset, offset + length)}\``}
    }
    if (kind === token.number && previous?.kind === token.number && previous.end === offset && /^-?0$/.test(text.slice(previous.offset, previous.end))) {
      const written = /^-?\d+/.exec(text.slice(previous.offset))![0]
      return {offset: previous.offset, reason: `Unexpected \`${written}\`, expected a number without leading zeros`}
    }
    const found = kind === token.end ? 'end of file' : `\`${shorten(text.slice(offset, offset + length))}\``
    const closes = kind === token.closeBrace || kind === token.closeBracket
    if (closes && comma !== -1 && (expected === 'name' || expected === 'value')) {
      const close = kind === token.closeBrace ? '}' : ']'
      return {offset: comma, reason: `Unexpected trailing comma before \`${close}\`, expected another ${close === '}' ? 'property' : 'value'} after \`,\``}
    }
    const unexpected = (): JsonSyntaxError => ({
      offset,
      reason: expected === 'end' ? `Unexpected ${found} after the value, expected the end of the file` : `Unexpected ${found}, expected ${expectations[expected]}`
    })
    comma = -1
    previous = {kind, offset, end: offset + length}
    switch (expected) {
      case 'value':
      case 'value-or-close': {
        if (kind === token.openBrace) {
          open.push('object')
          expected = 'name-or-close'
        } else if (kind === token.openBracket) {
          open.push('array')
          expected = 'value-or-close'
        } else if (isScalar(kind) || (expected === 'value-or-close' && kind === token.closeBracket)) {
          if (kind === token.closeBracket) open.pop()
          expected = afterValue(open)
        } else {
          return unexpected()
        }
        break
      }
      case 'name-or-close':
      case 'name': {
        if (kind === token.string) expected = 'colon'
        else if (expected === 'name-or-close' && kind === token.closeBrace) {
          open.pop()
          expected = afterValue(open)
        } else return unexpected()
        break
      }
      case 'colon': {
        if (kind !== token.colon) return unexpected()
        expected = 'value'
        break
      }
      case 'comma-in-object':
      case 'comma-in-array': {
        const close = expected === 'comma-in-object' ? token.closeBrace : token.closeBracket
        if (kind === token.comma) {
          comma = offset
          expected = expected === 'comma-in-object' ? 'name' : 'value'
        } else if (kind === close) {
          open.pop()
          expected = afterValue(open)
        } else return unexpected()
        break
      }
      case 'end': {
        if (kind !== token.end) return unexpected()
        return null
      }
    }
    if (kind === token.end) return unexpected()
  }
}

function isScalar(kind: number): boolean {
  return kind === token.string || kind === token.number || kind === token.true || kind === token.false || kind === token.null
}

function afterValue(open: ReadonlyArray<'object' | 'array'>): Expected {
  const inside = open.at(-1)
  return inside === 'object' ? 'comma-in-object' : inside === 'array' ? 'comma-in-array' : 'end'
}

const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const escapeRule = 'one of `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\u` and four hexadecimal digits'

/** The first fault of the string starting at `start` (its opening quote): a bad escape, a raw control character, or no closing quote before the line or the file ends. */
function stringError(text: string, start: number): JsonSyntaxError {
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index]!
    if (char === '"') return {offset: start, reason: 'Unexpected string, expected a valid JSON string'}
    if (char === '\n' || char === '\r') {
      return {offset: index, reason: 'Unexpected line break in a string, expected the closing `"` first (or `\\n` for a line break in the text)'}
    }
    if (char === '\\') {
      const next = text[index + 1]
      if (next === undefined) break
      if (escapes.has(next)) {
        index++
        continue
      }
      if (next === 'u') {
        const digits = /^[\da-fA-F]{0,4}/.exec(text.slice(index + 2, index + 6))![0]
        if (digits.length === 4) {
          index += 5
          continue
        }
        return {offset: index, reason: `Unexpected escape \`\\u${digits}\`, expected \`\\u\` and four hexadecimal digits`}
      }
      if (next === '\n' || next === '\r') return {offset: index, reason: `Unexpected \`\\\` at the end of a line in a string, expected ${escapeRule}`}
      return {offset: index, reason: `Unexpected escape \`\\${describeChar(next)}\` in a string, expected ${escapeRule}`}
    }
    if (char < ' ') {
      const code = `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
      return {offset: index, reason: `Unexpected control character U+${code.slice(2).toUpperCase()} in a string, expected it escaped (\`${code}\`)`}
    }
  }
  return {offset: text.length, reason: 'Unexpected end of file in a string, expected the closing `"`'}
}

/** What is at `offset`, as messages name it: `end of file`, `line break`, or the character. */
function describeAt(text: string, offset: number): string {
  const char = text[offset]
  if (char === undefined) return 'end of file'
  if (char === '\n' || char === '\r') return 'line break'
  return `\`${describeChar(char)}\``
}

/** A character as a message shows it: a control character as its code point. */
function describeChar(char: string): string {
  return char < ' ' ? `U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : char
}

/** A token as a message shows it: at most 30 characters, on one line. */
function shorten(written: string): string {
  const line = written.replace(/[\u0000-\u001f]/g, (char) => describeChar(char))
  return line.length > 30 ? `${line.slice(0, 29)}…` : line
}

/**
 * Offset of the value at `path` (keys and list indexes) in JSON text, or of
 * the deepest value on the way there that the text holds (the object a
 * missing key belongs in); the last one where a key repeats, as `JSON.parse`
 * takes the last. `text` must be JSON.
 */
export function findJsonValue(text: string, path: ReadonlyArray<string | number>): number {
  const scanner = createScanner(text, true)
  const open: Array<{object: boolean; key: string | number | null; expectKey: boolean}> = []
  let best = {depth: -1, offset: 0}
  const valueAt = (offset: number) => {
    const depth = open.length
    if (depth > path.length || depth < best.depth) return
    for (let index = 0; index < depth; index++) if (open[index]!.key !== path[index]) return
    best = {depth, offset}
  }
  for (let kind: number = scanner.scan(); kind !== token.end; kind = scanner.scan()) {
    const top = open.at(-1)
    const offset = scanner.getTokenOffset()
    if (kind === token.openBrace || kind === token.openBracket) {
      valueAt(offset)
      open.push(kind === token.openBrace ? {object: true, key: null, expectKey: true} : {object: false, key: 0, expectKey: false})
    } else if (kind === token.closeBrace || kind === token.closeBracket) {
      open.pop()
    } else if (kind === token.comma && top) {
      if (top.object) top.expectKey = true
      else top.key = (top.key as number) + 1
    } else if (kind === token.string && top?.object && top.expectKey) {
      top.key = scanner.getTokenValue()
      top.expectKey = false
    } else if (isScalar(kind)) {
      valueAt(offset)
    }
  }
  return best.offset
}
