import type {Nodes, PhrasingContent, Text} from 'mdast'
import type {Point, Position} from 'unist'
import {inlineText} from './inline.js'
import {advance} from './locate.js'
import type {Locator} from './locate.js'
import {hasLineEnding} from './text-lines.js'

/** A piece of one line of a paragraph: a whole inline node, or part of a text node. */
export interface Segment {
  node: PhrasingContent
  from: number
  to: number
}

// Labels are short names, not sentences: `**Note that X:**` is emphasis.
export const labelPattern = /^\p{L}[\p{L}\p{N} _\-/&()']{0,39}$/u

/**
 * Whether `text` has the shape of a label (`labelPattern`). Most labels are
 * ASCII, where a letter is `A-Z`/`a-z` and a number `0-9`: those are looked
 * at character by character; any other text goes to the Unicode pattern.
 */
export function isLabelShape(text: string): boolean {
  const length = text.length
  if (length === 0) return false
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index)
    if (code > 0x7f) return labelPattern.test(text)
    const letter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
    if (index === 0 ? !letter : !(letter || labelCharacter[code] === 1)) return false
  }
  return length <= 40
}

// `… -- verified by: …` is the end of a wrapped criterion, its colon the check’s: no label.
const checkLead = /(?:--|—|–)\s*verified by$/i

/** Whether a label is the end of a wrapped criterion (`… -- verified by`): only one ending in `y` can be, the others skip the pattern. */
export function endsWithCheckLead(label: string): boolean {
  const last = label.charCodeAt(label.length - 1)
  return (last === 0x79 || last === 0x59) && checkLead.test(label)
}

// ASCII characters a label may hold after its first letter, besides letters: digits, space, `_-/&()'`.
const labelCharacter = new Uint8Array(128)
for (const character of "0123456789 _-/&()'") labelCharacter[character.charCodeAt(0)] = 1

/** The lines of a paragraph’s inline content, split at line endings and hard breaks. */
export function splitLines(children: readonly PhrasingContent[]): Segment[][] {
  const lines: Segment[][] = [[]]
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!
    if (node.type === 'break') {
      lines.push([])
    } else if (node.type === 'text' && !hasLineEnding(node.value)) {
      // One line of text (most text nodes): no line ending to look for.
      if (node.value.length > 0) lines[lines.length - 1]!.push({node, from: 0, to: node.value.length})
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

/** Whether `splitLines` cuts inline content in more than one line: a hard break, or a text with a line ending. */
export function hasLineBreak(children: readonly PhrasingContent[]): boolean {
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!
    if (node.type === 'break') return true
    if (node.type === 'text' && hasLineEnding(node.value)) return true
  }
  return false
}

/** The text of a line’s segments, as written, and its span (`null` when it is blank). */
export function readValue(segments: Segment[], locator: Locator): {text: string; position: Position | null} {
  let text = ''
  let start: Point | undefined
  let end: Point | undefined
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!
    const node = segment.node
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
      text += inlineText([node as Nodes])
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
export function indentAt(source: string, lineStart: number): number {
  let at = lineStart
  while (at < source.length) {
    const code = source.charCodeAt(at)
    if (code !== 0x09 && code !== 0x20) return at - lineStart
    at++
  }
  return 0
}
