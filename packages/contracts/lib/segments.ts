import type {PhrasingContent, Text} from 'mdast'
import type {Point, Position} from 'unist'
import {inlineText} from './inline.js'
import {advance} from './locate.js'
import type {Locator} from './locate.js'

/** A piece of one line of a paragraph: a whole inline node, or part of a text node. */
export interface Segment {
  node: PhrasingContent
  from: number
  to: number
}

// Labels are short names, not sentences: `**Note that X:**` is emphasis.
const labelPattern = /^\p{L}[\p{L}\p{N} _\-/&()']{0,39}$/u

/** Whether `text` has the shape of a label. */
export function isLabelShape(text: string): boolean {
  return labelPattern.test(text)
}

// `… -- verified by: …` is the end of a wrapped criterion, its colon the check’s: no label.
const checkLead = /(?:--|—|–)\s*verified by$/i

/** Whether a label is the end of a wrapped criterion (`… -- verified by`). */
export function endsWithCheckLead(label: string): boolean {
  return checkLead.test(label)
}

/** The lines of a paragraph’s inline content, split at line endings and hard breaks. */
export function splitLines(children: readonly PhrasingContent[]): Segment[][] {
  const lines: Segment[][] = [[]]
  for (const node of children) {
    if (node.type === 'break') {
      lines.push([])
    } else if (node.type === 'text') {
      let from = 0
      // Line endings as markdown counts them: LF, CRLF, or a lone CR.
      for (const ending of node.value.matchAll(/\r\n?|\n/g)) {
        if (ending.index > from) lines[lines.length - 1].push({node, from, to: ending.index})
        lines.push([])
        from = ending.index + ending[0].length
      }
      if (node.value.length > from) lines[lines.length - 1].push({node, from, to: node.value.length})
    } else {
      lines[lines.length - 1].push({node, from: 0, to: 0})
    }
  }
  return lines
}

/** The text of a line’s segments, as written, and its span (`null` when it is blank). */
export function readValue(segments: Segment[], locator: Locator): {text: string; position: Position | null} {
  let text = ''
  let start: Point | undefined
  let end: Point | undefined
  for (const segment of segments) {
    const node = segment.node
    if (node.type === 'text') {
      const part = node.value.slice(segment.from, segment.to)
      text += part
      const body = part.trim()
      if (body === '') continue
      const lead = part.length - part.trimStart().length
      start ??= textPoint(node, segment.from + lead, locator)
      end = textPoint(node, segment.from + lead + body.length, locator) ?? end
    } else {
      start ??= node.position?.start
      end = node.position?.end ?? end
      text += inlineText([node])
    }
  }
  const trimmed = text.trim()
  return {text: trimmed, position: start && end && trimmed ? {start, end} : null}
}

/** Point of character `index` of a text node. */
export function textPoint(node: Text, index: number, locator: Locator): Point | undefined {
  if (!node.position) return undefined
  const point = advance(node.position.start, node.value, index)
  // Markdown drops the white space that starts a continuation line from the text:
  // with the source, count from where the line’s text starts.
  const lineStart = point.line === node.position.start.line ? undefined : locator.lineStart(point.line)
  if (locator.source === null || lineStart === undefined) return point
  const indent = indentAt(locator.source, lineStart)
  return {line: point.line, column: point.column + indent, offset: lineStart + indent + point.column - 1}
}

/** Tabs and spaces from `lineStart` up to the next other character; `0` when only tabs and spaces follow, up to the end. */
function indentAt(source: string, lineStart: number): number {
  const other = /[^\t ]/g
  other.lastIndex = lineStart
  const at = other.exec(source)?.index
  return at === undefined ? 0 : at - lineStart
}
