import {appendAll} from './append.js'
import type {List, ListItem, Paragraph, RootContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {splitCheck} from './criterion.js'
import type {ParagraphDialect} from './dialects/dialect.js'
import {labelledField} from './fields.js'
import {collapse, inlineText} from './inline.js'
import {listItem} from './items.js'
import type {Locator} from './locate.js'
import {readValue, splitLines} from './segments.js'
import type {Segment} from './segments.js'
import type {ContractField, ContractItem, ContractText} from './types.js'

/** Fields of a run of paragraph lines, and whether the last line was a label (its list may follow). */
interface LineFields {
  fields: ContractField[]
  lastLineIsField: boolean
}

/** How paragraphs are read: the file, the dialects, and which fields hold items. */
export interface ParagraphReading {
  locator: Locator
  dialects: readonly ParagraphDialect[]
  /** Whether a field’s label heads items: Acceptance Criteria and Steps, and what a tool’s reader adds. */
  holdsItems: (field: ContractField) => boolean
}

/**
 * Fields written as labels at the start of a paragraph’s lines, in the
 * paragraph dialects (`**Verification:** verify`, `Verification: verify`).
 * Several labels may share a paragraph across line breaks; the last label’s
 * list is the list after the paragraph, past HTML comments
 * (`<!--lint disable …-->`) and, under an empty criteria or steps label, one
 * intro paragraph. A label straight after a list’s last item (no blank line,
 * so markdown keeps it in the item) starts the next field.
 * `siblings[from]` is the block after the paragraph; `used` counts the blocks
 * after it that the fields took, and `rest` is the first sibling none of
 * them looked at (what follows a criteria field’s list is `readFollowing`’s).
 */
export function readParagraphFields(
  paragraph: Paragraph,
  siblings: readonly RootContent[],
  from: number,
  reading: ParagraphReading
): {fields: ContractField[]; used: number; rest: number} {
  const {locator, dialects} = reading
  const read = readLines(splitLines(paragraph.children), locator, dialects)
  const fields = read.fields
  let lastLineIsField = read.lastLineIsField
  let used = 0
  let index = from
  while (lastLineIsField) {
    const last = fields[fields.length - 1]
    const listField = last.value === '' && reading.holdsItems(last)
    while (isComment(siblings[index])) index++
    let listIndex = index
    // `**Acceptance Criteria:**`, then `All of these hold:`, then the list: the intro is no item (a table is no intro).
    const intro = siblings[index]
    if (listField && intro?.type === 'paragraph' && !isTableText(intro) && unreadBlock(intro, reading)) {
      listIndex = index + 1
      while (isComment(siblings[listIndex])) listIndex++
    }
    const list = siblings[listIndex]
    if (list?.type === 'list' && list.position) {
      const more = attachList(last, list, locator, dialects)
      appendAll(fields, more.fields)
      used = listIndex - from + 1
      index = listIndex + 1
      lastLineIsField = more.lastLineIsField
      continue
    }
    if (listField) {
      const unread = unreadBlock(siblings[index], reading)
      if (unread) {
        last.unread.push(unread)
        index++
      }
    }
    break
  }
  return {fields, used, rest: index}
}

/** Fields of paragraph lines: a label line starts a field, a line after it continues its value. */
function readLines(lines: Segment[][], locator: Locator, dialects: readonly ParagraphDialect[]): LineFields {
  const fields: ContractField[] = []
  let lastLineIsField = false
  for (const line of lines) {
    const field = readLabelLine(line, locator, dialects)
    if (field) {
      fields.push(field)
      lastLineIsField = true
    } else {
      lastLineIsField = false
      const previous = fields[fields.length - 1]
      if (previous && line.length > 0) continueValue(previous, line, locator)
    }
  }
  return {fields, lastLineIsField}
}

/** An HTML comment between a label and its list (`<!--lint disable …-->`) is no text of the field. */
export function isComment(node: RootContent | undefined): boolean {
  return node?.type === 'html' && /^<!--[\s\S]*-->\s*$/.test(node.value)
}

// What the block after an empty criteria or steps label is called in messages, when it is not a list.
const blockKinds: Partial<Record<RootContent['type'], string>> = {paragraph: 'paragraph', code: 'code', table: 'table', blockquote: 'quote'}

/** The block after an empty criteria or steps label, when it is text the reader cannot take as items. */
function unreadBlock(next: RootContent | undefined, reading: ParagraphReading): ContractText | null {
  const kind = next ? blockKinds[next.type] : undefined
  if (!next?.position || !kind) return null
  // A paragraph of labels is the next fields, not text under this one.
  if (next.type === 'paragraph' && holdsLabel(next, reading)) return null
  return unreadText(next, isTableText(next) ? 'table' : kind)
}

/** A block the reader saw and did not take as items, as a field’s unread text. */
export function unreadText(block: RootContent, kind: string): ContractText {
  return {kind, text: kind === 'table' ? tableText(block) : collapse(toString(block)), position: block.position!}
}

/**
 * A table’s rows as one line, parsed (GFM) or written in a paragraph:
 * `a | b; c | d`, the delimiter row left out, so a person reads the cells.
 */
function tableText(block: RootContent): string {
  const rows =
    block.type === 'table'
      ? block.children.map((row) => row.children.map((cell) => collapse(toString(cell))))
      : toString(block)
          .split(/\r?\n|\r/)
          .filter((line) => !/^[\s|:-]*$/.test(line))
          .map((line) =>
            line
              .trim()
              .replace(/^\||\|$/g, '')
              .split('|')
              .map(collapse)
          )
  return rows.map((cells) => cells.join(' | ')).join('; ')
}

/** Whether a paragraph holds a label line in a paragraph dialect: it starts fields. */
export function holdsLabel(paragraph: Paragraph, {locator, dialects}: ParagraphReading): boolean {
  return splitLines(paragraph.children).some((line) => readLabelLine(line, locator, dialects) !== null)
}

/** A paragraph whose first line starts with `|`: a table, where the parser reads no tables (no GFM). */
export function isTableText(block: RootContent): boolean {
  const first = block.type === 'paragraph' ? block.children[0] : undefined
  return first?.type === 'text' && first.value.trimStart().startsWith('|')
}

/**
 * The list’s items are the field’s, up to an item whose paragraph goes on
 * with a label line: that line (markdown reads it as the item’s, lazily) and
 * the lines after it are fields, and the items after it belong to the last
 * of them.
 */
export function attachList(field: ContractField, list: List, locator: Locator, dialects: readonly ParagraphDialect[]): LineFields {
  const extra: ContractField[] = []
  let target = field
  let lastLineIsField = false
  target.hasList = true
  for (const item of list.children) {
    lastLineIsField = false
    const cut = lazyLabel(item, locator, dialects)
    if (!cut) {
      const read = listItem(item)
      if (read) target.items.push(read)
      if (item.position) target.position = {start: target.position.start, end: item.position.end}
      continue
    }
    const head = cutItem(item, cut.paragraph, cut.lines.slice(0, cut.line), locator)
    if (head) {
      target.items.push(head)
      target.position = {start: target.position.start, end: head.position.end}
    }
    const read = readLines(cut.lines.slice(cut.line), locator, dialects)
    appendAll(extra, read.fields)
    target = read.fields[read.fields.length - 1] ?? target
    lastLineIsField = read.lastLineIsField
    if (lastLineIsField) target.hasList = true
  }
  // A label that ends the list takes the next list, if any: it has none yet.
  if (lastLineIsField) target.hasList = false
  return {fields: extra, lastLineIsField}
}

/** The first label line after the first line of an item’s paragraph. */
function lazyLabel(item: ListItem, locator: Locator, dialects: readonly ParagraphDialect[]): {paragraph: number; lines: Segment[][]; line: number} | null {
  for (const [index, child] of item.children.entries()) {
    if (child.type !== 'paragraph') continue
    const lines = splitLines(child.children)
    // The first paragraph's first line is the item's.
    for (let line = index === 0 ? 1 : 0; line < lines.length; line++) {
      const field = readLabelLine(lines[line], locator, dialects)
      if (field && field.key !== null) return {paragraph: index, lines, line}
    }
  }
  return null
}

/** The item made of an item’s text before a label line. */
function cutItem(item: ListItem, paragraph: number, lines: Segment[][], locator: Locator): ContractItem | null {
  const before = item.children.slice(0, paragraph).filter((child) => child.type === 'paragraph')
  const parts = before.map((child) => inlineText(child.children))
  let end = before[before.length - 1]?.position?.end
  for (const line of lines) {
    const value = readValue(line, locator)
    if (!value.position) continue
    parts.push(value.text)
    end = value.position.end
  }
  const text = collapse(parts.join(' '))
  const start = item.children[0]?.position?.start
  if (text === '' || !start || !end) return null
  return {...splitCheck(text), position: {start, end}}
}

/** A label line in any paragraph dialect, as a field. */
function readLabelLine(line: Segment[], locator: Locator, dialects: readonly ParagraphDialect[]): ContractField | null {
  for (const dialect of dialects) {
    const found = dialect.readLabel(line, locator)
    if (!found) continue
    const value = readValue(found.rest, locator)
    return labelledField(found.label, value.text, dialect.name as ContractField['dialect'], dialect.labelStyle, {
      position: {start: found.start, end: value.position ? value.position.end : found.labelEnd},
      labelPosition: found.labelPosition,
      valuePosition: value.position
    })
  }
  return null
}

/**
 * A wrapped value goes on in the next line of the paragraph; a tier is one
 * word, so the line after a tier value (`The reason: …`) is no part of it.
 */
function continueValue(field: ContractField, line: Segment[], locator: Locator): void {
  if (field.key === 'verification' && field.value !== '') return
  const more = readValue(line, locator)
  if (!more.position) return
  field.value = field.value ? field.value + ' ' + more.text : more.text
  field.valuePosition = {start: field.valuePosition?.start ?? more.position.start, end: more.position.end}
  field.position = {start: field.position.start, end: more.position.end}
}
