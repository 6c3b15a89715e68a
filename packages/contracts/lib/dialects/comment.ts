import type {FenceDialect} from './dialect.js'
import {isFencedContractMark} from './dialect.js'

const commentPrefix = /^\s*\/\/ ?/

/** A fenced block whose every line is a `// ` comment (Go-style): `// Verification: verify`. */
export const comment = {
  name: 'comment',
  reads: 'fence',
  labelStyle: 'markdown',
  claims: (lines) => {
    const written = lines.filter((line) => line.trim() !== '')
    return written.length > 0 && written.every((line) => /^\s*\/\//.test(line))
  },
  prefix: (line) => commentPrefix.exec(line)?.[0].length ?? 0,
  marksContract: isFencedContractMark
} as const satisfies FenceDialect<'comment'>
