import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'
import {hasColon, someLine} from '../text-lines.js'

const notWhiteSpace = /\S/
const whiteSpace = /\s/

/** Whether a character is white space as `\s` counts it. */
function isWhiteSpaceCode(code: number): boolean {
  // Most characters are ASCII, where only tab to carriage return and the space are.
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  return whiteSpace.test(String.fromCharCode(code))
}

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
  // A label line is a comment with a colon after its `//`; a block with a line of anything else is not this dialect's.
  mayHoldLabel: (value) => {
    let found = false
    someLine(value, (start, end) => {
      let at = start
      while (at < end && isWhiteSpaceCode(value.charCodeAt(at))) at++
      if (at === end) return false
      if (!value.startsWith('//', at)) return true
      if (hasColon(value, at + 2, end)) found = true
      return false
    })
    return found
  },
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
