import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'

// Fences of prose or data, where `Field: value` lines are written as such. A fence of code (`js`, `go`) holds
// code, whose lines may look like fields (`**Verification:** verify` in a string): only its comments are read.
const proseLanguages = new Set(['text', 'txt', 'plain', 'plaintext', 'yaml', 'yml', 'contract'])

/** Plain `Field: value` lines (or `**Field:** value`) in a fenced block of no language or of text, items as `- ` lines under their label. */
export const fenced = {
  name: 'fenced',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: (_lines, lang) => lang === null || proseLanguages.has(lang.toLowerCase()),
  prefix: () => 0,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'fenced'>
