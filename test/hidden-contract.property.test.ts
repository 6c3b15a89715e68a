/**
 * No contract is hidden silently. For any document made of a prefix
 * (markdown, HTML lines, blocks left unclosed, other contracts, lists,
 * quotes, indentation) and then a verify contract with one criterion under a
 * heading written in any of the ways a person reads as one (an id of any
 * shape, any dash, behind any markup on its line), either the reader reads
 * that contract with its criterion, or `findUnreadContracts` names its line.
 *
 * Seeds are fixed, so a run is reproducible. CI runs 200 documents; `npm run
 * fuzz` runs 100,000 (`FUZZ_RUNS`); `FUZZ_SEED` picks other seeds.
 */
import {extractContracts, findUnreadContracts} from '@verification-tiers/contracts'
import fc from 'fast-check'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {criterion, hiddenContractDocument} from './fuzz/hidden-contract.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const seed = process.env.FUZZ_SEED === undefined ? 22 : Number(process.env.FUZZ_SEED)
// `FUZZ_RUNS` sets the count outright (`npm run fuzz` runs 100,000); `FUZZ_SCALE` multiplies the 200 of CI.
const numRuns = process.env.FUZZ_RUNS === undefined ? Math.max(1, Math.round(200 * scale)) : Number(process.env.FUZZ_RUNS)

const document = hiddenContractDocument()

// ---------------------------------------------------------------------------

interface Outcome {
  read: boolean
  reported: boolean
}

function outcome(value: string, line: number, key: string): Outcome {
  const file = new VFile({path: 'CONTRACTS.md', value})
  const tree: Root = unified().use(remarkParse).use(remarkFrontmatter).parse(file)
  const contracts = extractContracts(tree, file)
  const read = contracts.some(
    (contract) =>
      contract.headingPosition.start.line === line && contract.effectiveTier === 'verify' && contract.criteria.some((item) => item.text.includes(criterion))
  )
  const reported = findUnreadContracts(value, tree, contracts).some(
    (unread) => unread.place.start.line === line && unread.text.includes(key) && unread.reason !== ''
  )
  return {read, reported}
}

describe('no contract is hidden silently', () => {
  it(
    `a verify contract after any prefix is read with its criterion, or its line is reported (${numRuns} documents)`,
    () => {
      fc.assert(
        fc.property(document, ({value, line, key}) => {
          const {read, reported} = outcome(value, line, key)
          return read || reported
        }),
        {seed, numRuns}
      )
    },
    60_000 * Math.max(1, numRuns / 2000)
  )

  it('has documents of each kind: read, and hidden by markup', () => {
    // A property that holds because every contract is read, or every one hidden, tests little.
    const samples = fc.sample(document, {seed, numRuns: 400})
    const outcomes = samples.map(({value, line, key}) => outcome(value, line, key))
    expect(outcomes.filter((entry) => entry.read).length).toBeGreaterThan(40)
    expect(outcomes.filter((entry) => !entry.read && entry.reported).length).toBeGreaterThan(40)
  })
})
