import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'

const commentPrefix = /^\s*\/\/ ?/

/** A fenced block whose every line is a `// ` comment (Go-style): `// Verification: verify`. */
export const comment = {
  name: 'comment',
  reads: 'fence',
  labelStyle: 'markdown',
  // Every line that is not blank is a comment, and there is one: looked at in place, as most blocks are code that is not.
  claims: (lines) => {
    let written = false
    for (const line of lines) {
      if (!/\S/.test(line)) continue
      if (!/^\s*\/\//.test(line)) return false
      written = true
    }
    return written
  },
  prefix: (line) => commentPrefix.exec(line)?.[0].length ?? 0,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
