import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {firstNonWhiteSpace, hasColon, isWhiteSpaceCode, lineEndIn} from '../text-lines.js'


/**
 * Where a line's `//` starts, after white space only (`-1` when the line is
 * blank or starts otherwise): what `/^\s*\/\//` looks for, found without
 * a match object, as every line of every fenced block is asked.
 */
function commentStart(line: string): number {
  const start = firstNonWhiteSpace(line)
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
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!
      if (firstNonWhiteSpace(line) === -1) continue
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
  // A label line is a comment with a colon after its `//`; a block with a line of anything else (before one) is not this dialect's.
  mayHoldLabel: (value) => {
    const lineFeedsOnly = !value.includes('\r')
    for (let start = 0; ; ) {
      const end = lineEndIn(value, start, lineFeedsOnly)
      let at = start
      while (at < end && isWhiteSpaceCode(value.charCodeAt(at))) at++
      if (at !== end) {
        // A line of anything but a comment, before a label: not this dialect's block.
        if (!value.startsWith('//', at)) return false
        if (hasColon(value, at + 2, end)) return true
      }
      if (end >= value.length) return false
      start = end + 1
    }
  },
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
