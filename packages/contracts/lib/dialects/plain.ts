import {resolveFieldKey} from '../fields.js'
import type {Locator} from '../locate.js'
import {endsWithCheckLead, isLabelShape, textPoint} from '../segments.js'
import type {Segment} from '../segments.js'
import type {LabelAt, ParagraphDialect} from './dialect.js'
import {isStrictTierField} from './dialect.js'

/**
 * `Verification: auto` at the start of a paragraph line, outside any fence.
 * Prose has colons too, so only a known label (or a near miss of one) starts
 * a field here; other `Words: …` lines are text.
 */
export const plain = {
  name: 'plain',
  reads: 'paragraph',
  labelStyle: 'markdown',
  readLabel: readPlainLabel,
  // Prose may start a line with `Steps:` or `Tier: Pro`: only a valid tier or criteria make a contract.
  marksContract: isStrictTierField
} as const satisfies ParagraphDialect<'plain'>

function readPlainLabel(line: Segment[], locator: Locator): LabelAt | null {
  const first = line[0]
  if (first?.node.type !== 'text') return null
  const text = first.node.value.slice(first.from, first.to)
  // A label has no colon of its own, so the first colon ends it.
  const colon = text.indexOf(':')
  if (colon < 1 || colon > 60) return null
  const after = text.slice(colon + 1)
  if (after !== '' && !/^\s/.test(after)) return null
  const written = text.slice(0, colon)
  const lead = written.length - written.trimStart().length
  const label = written.trim()
  if (!isLabelShape(label) || endsWithCheckLead(label) || resolveFieldKey(label) === null) return null
  const start = textPoint(first.node, first.from + lead, locator)
  const end = textPoint(first.node, first.from + lead + label.length, locator)
  const labelEnd = textPoint(first.node, first.from + colon + 1, locator)
  if (!start || !end || !labelEnd) return null
  return {label, start, labelPosition: {start, end}, labelEnd, rest: [{...first, from: first.from + colon + 1}, ...line.slice(1)]}
}
