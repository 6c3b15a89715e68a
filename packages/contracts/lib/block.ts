import type {Code} from 'mdast'
import type {Point, Position} from 'unist'
import {splitCheck} from './criterion.js'
import type {FenceDialect} from './dialects/dialect.js'
import {isKnownLabel, isListField, labelledField, resolveFieldKey} from './fields.js'
import {splitAtLineEndings} from './lines.js'
import type {Locator} from './locate.js'
import {endsWithCheckLead, isLabelShape} from './segments.js'
import type {ContractField, ContractItem, ContractText} from './types.js'

// `**Label:** value` or `**Label**: value`, as templates write bold labels inside a fence.
const boldFieldLine = /^\*\*([^*]{1,60}?)\*\*(?:[ \t]*:)?(?:[ \t]+(.*?))?[ \t]*$/
// An item's marker (`- `, `12. `), behind spaces and tabs.
const itemMarker = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/
// What stands between an item's marker and its text: white space, and a task-list box (`[ ] `, `[x] `).
const itemLead = /^\s*(?:\[[ xX]\][ \t]+)?/

/** A label line of a block: where its label and value are on the line. */
interface LabelLine {
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
  // Most blocks with `Name: value` lines (YAML, config, logs) name no known field: they are code.
  if (!code.position || !namesKnownField(lines, dialect)) return null
  const starts = contentLineStarts(code, lines, locator)
  const fields: ContractField[] = []
  let current: ContractField | null = null
  let list: OpenList | null = null
  let unread: ContractText | null = null
  let blank = false

  const opened: ContractItem[] = []

  for (const [index, raw] of lines.entries()) {
    const prefix = dialect.prefix(raw)
    const body = raw.slice(prefix)
    const textStart = body.length - body.trimStart().length
    if (textStart === body.length) {
      blank = true
      unread = null
      continue
    }
    const wasBlank = blank
    blank = false
    const indent = indentWidth(body)
    const marker = itemMarker.exec(body)?.[0].length ?? -1
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
      current = newField(label, prefix, starts[index], dialect)
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
      if (!current.hasList) current.unread = current.unread.filter((text) => text.kind !== 'paragraph')
      current.hasList = true
      const textFrom = marker + (itemLead.exec(body.slice(marker))?.[0].length ?? 0)
      const text = body.slice(textFrom).trimEnd()
      const start = prefix + textFrom
      const item: ContractItem = {text, position: positionIn(starts[index], start, start + Math.max(text.length, 1)), check: null}
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
        open.position = positionIn(starts[index], prefix + textStart, prefix + textStart + text.length)
        open.text = text
        current.items.push(open)
      } else {
        open.position.end = pointIn(starts[index], prefix + textStart + text.length)
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
        unread.position = {start: unread.position.start, end: pointIn(starts[index], prefix + textStart + text.length)}
      } else {
        unread = {kind, text, position: positionIn(starts[index], prefix + textStart, prefix + textStart + text.length)}
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
  // Each item’s text, wrapped lines joined, and its check.
  for (const item of opened) {
    const split = splitCheck(item.text)
    item.text = split.text
    item.check = split.check
  }
  return fields
}

/** A field of a label line: its label, value and where each is. */
function newField(line: LabelLine, prefix: number, start: LineStart, dialect: FenceDialect): ContractField {
  const labelPosition = positionIn(start, prefix + line.labelStart, prefix + line.labelStart + line.label.length)
  const valuePosition = line.value ? positionIn(start, prefix + line.valueStart, prefix + line.valueStart + line.value.length) : null
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
  return lines.some((raw) => {
    const body = raw.slice(dialect.prefix(raw))
    // Unindented (a tab or space first is indentation) and no item marker.
    if (/^[ \t]/.test(body) || itemMarker.test(body)) return false
    const label = readFenceLabelLine(body)
    return label !== null && isKnownLabel(label.label)
  })
}

/** `Label: value` or `**Label:** value` at the start of a line; `null` for other lines. */
function readFenceLabelLine(body: string): LabelLine | null {
  const bold = boldFieldLine.exec(body)
  if (bold) {
    const inner = bold[1] ?? ''
    // The colon goes inside the stars or right after them.
    const colonInside = /:\s*$/.test(inner)
    if (!colonInside && !/^\*\*[^*]+?\*\*[ \t]*:/.test(body)) return null
    const label = inner.replace(/\s*:\s*$/, '').trim()
    if (!isLabelShape(label)) return null
    const value = bold[2] ?? ''
    return {label, labelStart: 2 + inner.indexOf(label), value, valueStart: value ? body.lastIndexOf(value) : -1}
  }
  // `Label: value`: a label has no colon of its own, so the first colon ends it.
  const colon = body.indexOf(':')
  if (colon < 1 || colon > 60) return null
  const label = body.slice(0, colon).trimEnd()
  const after = body.slice(colon + 1)
  if (after !== '' && !/^\s/.test(after)) return null
  if (!isLabelShape(label) || endsWithCheckLead(label)) return null
  const value = after.trim()
  return {label, labelStart: 0, value, valueStart: value ? colon + 1 + (after.length - after.trimStart().length) : -1}
}

/**
 * What text under a criteria or steps field is kept as, or `null`: before
 * any item, every line (kind by its first mark); after items, a table row
 * (`|`) or a quote (`>`), which are no items, while a paragraph is prose.
 */
function unreadKind(body: string, textStart: number, field: ContractField): string | null {
  if (body[textStart] === '|') return 'table'
  if (body[textStart] === '>') return 'quote'
  return field.items.length === 0 && field.value === '' ? 'paragraph' : null
}

/** Columns of leading white space, a tab to the next multiple of 4 as markdown counts it. */
function indentWidth(body: string): number {
  let width = 0
  for (const character of body) {
    if (character === ' ') width++
    else if (character === '\t') width += 4 - (width % 4)
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

/** Where a content line of a fenced block starts: its line, column and offset (none without the source). */
interface LineStart {
  line: number
  column: number
  offset: number | undefined
}

/**
 * Where the content lines of a fenced block start. The content of a fence
 * starts on the line after it; where the block is indented (in a list or
 * quote), the source line ends with the content line, which gives its column.
 */
function contentLineStarts(code: Code, lines: readonly string[], locator: Locator): LineStart[] {
  const first = code.position!.start
  return lines.map((text, index) => {
    const line = first.line + 1 + index
    const lineStart = locator.lineStart(line)
    // Without the source, or past its end: the block's own column, and no offset.
    if (lineStart === undefined) return {line, column: first.column, offset: undefined}
    // The line ends as the content line does; only its indentation may differ, where a tab
    // partly taken by the fence’s or container’s indent comes out as spaces: count from the end.
    const column = locator.lineEnd(lineStart) - lineStart - text.length + 1
    return {line, column, offset: lineStart + column - 1}
  })
}

/** Position of columns `from`..`to` of a content line. */
function positionIn(start: LineStart, from: number, to: number): Position {
  return {start: pointIn(start, from), end: pointIn(start, to)}
}

/** The point `at` columns into a content line, never before the line’s first column. */
function pointIn({line, column, offset}: LineStart, at: number): Point {
  if (offset === undefined) return {line, column: column + at}
  const shift = Math.max(at, 1 - column)
  return {line, column: column + shift, offset: offset + shift}
}
