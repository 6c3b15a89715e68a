import type {Nodes} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {Point, Position} from 'unist'
import type {Locator} from '../locate.js'
import {isLabelShape, textPoint} from '../segments.js'
import type {Segment} from '../segments.js'
import type {LabelAt, ParagraphDialect} from './dialect.js'
import {isExactTierField} from './dialect.js'

/** `**Verification:** verify` or `**Verification**: verify` at the start of a paragraph line. */
export const bold = {
  name: 'bold',
  reads: 'paragraph',
  labelStyle: 'markdown',
  readLabel: readBoldLabel,
  marksContract: isExactTierField
} as const satisfies ParagraphDialect<'bold'>

function readBoldLabel(line: Segment[], locator: Locator): LabelAt | null {
  const first = line[0]
  if (first?.node.type !== 'strong' || !first.node.position) return null
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
  if (!isLabelShape(label)) return null
  return {label, start: first.node.position.start, labelPosition: labelTextPosition(first.node, label, locator) ?? first.node.position, labelEnd, rest}
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
