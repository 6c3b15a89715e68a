import type {List, Nodes, Paragraph, PhrasingContent, RootContent, Text} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {Point, Position} from 'unist'
import {labelFor, resolveFieldKey} from './fields.js'
import {collapse, inlineText} from './inline.js'
import {listItems} from './items.js'
import {advance} from './locate.js'
import type {Locator} from './locate.js'
import type {ContractField, ContractText} from './types.js'

/** A piece of one line of a paragraph: a whole inline node, or part of a text node. */
interface Segment {
  node: PhrasingContent
  from: number
  to: number
}

// Labels are short names, not sentences: `**Note that X:**` is emphasis.
export const labelPattern = /^\p{L}[\p{L}\p{N} _\-/&()']{0,39}$/u

/**
 * Fields written as bold labels (`**Verification:** verify`). Several labels
 * may share a paragraph across soft line breaks; the last label’s list is the
 * list after the paragraph, past HTML comments (`<!--lint disable …-->`) and,
 * under an empty criteria or steps label, one intro paragraph.
 * `siblings[from]` is the block after the paragraph; `used` counts the blocks
 * after it that the fields took.
 */
export function readBoldFields(
  paragraph: Paragraph,
  siblings: readonly RootContent[],
  from: number,
  locator: Locator
): {fields: ContractField[]; used: number} {
  const fields: ContractField[] = []
  let lastLineIsField = false
  for (const line of splitLines(paragraph.children)) {
    const field = readLabelLine(line, locator)
    if (field) {
      fields.push(field)
      lastLineIsField = true
    } else {
      lastLineIsField = false
      const previous = fields[fields.length - 1]
      if (previous && line.length > 0) continueValue(previous, line, locator)
    }
  }
  const last = fields[fields.length - 1]
  if (!last || !lastLineIsField) return {fields, used: 0}
  const listField = last.value === '' && (last.key === 'acceptanceCriteria' || last.key === 'steps')
  let index = from
  while (isComment(siblings[index])) index++
  let listIndex = index
  // `**Acceptance Criteria:**`, then `All of these hold:`, then the list: the intro is no item.
  if (listField && siblings[index]?.type === 'paragraph' && unreadBlock(siblings[index], locator)) {
    listIndex = index + 1
    while (isComment(siblings[listIndex])) listIndex++
  }
  const list = siblings[listIndex]
  if (list?.type === 'list' && list.position) {
    attachList(last, list)
    return {fields, used: listIndex - from + 1}
  }
  if (listField) {
    const unread = unreadBlock(siblings[index], locator)
    if (unread) last.unread.push(unread)
  }
  return {fields, used: 0}
}

/** An HTML comment between a label and its list (`<!--lint disable …-->`) is no text of the field. */
function isComment(node: RootContent | undefined): boolean {
  return node?.type === 'html' && /^<!--[\s\S]*-->\s*$/.test(node.value)
}

// What the block after an empty criteria or steps label is called in messages, when it is not a list.
const blockKinds: Partial<Record<RootContent['type'], string>> = {paragraph: 'paragraph', code: 'code', table: 'table', blockquote: 'quote'}

/** The block after an empty criteria or steps label, when it is text the reader cannot take as items. */
function unreadBlock(next: RootContent | undefined, locator: Locator): ContractText | null {
  const kind = next ? blockKinds[next.type] : undefined
  if (!next?.position || !kind) return null
  // A paragraph of labels is the next fields, not text under this one.
  if (next.type === 'paragraph' && splitLines(next.children).some((line) => readLabelLine(line, locator))) return null
  return {kind, text: collapse(toString(next)), position: next.position}
}

function attachList(field: ContractField, list: List): void {
  field.items = listItems(list)
  field.hasList = true
  if (list.position) field.position = {start: field.position.start, end: list.position.end}
}

function splitLines(children: readonly PhrasingContent[]): Segment[][] {
  const lines: Segment[][] = [[]]
  for (const node of children) {
    if (node.type === 'break') {
      lines.push([])
    } else if (node.type === 'text') {
      let from = 0
      // Line endings as markdown counts them: LF, CRLF, or a lone CR.
      const ending = /\r\n?|\n/g
      for (let match = ending.exec(node.value); match; match = ending.exec(node.value)) {
        if (match.index > from) lines[lines.length - 1]!.push({node, from, to: match.index})
        lines.push([])
        from = match.index + match[0].length
      }
      if (node.value.length > from) lines[lines.length - 1]!.push({node, from, to: node.value.length})
    } else {
      lines[lines.length - 1]!.push({node, from: 0, to: 0})
    }
  }
  return lines
}

function readLabelLine(line: Segment[], locator: Locator): ContractField | null {
  const first = line[0]
  if (!first || first.node.type !== 'strong' || !first.node.position) return null
  const strongText = toString(first.node).trim()
  let label: string
  let rest: Segment[]
  let labelEnd: Point = first.node.position.end
  const after = line[1]
  if (strongText.endsWith(':')) {
    label = strongText.slice(0, -1).trim()
    rest = line.slice(1)
  } else if (after && after.node.type === 'text' && after.node.value.slice(after.from).startsWith(':')) {
    label = strongText
    rest = [{...after, from: after.from + 1}, ...line.slice(2)]
    labelEnd = textPoint(after.node, after.from + 1, locator) ?? labelEnd
  } else {
    return null
  }
  if (!labelPattern.test(label)) return null
  const key = resolveFieldKey(label)
  const value = readValue(rest, locator)
  return {
    key,
    label,
    expectedLabel: key ? labelFor(key, 'bold') : null,
    value: value.text,
    dialect: 'bold',
    position: {start: first.node.position.start, end: value.position ? value.position.end : labelEnd},
    labelPosition: labelTextPosition(first.node, label, locator) ?? first.node.position,
    valuePosition: value.position,
    items: [],
    hasList: false,
    unread: []
  }
}

/** A wrapped value goes on in the next line of the paragraph. */
function continueValue(field: ContractField, line: Segment[], locator: Locator): void {
  const more = readValue(line, locator)
  if (!more.position) return
  field.value = field.value ? field.value + ' ' + more.text : more.text
  field.valuePosition = {start: field.valuePosition?.start ?? more.position.start, end: more.position.end}
  field.position = {start: field.position.start, end: more.position.end}
}

/** Exact span of the label text inside `**…**`, so a quick fix replaces only it. */
function labelTextPosition(strong: Nodes, label: string, locator: Locator): Position | null {
  if (!('children' in strong)) return null
  const text = strong.children[0]
  if (strong.children.length !== 1 || text?.type !== 'text' || !text.position) return null
  const start = text.value.indexOf(label)
  const from = textPoint(text, start, locator)
  const to = textPoint(text, start + label.length, locator)
  return start === -1 || !from || !to ? null : {start: from, end: to}
}

function readValue(segments: Segment[], locator: Locator): {text: string; position: Position | null} {
  let text = ''
  let start: Point | undefined
  let end: Point | undefined
  for (const segment of segments) {
    const {node} = segment
    if (node.type === 'text') {
      const part = node.value.slice(segment.from, segment.to)
      const lead = part.length - part.trimStart().length
      const body = part.trim()
      if (body === '') {
        text += part
        continue
      }
      start ??= textPoint(node, segment.from + lead, locator)
      end = textPoint(node, segment.from + lead + body.length, locator) ?? end
      text += part
    } else {
      if (!start) start = node.position?.start
      end = node.position?.end ?? end
      text += inlineText([node])
    }
  }
  const trimmed = text.trim()
  return {text: trimmed, position: start && end && trimmed ? {start, end} : null}
}

function textPoint(node: Text, index: number, locator: Locator): Point | undefined {
  if (!node.position) return undefined
  const point = advance(node.position.start, node.value, index)
  // Markdown drops the white space that starts a continuation line from the text:
  // with the source, count from where the line’s text starts.
  const lineStart = point.line === node.position.start.line ? undefined : locator.lineStart(point.line)
  if (locator.source === null || lineStart === undefined) return point
  const text = /[^\t ]/g
  text.lastIndex = lineStart
  const indent = (text.exec(locator.source)?.index ?? lineStart) - lineStart
  return {line: point.line, column: point.column + indent, offset: lineStart + indent + point.column - 1}
}
