import {createRequire} from 'node:module'
import type * as JsoncParser from 'jsonc-parser'
import type {FilePlace} from './file-error.js'

const require = createRequire(import.meta.url)
let jsonc: typeof JsoncParser | undefined

/**
 * jsonc-parser, loaded on first use: it runs only to place a message (a
 * syntax error, a value of the wrong type), so a run over files that are
 * right never loads it.
 */
function parser(): typeof JsoncParser {
  jsonc ??= require('jsonc-parser') as typeof JsoncParser
  return jsonc
}

/** Where JSON text first breaks the grammar, as an offset into the text, and what was found and expected there. */
export interface JsonSyntaxError {
  offset: number
  /** `Unexpected …, expected …`. */
  reason: string
}

const strict: JsoncParser.ParseOptions = {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false}

/** What the parser cannot follow: its tree is built by recursion, so nesting this deep exhausts the call stack. */
const tooDeep: JsonSyntaxError = {offset: 0, reason: 'Unexpected nesting too deep to read, expected JSON nested at most a few thousand levels'}

/**
 * The tree of JSON text and its syntax errors, as jsonc-parser reads it
 * (RFC 8259: no comments, no trailing commas), or `null` when the nesting is
 * too deep for it.
 */
function parseTree(text: string): {root: JsoncParser.Node | undefined; errors: JsoncParser.ParseError[]} | null {
  const errors: JsoncParser.ParseError[] = []
  try {
    return {root: parser().parseTree(text, errors, strict), errors}
  } catch (error) {
    if (error instanceof RangeError) return null
    throw error
  }
}

/** jsonc-parser’s first error in JSON text, and where the reading stood: the innermost open object or list, and a property name awaiting its `:`. */
interface FirstError {
  error: JsoncParser.ParseError
  container: 'object' | 'array' | undefined
  afterName: boolean
}

/**
 * Read `text` with jsonc-parser (RFC 8259: no comments, no trailing commas)
 * up to its first error; `undefined` when it is JSON, `null` when nesting
 * is too deep for the parser, which reads by recursion.
 */
function firstError(text: string): FirstError | undefined | null {
  const open: Array<'object' | 'array'> = []
  let afterName = false
  let first: FirstError | undefined
  const value = () => {
    afterName = false
  }
  try {
    parser().visit(
      text,
      {
        onObjectBegin() {
          value()
          open.push('object')
        },
        onArrayBegin() {
          value()
          open.push('array')
        },
        onObjectEnd: () => open.pop(),
        onArrayEnd: () => open.pop(),
        onLiteralValue: value,
        onObjectProperty() {
          afterName = true
        },
        onSeparator: value,
        onError(error, offset, length) {
          first ??= {error: {error, offset, length}, container: open.at(-1), afterName}
        }
      },
      strict
    )
  } catch (error) {
    if (error instanceof RangeError) return null
    throw error
  }
  return first
}

/**
 * The first place where `text` is not JSON, or `null` when it is JSON: the
 * first of jsonc-parser’s errors, worded as what was found and what the
 * grammar expects there.
 */
export function findJsonError(text: string): JsonSyntaxError | null {
  if (text.trim() === '') return {offset: text.length, reason: 'Unexpected empty file, expected a value'}
  const first = firstError(text)
  if (first === null) return tooDeep
  if (!first) return null
  const {offset, length} = first.error
  const end = offset + length
  const code = parser().printParseErrorCode(first.error.error)
  const found = offset >= text.length ? 'end of file' : `\`${shorten(text.slice(offset, Math.max(end, offset + 1)))}\``
  // `01`: the parser reads `0`, then wants a comma (or the end) before `1`.
  const from = Math.max(0, offset - 3)
  const zero = /\d/.test(text[offset] ?? '') ? /(?<![\d.eE+-])-?0$/.exec(text.slice(from, offset)) : null
  if (zero && (code === 'CommaExpected' || code === 'EndOfFileExpected')) {
    const start = from + zero.index
    const written = /^-?\d+/.exec(text.slice(start, end))![0]
    return {offset: start, reason: `Unexpected \`${written}\`, expected a number without leading zeros`}
  }
  switch (code) {
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return {offset, reason: 'Unexpected comment, expected JSON, which has no comments'}
    case 'UnexpectedEndOfString':
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
    case 'InvalidCharacter':
      return stringError(text, offset, end)
    case 'UnexpectedEndOfNumber':
      return {offset: end, reason: `Unexpected ${describeAt(text, end)}, expected a digit after \`${text.slice(offset, end)}\``}
    case 'EndOfFileExpected':
      return {offset, reason: `Unexpected ${found} after the value, expected the end of the file`}
    default:
      break
  }
  // jsonc-parser closes the object or list before it reports the missing bracket.
  const container = code === 'CloseBraceExpected' ? 'object' : code === 'CloseBracketExpected' ? 'array' : first.container
  if (code === 'ColonExpected' || first.afterName) return {offset, reason: `Unexpected ${found}, expected \`:\` after the property name`}
  const before = lastToken(text, offset)
  const closing = text[offset] === '}' || text[offset] === ']'
  if (before?.char === ',' && closing) {
    const kind = text[offset] === '}' ? 'property' : 'value'
    return {offset: before.index, reason: `Unexpected trailing comma before \`${text[offset]}\`, expected another ${kind} after \`,\``}
  }
  if (!container && before) return {offset, reason: `Unexpected ${found} after the value, expected the end of the file`}
  return {offset, reason: `Unexpected ${found}, expected ${expectedAfter(before?.char, container)}`}
}

/** The last character before `offset` that is not white space, and where it is. */
function lastToken(text: string, offset: number): {char: string; index: number} | null {
  let index = offset - 1
  while (index >= 0 && /\s/.test(text[index])) index--
  return index < 0 ? null : {char: text[index], index}
}

/** What the grammar allows after the character `before`, inside an object, a list or neither. */
function expectedAfter(before: string | undefined, container: 'object' | 'array' | undefined): string {
  if (before === undefined || before === ':') return 'a value'
  if (before === '[') return 'a value or `]`'
  if (before === '{') return 'a property name in double quotes or `}`'
  if (before === ',') return container === 'object' ? 'a property name in double quotes' : 'a value'
  return container === 'object' ? '`,` or `}`' : '`,` or `]`'
}

const escapeRule = 'one of `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\u` and four hexadecimal digits'

/**
 * The first fault of the string token at `start`..`end` (from its opening
 * quote): a bad escape, a raw control character, or no closing quote before
 * the line or the file ends. jsonc-parser places the token; this names the
 * character in it.
 */
function stringError(text: string, start: number, end: number): JsonSyntaxError {
  const token = text.slice(start, end)
  const fault = /\\(?:["\\/bfnrt]|u[\da-fA-F]{4})|(\\u[\da-fA-F]{0,3})|\\([\s\S])|([\u0000-\u001f])/g
  for (let match = fault.exec(token); match; match = fault.exec(token)) {
    const [, shortUnicode, escaped, control] = match
    const offset = start + match.index
    if (shortUnicode !== undefined) return {offset, reason: `Unexpected escape \`${shortUnicode}\`, expected \`\\u\` and four hexadecimal digits`}
    if (escaped === '\n' || escaped === '\r') return {offset, reason: `Unexpected \`\\\` at the end of a line in a string, expected ${escapeRule}`}
    if (escaped !== undefined) return {offset, reason: `Unexpected escape \`\\${describeChar(escaped)}\` in a string, expected ${escapeRule}`}
    if (control !== undefined) {
      const code = `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`
      return {offset, reason: `Unexpected control character U+${code.slice(2).toUpperCase()} in a string, expected it escaped (\`${code}\`)`}
    }
  }
  if (text[end] === '\n' || text[end] === '\r') {
    return {offset: end, reason: 'Unexpected line break in a string, expected the closing `"` first (or `\\n` for a line break in the text)'}
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
 * takes the last. `text` must be JSON; nesting too deep to read places it at
 * the start.
 */
export function findJsonValue(text: string, path: ReadonlyArray<string | number>): number {
  let node = parseTree(text)?.root
  if (!node) return 0
  for (const segment of path) {
    const next: JsoncParser.Node | undefined =
      node.type === 'object' && typeof segment === 'string'
        ? node.children?.findLast((property) => property.children?.[0]?.value === segment)?.children?.[1]
        : node.type === 'array' && typeof segment === 'number'
          ? node.children?.[segment]
          : undefined
    if (!next) break
    node = next
  }
  return node.offset
}

/** A key found twice in one object: the second one, where it is, and the path of its object. */
export interface DuplicateKey {
  key: string
  path: string[]
  place: FilePlace
}

/**
 * The first key given twice in one object of JSON text (lines and columns
 * count from after a byte order mark), or `null`. jsonc-parser’s visitor
 * sees every property as written, which `JSON.parse` folds into one: a
 * setting given twice would be read as its last, silently.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  // One frame per open object or list: the keys seen in it, and the key or index it sits at.
  const frames: Array<{keys: Set<string> | null; at: string}> = []
  let pendingKey = ''
  let found: DuplicateKey | null = null
  const open = (keys: Set<string> | null) => {
    frames.push({keys, at: pendingKey})
    pendingKey = ''
  }
  parser().visit(body, {
    onObjectBegin: () => open(new Set()),
    onArrayBegin: () => open(null),
    onObjectEnd: () => void frames.pop(),
    onArrayEnd: () => void frames.pop(),
    onObjectProperty(property, _offset, _length, startLine, startCharacter) {
      pendingKey = property
      const frame = frames.at(-1)
      if (found || !frame?.keys) return
      if (frame.keys.has(property)) {
        found = {key: property, path: frames.slice(1).map((each) => each.at), place: {line: startLine + 1, column: startCharacter + 1}}
      }
      frame.keys.add(property)
    }
  })
  return found
}
