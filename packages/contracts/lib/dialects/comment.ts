import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'

const commentLine = /^\s*\/\//

/** A fenced block whose every line is a `// ` comment (Go-style): `// Verification: verify`. */
export const comment = {
  name: 'comment',
  reads: 'fence',
  labelStyle: 'markdown',
  // Every line that is not blank is a comment, and there is one.
  claims: (lines) => lines.some((line) => /\S/.test(line)) && lines.every((line) => !/\S/.test(line) || commentLine.test(line)),
  // `//` and one space after it, behind any white space.
  prefix: (line) => /^\s*\/\/ ?/.exec(line)?.[0].length ?? 0,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
