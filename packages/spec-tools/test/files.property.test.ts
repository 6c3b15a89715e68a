/**
 * A tool's file is found by a shortcut: only a path that may be one (ending
 * in `spec.md`, `requirements.md`, …, or in a BMAD folder) is matched
 * against the path patterns. The shortcut finds what the patterns alone find, for any
 * path around the tools' shapes, with either separator.
 */
import path from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {fileDialectOf, fileDialects} from '../lib/files.js'

describe('tool files', () => {
  it('are found by their path as every path pattern finds them', () => {
    const segment = fc.constantFrom(
      'openspec',
      'changes',
      'archive',
      'specs',
      'feature',
      '001-name',
      '.kiro',
      'spec.md',
      'requirements.md',
      'Spec.md',
      'spec.md.bak',
      'my-spec.md',
      'x',
      '_bmad-output',
      'implementation-artifacts',
      '1-2-story.md',
      'story.md.bak'
    )
    // Paths around the tools' shapes: a shape with segments added before or after, or its first dropped.
    const shape = fc.constantFrom(
      ['openspec', 'changes', 'x', 'specs', 'feature', 'spec.md'],
      ['openspec', 'specs', 'feature', 'spec.md'],
      ['specs', '001-name', 'spec.md'],
      ['.kiro', 'specs', 'feature', 'requirements.md'],
      ['_bmad-output', 'implementation-artifacts', '1-2-story.md'],
      []
    )
    const segments = fc
      .tuple(fc.array(segment, {maxLength: 3}), shape, fc.array(segment, {maxLength: 2}), fc.boolean())
      .map(([before, known, after, drop]) => [...before, ...(drop ? known.slice(1) : known), ...after])
    fc.assert(
      fc.property(segments, fc.constantFrom('/', path.sep), (segments, separator) => {
        const file = separator + segments.join(separator)
        const posix = file.split(path.sep).join('/')
        const expected = fileDialects.map((dialect) => ({dialect, match: dialect.path.exec(posix)})).find((found) => found.match !== null) ?? null
        expect(fileDialectOf(file)).toEqual(expected)
      }),
      {numRuns: 1000}
    )
  })
})
