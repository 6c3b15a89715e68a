import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {firstLineAnswer, firstNonWhiteSpace, hasColon, isWhiteSpaceCode} from '../text-lines.js'

/**
 * Where a line's `//` starts, after white space only (`-1` when the line is
 * blank or starts otherwise): what `/^\s*\/\//` looks for, found without
 * a match object, as every line of every fenced block is asked.
 */
function commentStart(line: string): number {
  const start = firstNonWhiteSpace(line)
  return start !== -1 && line.startsWith('//', start) ? start : -1
}

/**
 * A comment with a colon after its `//` may be a label line (`true`); a line
 * of anything but a comment, before one, makes the block not this dialect's
 * (`false`); blank lines and comments without a colon say nothing.
 */
function commentLabelAnswer(value: string, start: number, end: number): boolean | undefined {
  let at = start
  while (at < end && isWhiteSpaceCode(value.charCodeAt(at))) at++
  if (at === end) return undefined
  if (!value.startsWith('//', at)) return false
  return hasColon(value, at + 2, end) ? true : undefined
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
  mayHoldLabel: (value) => firstLineAnswer(value, commentLabelAnswer),
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
