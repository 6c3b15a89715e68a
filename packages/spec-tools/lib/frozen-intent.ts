/**
 * BMAD's `<frozen-after-approval>` block: the intent of a spec that only
 * the person may change once they approved it, read as text blocks.
 */
import type {Nodes, Root} from 'mdast'
import type {Point, Position} from 'unist'
import {collapse, inlineText, lastLineOf} from '@verification-tiers/contracts'
import type {ContractIntent, ContractItem} from '@verification-tiers/contracts'
import {parseMarkdownText} from './markdown.js'
import type {FileProblem} from './types.js'

// The tags on a line of their own (up to three spaces before), with any attributes.
const opening = /^ {0,3}<frozen-after-approval(?:\s[^>]*)?>/i
const closing = /^ {0,3}<\/frozen-after-approval\s*>/i

/** The frozen block of a file, `null` when it has none, and what is wrong with its tags. */
export interface FrozenIntent {
  intent: ContractIntent | null
  problems: FileProblem[]
}

/**
 * The `<frozen-after-approval>` block of `text` (`tree` its parse): each
 * heading, paragraph, list item and table row inside as one item with its
 * line, however blank lines split the block. Tags in code are no tags. An
 * unclosed block (read to the end of the file), a second block (read too)
 * and a closing tag without its opening one are problems at their line.
 */
export function readFrozenIntent(file: string, text: string, tree: Root): FrozenIntent {
  const inCode = codeLines(tree)
  const problems: FileProblem[] = []
  const lines = text.split('\n')
  const segments: Array<{from: number; to: number}> = []
  let position: Position | null = null
  let open: {line: number; offset: number} | null = null
  let offset = 0
  for (const [index, line] of lines.entries()) {
    const number = index + 1
    const start = offset
    offset += line.length + 1
    if (inCode(number)) continue
    const tag = opening.exec(line)
    if (tag) {
      if (open) segments.push({from: open.offset, to: start})
      if (open || position)
        problems.push({file, line: number, message: 'Unexpected second `<frozen-after-approval>` block, expected one block of the intent a person approved'})
      open = {line: number, offset: start + tag[0].length}
      position ??= {start: point(number, 1, start), end: point(number, line.length + 1, start + line.length)}
      continue
    }
    if (!closing.test(line)) continue
    if (!open) {
      problems.push({
        file,
        line: number,
        message: 'Unexpected `</frozen-after-approval>` without its opening tag, expected `<frozen-after-approval>` before it'
      })
      continue
    }
    segments.push({from: open.offset, to: start})
    if (position && segments.length === 1) position = {start: position.start, end: point(number, line.length + 1, start + line.length)}
    open = null
  }
  if (open) {
    segments.push({from: open.offset, to: text.length})
    if (position && segments.length === 1) position = {start: position.start, end: point(lines.length, lines.at(-1)!.length + 1, text.length)}
    problems.push({
      file,
      line: open.line,
      message: 'Unexpected `<frozen-after-approval>` without its closing tag, expected `</frozen-after-approval>` on a line of its own'
    })
  }
  if (!position) return {intent: null, problems}
  return {intent: {position, items: segments.flatMap((segment) => itemsOf(text, segment.from, segment.to))}, problems}
}

/** The items of `text` between two offsets, parsed alone, with their positions in the whole text. */
function itemsOf(text: string, from: number, to: number): ContractItem[] {
  const before = text.slice(0, from)
  const lineBreaks = before.split('\n').length - 1
  const firstColumn = from - (before.lastIndexOf('\n') + 1)
  // Line breaks stand for what comes before, so lines are the file's; offsets and the first line's columns are shifted back.
  const tree = parseMarkdownText('\n'.repeat(lineBreaks) + text.slice(from, to))
  const place = (at: Point): Point => ({
    line: at.line,
    column: at.column + (at.line === lineBreaks + 1 ? firstColumn : 0),
    offset: (at.offset ?? 0) + from - lineBreaks
  })
  const items: ContractItem[] = []
  const add = (value: string, node: Nodes) => {
    if (value !== '' && node.position) items.push({text: value, position: {start: place(node.position.start), end: place(node.position.end)}, check: null})
  }
  const visit = (node: Nodes): void => {
    if (node.type === 'heading') add(`${'#'.repeat(node.depth)} ${textOf(node)}`, node)
    else if (node.type === 'paragraph') add(textOf(node), node)
    else if (node.type === 'tableRow') add(node.children.map(textOf).join(' | '), node)
    else if (node.type === 'code' || node.type === 'html') add(collapse(node.value), node)
    else if (node.type === 'listItem' && node.children[0]?.type === 'paragraph') {
      const [first, ...rest] = node.children
      add(textOf(first), node)
      for (const child of rest) visit(child)
    } else if ('children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(tree)
  return items
}

function textOf(node: Nodes): string {
  return collapse(inlineText('children' in node ? (node.children as Nodes[]) : []))
}

/** Whether a line is inside a code block of the file: a tag there is an example, not the block. */
function codeLines(tree: Root): (line: number) => boolean {
  const spans: Array<[number, number]> = []
  const visit = (node: Nodes): void => {
    if (node.type === 'code' && node.position) spans.push([node.position.start.line, lastLineOf(node.position)])
    else if ('children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(tree)
  return (line) => spans.some(([from, to]) => from <= line && line <= to)
}

function point(line: number, column: number, offset: number): Point {
  return {line, column, offset}
}
