/**
 * Markdown nested to any depth, in any mix of emphasis, links, quotes and
 * list markers: the contract reader returns the contracts or refuses the file
 * with a `ProjectError` naming its line, and never overflows the stack.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {ProjectError} from '../lib/errors.js'
import {maxMarkdownDepth, nodeBeyondDepth} from '../../graph/lib/depth.js'
import type {TreeNode} from '../../graph/lib/depth.js'
import {parseContracts} from '../lib/parse.js'

const contract = '### C-01: Checkout\n\n**Verification:** verify\n\n**Acceptance Criteria:**\n- The total shows the tax\n\n'
/**
 * What opens one level of nesting, and what closes it (empty when nothing
 * does). Thousands of `**` or list markers take remark-parse minutes: the
 * parse deadline's tests cover those.
 */
const openers: Array<[string, string]> = [
  ['*', '*'],
  ['_', '_'],
  ['[', '](x)'],
  ['> ', '']
]

describe('parseContracts on nested markdown', () => {
  it('reads the contract or names the line, at any depth', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...openers), {minLength: 1, maxLength: 4}), fc.integer({min: 1, max: 6000}), (kinds, depth) => {
        let nested = 'deep'
        for (let level = 0; level < depth; level++) {
          const [open, close] = kinds[level % kinds.length]!
          nested = open + nested + close
        }
        let outcome: string
        try {
          outcome = parseContracts('CONTRACTS.md', contract + nested + '\n')[0]!.criteria[0]!.text
        } catch (error) {
          expect(error).toBeInstanceOf(ProjectError)
          outcome = (error as ProjectError).message
        }
        expect([
          'The total shows the tax',
          `CONTRACTS.md:8: Unexpected markdown nested over ${maxMarkdownDepth} levels deep (emphasis, lists or quotes), expected at most ${maxMarkdownDepth}`
        ]).toContain(outcome)
      }),
      {numRuns: 15}
    )
  })

  it('finds the first node past the limit with a loop, at depths a recursive walk cannot reach', () => {
    // levels[d] is the node at depth d.
    const leaf: TreeNode = {position: {start: {line: 7}}}
    const levels: TreeNode[] = [leaf]
    for (let level = 0; level < 200_000; level++) levels.push({children: [levels.at(-1)!]})
    levels.reverse()
    expect(nodeBeyondDepth(levels[0]!)).toBe(levels[maxMarkdownDepth + 1])
    expect(nodeBeyondDepth(levels[0]!, 199_999)).toBe(leaf)
    expect(nodeBeyondDepth(levels[0]!, 200_000)).toBeNull()
  })
})
