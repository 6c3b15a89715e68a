import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {hasColon, someLine} from '../text-lines.js'

const notWhiteSpace = /\S/

/**
 * Where a line's `//` starts, after white space only (`-1` when the line is
 * blank or starts otherwise): what `/^\s*\/\//` looks for, found without
 * a match object, as every line of every fenced block is asked.
 */
function commentStart(line: string): number {
  const start = line.search(notWhiteSpace)
  return start !== -1 && line.startsWith('//', start) ? start : -1
}

/** A fenced block whose every line is a `// ` comment (Go-style): `// Verification: verify`. */
export const comment = {
  name: 'comment',
  reads: 'fence',
  labelStyle: 'markdown',
  // Every line that is not blank is a comment, and there is one: looked at in place, as most blocks are code that is not.
  claims: (lines) => {
    let written = false
    for (const line of lines) {
      if (!notWhiteSpace.test(line)) continue
      if (commentStart(line) === -1) return false
      written = true
    }
    return written
  },
  // `//` and one space after it, behind any white space.
  prefix: (line) => {
    const start = commentStart(line)
    if (start === -1) return 0
    return start + (line.charCodeAt(start + 2) === 0x20 ? 3 : 2)
  },
  // A label line is a comment with a colon after its `//`.
  mayHoldLabel: (value) =>
    someLine(value, (start, end) => {
      const slashes = value.indexOf('//', start)
      return slashes !== -1 && slashes < end && hasColon(value, slashes + 2, end)
    }),
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
