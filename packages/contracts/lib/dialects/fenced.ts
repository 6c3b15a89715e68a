import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {firstLineAnswer, hasColon, mayStartWord} from '../text-lines.js'

/** A line that starts with a letter or `**` and has a colon may be a label line; other lines say nothing. */
function labelLineAnswer(value: string, start: number, end: number): true | undefined {
  return mayStartWord(value.charCodeAt(start)) && hasColon(value, start, end) ? true : undefined
}

/** Plain `Field: value` lines (or `**Field:** value`) in a fenced block, items as `- ` lines under their label. */
export const fenced = {
  name: 'fenced',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: () => true,
  prefix: () => 0,
  // A label line starts with its label (a letter) or `**`, and has a colon.
  mayHoldLabel: (value) => firstLineAnswer(value, labelLineAnswer),
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'fenced'>
