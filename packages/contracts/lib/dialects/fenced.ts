import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'

/** Plain `Field: value` lines (or `**Field:** value`) in a fenced block, items as `- ` lines under their label. */
export const fenced = {
  name: 'fenced',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: () => true,
  prefix: () => 0,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'fenced'>
