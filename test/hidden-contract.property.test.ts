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
import type {Arbitrary} from 'fast-check'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {text} from './fuzz/arbitraries.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const seed = process.env.FUZZ_SEED === undefined ? 22 : Number(process.env.FUZZ_SEED)
// `FUZZ_RUNS` sets the count outright (`npm run fuzz` runs 100,000); `FUZZ_SCALE` multiplies the 200 of CI.
const numRuns = process.env.FUZZ_RUNS === undefined ? Math.max(1, Math.round(200 * scale)) : Number(process.env.FUZZ_RUNS)

// ---------------------------------------------------------------------------
// The prefix: blocks of markdown and HTML, each ended by a line break or a blank line.

const prose: Arbitrary<string> = fc.oneof(
  fc.constantFrom('Some text about the cart.', 'See the mockup below:', '## Notes', '---', '| a | b |\n| - | - |\n| 1 | 2 |'),
  text
)
const list = fc.constantFrom('- one\n- two', '* item', '1. first', '- item\n\n  continued', '- [ ] task')
const quote = fc.constantFrom('> quoted', '> quoted\n> more', '> - in a list')
const closedBlock = fc.constantFrom(
  '```markdown\n### C-99: Example\n\n**Verification:** auto\n```',
  '~~~sh\nnpm test\n~~~',
  '<!-- a note -->',
  '<div>\n\ninside\n\n</div>',
  '<details>\n<summary>More</summary>\n\nHidden text.\n\n</details>',
  '<pre>\ncode\n</pre>'
)
const htmlLine = fc.constantFrom(
  '<img src="mockup.png">',
  '<img src="a.png" alt="A">',
  '<br>',
  '<br/>',
  '</div>',
  '<p>',
  '<div class="note">',
  '<details>',
  '<summary>x</summary>',
  '<table>',
  '<b>bold</b> text',
  '<span>',
  '<a href="x">',
  '<!-- note -->',
  '<hr>',
  '<center>'
)
const unclosed = fc.constantFrom(
  '<!--',
  '<!-- draft',
  '```',
  '~~~',
  '````',
  '```js',
  '~~~ text',
  '<script>',
  '<script type="module">',
  '<pre>',
  '<style>',
  '<textarea>',
  '<?php',
  '<![CDATA[',
  '<!DOCTYPE html'
)
const otherContract = fc
  .tuple(fc.integer({min: 1, max: 6}), fc.integer({min: 1, max: 99}), fc.constantFrom('auto', 'verify'))
  .map(([depth, number, tier]) => `${'#'.repeat(depth)} C-${number}: Other\n\n**Verification:** ${tier}`)

const block: Arbitrary<string> = fc.oneof(
  {weight: 3, arbitrary: prose},
  {weight: 2, arbitrary: list},
  {weight: 2, arbitrary: quote},
  {weight: 2, arbitrary: closedBlock},
  {weight: 4, arbitrary: htmlLine},
  {weight: 1, arbitrary: unclosed},
  {weight: 2, arbitrary: otherContract}
)

const prefix: Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', '', '---\ntitle: Contracts\n---\n\n', '---\ntitle: Contracts\n'),
    fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n')), {maxLength: 5})
  )
  .map(([frontmatter, blocks]) => frontmatter + blocks.map(([value, end]) => value + end).join(''))

// ---------------------------------------------------------------------------
// The heading: what stands before it on its line, its marks, and its id.

const linePrefix = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom('', ' ', '   ')},
  {
    weight: 1,
    arbitrary: fc.constantFrom('    ', '\t', '- ', '* ', '1. ', '> ', '> - ', '- > ', '<b>', '<span>', '<!-- ', '\u00a0', '\u200b', '\u3000', ' \u00a0')
  }
)
const dash = fc.constantFrom('-', '-', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\ufe63', '\uff0d')
const letters = fc.constantFrom('C', 'C', 'c', 'AUTH', 'Group', 'REQ', 'ÉTÉ', 'Ω')

interface Heading {
  line: string
  /** What names the contract in a report: its id, or its name. */
  key: string
}

const idHeading: Arbitrary<Heading> = fc
  .tuple(letters, fc.option(dash, {freq: 4}), fc.integer({min: 0, max: 999}), fc.constantFrom(': ', '. ', ' — ', ' – ', ' ', ''))
  .map(([head, separator, number, after]) => {
    const id = head + (separator ?? '') + String(number).padStart(2, '0')
    // Without a dash, an id is one only before a colon or period (`C2: Name`).
    const end = separator === null && !/^[:.]/.test(after) ? ': ' : after
    return {line: id + end + (end === '' ? '' : 'Checkout'), key: id}
  })
  .chain(({line, key}) =>
    // Emphasis or code around the id.
    fc.constantFrom('', '', '', '**', '_', '`').map((wrap) => ({line: wrap === '' ? line : line.replace(key, wrap + key + wrap), key}))
  )
const namedHeading: Arbitrary<Heading> = fc
  .constantFrom('Contract: Checkout', 'contract: Checkout', 'Contract:Checkout', 'CONTRACT : Checkout')
  .map((line) => ({line, key: 'Checkout'}))

const heading = fc
  .tuple(linePrefix, fc.oneof({weight: 9, arbitrary: fc.integer({min: 1, max: 6})}, fc.constant(7)),
    fc.oneof({weight: 6, arbitrary: fc.constant(' ')}, fc.constantFrom('', '  ', '\t', '\u00a0')), fc.oneof({weight: 4, arbitrary: idHeading}, namedHeading))
  .chain(([before, depth, space, {line, key}]) =>
    fc.constantFrom('#', '#', '#', '#', '#', '\uff03').map((mark) => ({line: before + mark.repeat(depth) + space + line, key}))
  )

const criterion = 'Paying with a saved card needs no retyping'

const document = fc.tuple(prefix, heading).map(([start, {line, key}]) => ({
  value: start + line + '\n\n**Verification:** verify\n**Acceptance Criteria:**\n- ' + criterion + '\n',
  line: start.split('\n').length,
  key
}))

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
      contract.headingPosition.start.line === line &&
      contract.effectiveTier === 'verify' &&
      contract.criteria.some((item) => item.text.includes(criterion))
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
