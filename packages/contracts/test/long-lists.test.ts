/**
 * A list too long to spread into `push` (past about 120,000 values, arguments
 * throw) is read whole: every criterion of a contract whose list is that long.
 */
import {analyzeContracts} from '@verification-tiers/contracts'
import fc from 'fast-check'
import type {List, Root} from 'mdast'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {describe, expect, it} from 'vitest'
import {appendAll} from '../lib/append.js'

/** A parsed document whose one list (of one item) is made `length` items long: the same item, over and over. */
function withLongList(markdown: string, length: number): Root {
  const tree = unified().use(remarkParse).parse(markdown)
  const list = tree.children.find((node): node is List => node.type === 'list')!
  list.children = Array.from({length}, () => list.children[0]!)
  return tree
}

describe('appendAll', () => {
  it('appends every value, in order, past the bound of spread arguments', () => {
    const length = 150_000
    const target = [-1]
    appendAll(
      target,
      Array.from({length}, (_, index) => index)
    )
    expect(target.length).toBe(length + 1)
    expect([target[0], target[1], target[length]]).toEqual([-1, 0, length - 1])
  })
})

describe('a contract with a very long list', () => {
  it('has every criterion, in the bold and the plain dialect', () => {
    fc.assert(
      fc.property(fc.integer({min: 1, max: 200_000}), fc.constantFrom('**Acceptance Criteria:**', 'Acceptance Criteria:'), (length, label) => {
        const tree = withLongList(`### C-1: Long\n\n**Verification:** verify\n\n${label}\n\n- the page loads\n`, length)
        const [contract] = analyzeContracts(tree).contracts
        expect(contract!.criteria.length).toBe(length)
        expect(contract!.criteria[length - 1]!.text).toBe('the page loads')
      }),
      {numRuns: 6, examples: [[150_000, '**Acceptance Criteria:**']]}
    )
  })
})
