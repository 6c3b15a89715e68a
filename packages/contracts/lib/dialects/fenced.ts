import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {hasColon, lineEndIn, mayStartWord} from '../text-lines.js'

/** Plain `Field: value` lines (or `**Field:** value`) in a fenced block, items as `- ` lines under their label. */
export const fenced = {
  name: 'fenced',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: () => true,
  prefix: () => 0,
  // A label line starts with its label (a letter) or `**`, and has a colon.
  mayHoldLabel: (value) => {
    const lineFeedsOnly = !value.includes('\r')
    for (let start = 0; ; ) {
      const end = lineEndIn(value, start, lineFeedsOnly)
      if (mayStartWord(value.charCodeAt(start)) && hasColon(value, start, end)) return true
      if (end >= value.length) return false
      start = end + 1
    }
  },
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'fenced'>
