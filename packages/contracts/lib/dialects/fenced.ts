import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {LineEnds, hasColon, mayStartWord} from '../text-lines.js'

/** Plain `Field: value` lines (or `**Field:** value`) in a fenced block, items as `- ` lines under their label. */
export const fenced = {
  name: 'fenced',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: () => true,
  prefix: () => 0,
  mayHoldLabel: mayHoldFencedLabel,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'fenced'>

/** Whether a line starts with a label (a letter) or `**`, and has a colon: looked at in place, line by line. */
function mayHoldFencedLabel(value: string): boolean {
  const lineEnds = new LineEnds(value)
  for (let start = 0; ; ) {
    const end = lineEnds.from(start)
    if (mayStartWord(value.charCodeAt(start)) && hasColon(value, start, end)) return true
    if (end >= value.length) return false
    start = end + 1
  }
}
