import type {Code} from 'mdast'
import type {Point, Position} from 'unist'
import {splitCheck} from './criterion.js'
import type {FenceDialect} from './dialects/dialect.js'
import {isKnownLabel, isListField, labelledField, resolveFieldKey} from './fields.js'
import {splitAtLineEndings} from './lines.js'
import {isWhiteSpaceCode, nonWhiteSpaceFrom, textEnd} from './text-lines.js'
import type {Locator} from './locate.js'
import {endsWithCheckLead, isLabelShape} from './segments.js'
import type {ContractField, ContractItem, ContractText} from './types.js'

// `**Label:** value` or `**Label**: value`, as templates write bold labels inside a fence.
const boldFieldLine = /^\*\*([^*]{1,60}?)\*\*(?:[ \t]*:)?(?:[ \t]+(.*?))?[ \t]*$/

/** A label line of a block: where its label and value are on the line. */
export interface LabelLine {
  label: string
  labelStart: number
  value: string
  valueStart: number
}

/** The list under the current field: the indent of its items, and its last item. */
interface OpenList {
  indent: number
  /** Its last item, whose text wrapped lines go on (its check is split off at the end of the block). */
  item: ContractItem | null
  /** Inside a deeper item (a sub-point): its lines are not the item’s. */
  nested: boolean
}

/** The lines of a code block, split as markdown counts line endings (LF, CRLF, or a lone CR). */
export function blockLines(code: Code): string[] {
  return splitAtLineEndings(code.value)
}

/**
 * Fields written as plain `Field: value` lines in a fenced block, in a fence
 * dialect (which may put a prefix such as `// ` before each line);
 * `**Field:** value` lines work too.
 * Only unindented lines are fields. The items of a field are the `- ` (or
 * `1.`) lines under it, indented or not, up to the next field, a paragraph
 * after a blank line, or the end of the block; a wrapped line continues its
 * item, and deeper items are sub-points of the item above. Returns `null`
 * when the block names no known field: then it is code, not a contract.
 */
export function readBlockFields(code: Code, lines: readonly string[], locator: Locator, dialect: FenceDialect): ContractField[] | null {
  // Most blocks with `Name: value` lines (YAML, config, logs) name no known field: found before any field is made.
  if (!code.position || !namesKnownField(lines, dialect)) return null
  const starts = contentLineStarts(code, lines, locator)
  const fields: ContractField[] = []
  let current: ContractField | null = null
  let list: OpenList | null = null
  let unread: ContractText | null = null
  let blank = false

  const opened: ContractItem[] = []

  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!
    const prefix = dialect.prefix(raw)
    const body = prefix === 0 ? raw : raw.slice(prefix)
    // Where the spaces and tabs before the text end, and where the text starts (white space as `trim`
    // counts it): most lines start with their text. A line of white space alone is blank.
    const indentEnd = spacesAndTabsEnd(body)
    const textStart = indentEnd < body.length && !isWhiteSpaceCode(body.charCodeAt(indentEnd)) ? indentEnd : nonWhiteSpaceFrom(body, indentEnd)
    if (textStart === body.length) {
      blank = true
      unread = null
      continue
    }
    const wasBlank = blank
    blank = false
    const indent = indentEnd === 0 ? 0 : indentWidth(body)
    const marker = itemMarkerFrom(body, indentEnd)
    let label = indent === 0 && marker === -1 ? readFenceLabelLine(body) : null
    // Straight after an item, a line like `Total: the sum` that names no field wraps the item.
    if (label && list?.item && !wasBlank && resolveFieldKey(label.label) === null) label = null
    // Under an empty criteria or steps label, an intro like `All of these hold:` is text, not a field.
    if (
      label &&
      current &&
      isListField(current) &&
      current.items.length === 0 &&
      current.value === '' &&
      label.value === '' &&
      resolveFieldKey(label.label) === null
    )
      label = null

    if (label) {
      list = null
      unread = null
      current = newField(label, index, prefix, starts, dialect)
      fields.push(current)
      continue
    }
    if (!current) continue

    if (marker !== -1 && (!list || indent <= list.indent || !list.item)) {
      // An item of the field: the first one sets the list’s indent.
      list ??= {indent, item: null, nested: false}
      list.nested = false
      unread = null
      // Text before the field's first list is its intro: the list is what was read (a table or quote stays named).
      if (!current.hasList && current.unread.length > 0) dropIntro(current)
      current.hasList = true
      const textFrom = taskBoxEnd(body, nonWhiteSpaceFrom(body, marker))
      const text = body.slice(textFrom, Math.max(textFrom, textEnd(body)))
      const start = prefix + textFrom
      const item: ContractItem = {text, position: positionIn(starts, index, start, start + Math.max(text.length, 1)), check: null}
      list.item = item
      opened.push(item)
      // A bare marker: its text may come on the next, indented line.
      if (text === '') continue
      current.items.push(item)
      // A field’s and an item’s position objects are made here, for them alone: they grow in place.
      current.position.end = item.position.end
      continue
    }
    if (marker !== -1 && list) {
      // A deeper item is a sub-point of the item above, not an item of the field.
      list.nested = true
      continue
    }
    if (list?.item && (indent > list.indent || !wasBlank)) {
      // A wrapped line: indented under its item, or straight after it.
      if (list.nested) continue
      const text = body.slice(textStart).trimEnd()
      const open = list.item
      if (open.text === '') {
        open.position = positionIn(starts, index, prefix + textStart, prefix + textStart + text.length)
        open.text = text
        current.items.push(open)
      } else {
        open.position.end = pointIn(starts, index, prefix + textStart + text.length)
        open.text += ' ' + text
      }
      current.position.end = open.position.end
      continue
    }
    const kind = isListField(current) ? unreadKind(body, textStart, current) : null
    if (kind) {
      // Text under a criteria or steps label that is not a list: kept, so it can be reported. It ends the list above it.
      list = null
      const text = body.slice(textStart).trimEnd()
      if (unread && !wasBlank && unread.kind === kind) {
        unread.text += ' ' + text
        unread.position = {start: unread.position.start, end: pointIn(starts, index, prefix + textStart + text.length)}
      } else {
        unread = {kind, text, position: positionIn(starts, index, prefix + textStart, prefix + textStart + text.length)}
        current.unread.push(unread)
      }
      continue
    }
    if (indent === 0) {
      // A paragraph after the list ends it; the field ends too, but criteria and steps go on to the next label.
      if (!isListField(current)) current = null
      list = null
      unread = null
    }
  }
  // Each item’s text, wrapped lines joined, and its check, made once.
  for (let index = 0; index < opened.length; index++) {
    const item = opened[index]!
    const split = splitCheck(item.text)
    item.text = split.text
    item.check = split.check
  }
  return fields
}

/** A field of a label line: its label, value and where each is. */
function newField(line: LabelLine, index: number, prefix: number, starts: ContentLineStarts, dialect: FenceDialect): ContractField {
  const labelPosition = positionIn(starts, index, prefix + line.labelStart, prefix + line.labelStart + line.label.length)
  const valuePosition = line.value ? positionIn(starts, index, prefix + line.valueStart, prefix + line.valueStart + line.value.length) : null
  return labelledField(line.label, line.value, dialect.name as ContractField['dialect'], dialect.labelStyle, {
    position: {start: labelPosition.start, end: (valuePosition ?? labelPosition).end},
    labelPosition,
    valuePosition
  })
}

/**
 * Whether some line of a block is a label line of a known field, as
 * `readBlockFields` reads it: unindented, no item marker, a label that names
 * a field exactly. (The lines it then reads as no label name no known field.)
 */
function namesKnownField(lines: readonly string[], dialect: FenceDialect): boolean {
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!
    const prefix = dialect.prefix(raw)
    const body = prefix === 0 ? raw : raw.slice(prefix)
    // Unindented (a tab or space first is indentation) and no item marker.
    if (spacesAndTabsEnd(body) !== 0 || itemMarkerFrom(body, 0) !== -1) continue
    const label = readFenceLabelLine(body)
    if (label && isKnownLabel(label.label)) return true
  }
  return false
}

/**
 * The length of the item marker a block line starts with, spaces and tabs
 * before it included (`  - `, `12. `: what `/^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/`
 * matches), or `-1`: read character by character, as every line of every
 * block is asked.
 */
export function itemMarkerLength(body: string): number {
  return itemMarkerFrom(body, spacesAndTabsEnd(body))
}

/** `itemMarkerLength` of a line whose spaces and tabs end at `from`. */
function itemMarkerFrom(body: string, from: number): number {
  let at = from
  const code = body.charCodeAt(at)
  if (code === 0x2d || code === 0x2a || code === 0x2b) {
    at++
  } else {
    const digits = at
    while (isDigit(body.charCodeAt(at))) at++
    const count = at - digits
    if (count === 0 || count > 9) return -1
    const close = body.charCodeAt(at)
    if (close !== 0x2e && close !== 0x29) return -1
    at++
  }
  // The marker ends the line or is followed by a space or tab.
  const next = body.charCodeAt(at)
  return Number.isNaN(next) || next === 0x20 || next === 0x09 ? at : -1
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

/** `Label: value` or `**Label:** value` at the start of a line; `null` for other lines. */
export function readFenceLabelLine(body: string): LabelLine | null {
  const bold = body.startsWith('**') ? boldFieldLine.exec(body) : null
  if (bold) {
    const inner = bold[1] ?? ''
    // The colon goes inside the stars or right after them.
    const colonInside = /:\s*$/.test(inner)
    if (!colonInside && !/^\*\*[^*]+?\*\*[ \t]*:/.test(body)) return null
    const label = inner.replace(/\s*:\s*$/, '').trim()
    if (!isLabelShape(label)) return null
    const value = bold[2] ?? ''
    const labelStart = 2 + inner.indexOf(label)
    return {label, labelStart, value, valueStart: value ? body.lastIndexOf(value) : -1}
  }
  // `Label: value`: a label has no colon of its own, so the first colon ends it; no regex runs over the line.
  const colon = body.indexOf(':')
  if (colon < 1 || colon > 60) return null
  // What follows the colon is white space, or nothing: looked at before any text is cut out.
  if (colon + 1 < body.length && !isWhiteSpaceCode(body.charCodeAt(colon + 1))) return null
  const label = body.slice(0, textEnd(body, colon))
  if (!isLabelShape(label) || endsWithCheckLead(label)) return null
  // The value, trimmed, cut out once.
  const valueStart = nonWhiteSpaceFrom(body, colon + 1)
  const value = valueStart === body.length ? '' : body.slice(valueStart, textEnd(body))
  return {label, labelStart: 0, value, valueStart: value ? valueStart : -1}
}

/**
 * Where an item’s text starts, past a task-list box (`[ ] `, `[x] `: what
 * `/^\[[ xX]\][ \t]+/` matches at `from`), which is no part of it.
 */
export function taskBoxEnd(body: string, from: number): number {
  if (body.charCodeAt(from) !== 0x5b || body.charCodeAt(from + 2) !== 0x5d) return from
  const mark = body.charCodeAt(from + 1)
  if (mark !== 0x20 && mark !== 0x78 && mark !== 0x58) return from
  let end = from + 3
  while (body.charCodeAt(end) === 0x20 || body.charCodeAt(end) === 0x09) end++
  return end === from + 3 ? from : end
}

/**
 * What text under a criteria or steps field is kept as, or `null`: before
 * any item, every line (kind by its first mark); after items, a table row
 * (`|`) or a quote (`>`), which are no items, while a paragraph is prose.
 */
function unreadKind(body: string, textStart: number, field: ContractField): string | null {
  const mark = body.charCodeAt(textStart)
  if (mark === 0x7c) return 'table'
  if (mark === 0x3e) return 'quote'
  return field.items.length === 0 && field.value === '' ? 'paragraph' : null
}

/** Drop a field's unread paragraphs: they were an intro to the list that came. */
function dropIntro(field: ContractField): void {
  const kept = field.unread.filter((text) => text.kind !== 'paragraph')
  field.unread.length = 0
  for (let index = 0; index < kept.length; index++) field.unread.push(kept[index]!)
}

/** Where the spaces and tabs a line starts with end. */
function spacesAndTabsEnd(body: string): number {
  let at = 0
  while (body.charCodeAt(at) === 0x20 || body.charCodeAt(at) === 0x09) at++
  return at
}

/** Columns of leading white space, a tab to the next multiple of 4 as markdown counts it. */
function indentWidth(body: string): number {
  let width = 0
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index)
    if (code === 0x20) width++
    else if (code === 0x09) width += 4 - (width % 4)
    else break
  }
  return width
}

/** Only fenced blocks hold contracts; indented code is left alone. */
export function isFenced(code: Code, locator: Locator): boolean {
  const position = code.position!
  const offset = position.start.offset
  if (locator.source !== null && offset !== undefined) {
    // A fence of three or more backticks or tildes starts with three of them.
    return locator.source.startsWith('```', offset) || locator.source.startsWith('~~~', offset)
  }
  // Without the source: a fenced block spans its opening fence too, indented code only its content lines.
  return position.end.line - position.start.line + 1 > splitAtLineEndings(code.value).length
}

/** Where each content line of a fenced block starts: its line, column and offset (`NaN` without the source). */
interface ContentLineStarts {
  /** The line of the first content line. */
  line: number
  columns: number[]
  offsets: number[]
}

/**
 * Where the content lines of a fenced block start. The content of a fence
 * starts on the line after it; where the block is indented (in a list or
 * quote), the source line ends with the content line, which gives its column.
 */
function contentLineStarts(code: Code, lines: readonly string[], locator: Locator): ContentLineStarts {
  const first = code.position!.start
  const columns: number[] = []
  const offsets: number[] = []
  for (const [index, line] of lines.entries()) {
    const lineStart = locator.lineStart(first.line + 1 + index)
    if (lineStart === undefined) {
      // Without the source, or past its end: the block's own column, and no offset.
      columns.push(first.column)
      offsets.push(Number.NaN)
      continue
    }
    // The line ends as the content line does; only its indentation may differ, where a tab
    // partly taken by the fence’s or container’s indent comes out as spaces: count from the end.
    const column = locator.lineEnd(lineStart) - lineStart - line.length + 1
    columns.push(column)
    offsets.push(lineStart + column - 1)
  }
  return {line: first.line + 1, columns, offsets}
}

/** Position of columns `from`..`to` of content line `index`. */
function positionIn(starts: ContentLineStarts, index: number, from: number, to: number): Position {
  return {start: pointIn(starts, index, from), end: pointIn(starts, index, to)}
}

/** Point at column `at` of content line `index`. */
function pointIn(starts: ContentLineStarts, index: number, at: number): Point {
  return pointOf(starts.line + index, starts.columns[index]!, starts.offsets[index]!, at)
}

/** The point `at` columns into a content line that starts at `column` (and `offset`, `NaN` without the source), never before the line’s first column. */
function pointOf(line: number, column: number, offset: number, at: number): Point {
  if (Number.isNaN(offset)) return {line, column: column + at}
  const shift = Math.max(at, 1 - column)
  return {line, column: column + shift, offset: offset + shift}
}
