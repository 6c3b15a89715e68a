import type {Root, RootContent} from 'mdast'
import {parseContractHeading} from './heading.js'
import type {Locator} from './locate.js'
import type {ContractProblem} from './types.js'

// A line a person reads as a contract heading: hashes, maybe after indentation, list markers or
// quote marks, maybe with no space after them.
const headingLike = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)]|>)[ \t]*)*(#{1,6})[ \t]*(.*?)[ \t]*#*[ \t]*$/

// What hides a heading, by the block it fell into.
const hiddenIn: Partial<Record<RootContent['type'], string>> = {
  html: 'inside HTML',
  code: 'inside a code block that is indented or never closed',
  paragraph: 'in a paragraph (no space after `#`, or no blank line before it)',
  list: 'in a list item',
  blockquote: 'in a quote',
  table: 'in a table'
}

/**
 * Lines that look like contract headings (`### C-02: Checkout`) but that
 * markdown did not read as headings of the document: after an HTML line, in
 * an unclosed block, indented, with no space after the hashes, in a list or
 * a quote. Each is a problem, so no contract goes unread in silence. A fenced
 * block that closes is an example, and its lines are left alone. Needs the
 * file’s text.
 */
export function findUnreadHeadings(tree: Root, locator: Locator): ContractProblem[] {
  const source = locator.source
  if (source === null) return []
  const problems: ContractProblem[] = []
  const lines = source.split(/\r\n?|\n/)
  for (const node of tree.children) {
    const where = hiddenIn[node.type]
    if (!where || !node.position) continue
    if (node.type === 'code' && isClosedFence(lines, node.position.start.line, node.position.end.line)) continue
    for (let line = node.position.start.line; line <= node.position.end.line; line++) {
      const text = lines[line - 1] ?? ''
      const match = headingLike.exec(text)
      if (!match || !parseContractHeading(match[2] ?? '')) continue
      const start = locator.lineStart(line)
      const column = text.length - text.trimStart().length + 1
      const end = text.trimEnd().length + 1
      problems.push({
        kind: 'unread-heading',
        subject: text.trim(),
        part: 'field',
        actual: where,
        expected: 'a heading on a line of its own, with a blank line before it',
        place: {
          start: {line, column, ...(start === undefined ? {} : {offset: start + column - 1})},
          end: {line, column: end, ...(start === undefined ? {} : {offset: start + end - 1})}
        }
      })
    }
  }
  return problems
}

/** A fenced block whose closing fence is there: its lines are an example. */
function isClosedFence(lines: readonly string[], first: number, last: number): boolean {
  const open = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(lines[first - 1] ?? '')
  if (!open || last === first) return false
  const fence = open[1]!
  const close = (lines[last - 1] ?? '').trim()
  return close.startsWith(fence.charAt(0).repeat(fence.length)) && /^(`+|~+)$/.test(close)
}
