/**
 * No criterion is dropped in silence: under an Acceptance Criteria or Steps
 * label (spec-kit's Acceptance Scenarios too), whatever blocks follow up to
 * the next label (lists of any bullet or number, tables, a sub-heading and
 * its list, quotes, prose), every line that looks like a criterion is read
 * as an item or named in the field's `unread` at its line, in every dialect;
 * prose after a list is never named, and nothing after the next label is
 * taken as a criterion.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {Contract, ContractItem, ContractText} from '@verification-tiers/contracts'
import {asStory, parseMarkdownText, readStories} from '@verification-tiers/spec-tools'
import {VFile} from 'vfile'
import {analyzeContracts} from '../lib/extract.js'
import {parse} from './helpers.js'

type Marker = '-' | '*' | '+' | '1.' | '1)' | '3.' | '10)'

type Block =
  | {kind: 'list'; marker: Marker; items: number}
  | {kind: 'section'; depth: number; title: string; marker: Marker; items: number}
  | {kind: 'table'; rows: number}
  | {kind: 'quote'}
  | {kind: 'prose'}
  | {kind: 'aside'; form: 'code' | 'comment' | 'rule'}

type Dialect = 'bold' | 'plain' | 'fenced' | 'comment' | 'frontmatter' | 'spec-kit'

interface Scenario {
  dialect: Dialect
  steps: boolean
  tables: boolean
  blocks: Block[]
  /** No blank line between the label and the first block (a list, a quote or a sub-heading may start right under it). */
  tight: boolean
  /** A label after the blocks, with a list of its own: the criteria end there. */
  closed: boolean
}

const marker = fc.constantFrom<Marker>('-', '*', '+', '1.', '1)', '3.', '10)')
const items = fc.integer({min: 1, max: 3})
const block: fc.Arbitrary<Block> = fc.oneof(
  fc.record({kind: fc.constant('list' as const), marker, items}),
  fc.record({
    kind: fc.constant('section' as const),
    depth: fc.integer({min: 4, max: 6}),
    title: fc.constantFrom('Edge cases', 'Errors', 'When offline'),
    marker,
    items
  }),
  fc.record({kind: fc.constant('table' as const), rows: fc.integer({min: 1, max: 3})}),
  fc.constant({kind: 'quote' as const}),
  fc.constant({kind: 'prose' as const}),
  fc.record({kind: fc.constant('aside' as const), form: fc.constantFrom<'code' | 'comment' | 'rule'>('code', 'comment', 'rule')})
)
const scenario: fc.Arbitrary<Scenario> = fc.record({
  dialect: fc.constantFrom<Dialect>('bold', 'plain', 'fenced', 'comment', 'frontmatter', 'spec-kit'),
  steps: fc.boolean(),
  tables: fc.boolean(),
  blocks: fc.array(block, {minLength: 1, maxLength: 7}),
  tight: fc.boolean(),
  closed: fc.boolean()
})

/** What the document says must be found: an item on its line, or a table or quote named unread at its first line. */
interface Expected {
  items: Array<{token: string; line: number}>
  unread: Array<{kind: string; token: string; line: number}>
  /** Lines of prose after a list: never named. */
  prose: number[]
}

/** The document of a scenario, line by line, with what the reader must find in it. */
function render(given: Scenario): {text: string; expected: Expected} {
  const lines: string[] = []
  const expected: Expected = {items: [], unread: [], prose: []}
  const fenced = given.dialect === 'fenced' || given.dialect === 'comment'
  // In a comment block every line is behind `// `; a blank line is `//`.
  const add = (line: string): number => lines.push(given.dialect === 'comment' ? (line === '' ? '//' : '// ' + line) : line)
  let count = 0
  const token = () => `c${++count}x`
  head(given, lines)
  let listed = false
  for (const [index, each] of given.blocks.entries()) {
    if (index > 0 || !given.tight || !interrupts(each)) add('')
    if (each.kind === 'aside') {
      // An example, a comment or a rule holds no criterion, and ends none (a fence holds no fence: there it is a line of prose).
      if (each.form === 'code' && !fenced) for (const line of ['```sh', 'npm test', '```']) add(line)
      else add(each.form === 'rule' ? '---' : '<!-- checked by QA -->')
    } else if (each.kind === 'prose') {
      const line = add(`Prose ${token()} about the page, no criterion.`)
      if (listed) expected.prose.push(line)
    } else if (each.kind === 'quote') {
      const name = token()
      expected.unread.push({kind: 'quote', token: name, line: add(`> ${name} a quoted criterion`)})
    } else if (each.kind === 'table') {
      // One table is named once, at its first line: its header and every row are in that text.
      const name = token()
      const line = add(`| ${name} criterion | check |`)
      expected.unread.push({kind: 'table', token: name, line})
      add('| --- | --- |')
      for (let row = 0; row < each.rows; row++) {
        const cell = token()
        expected.unread.push({kind: 'table', token: cell, line})
        add(`| ${cell} row | manual |`)
      }
    } else {
      if (each.kind === 'section') add('#'.repeat(each.depth) + ' ' + each.title)
      for (let item = 0; item < each.items; item++) {
        const name = token()
        const number = /\d/.test(each.marker) ? String(Number.parseInt(each.marker, 10) + item) + each.marker.slice(-1) : each.marker
        expected.items.push({token: name, line: add(`${number} ${name} the page shows it`)})
      }
      listed = true
    }
  }
  if (given.closed) {
    add('')
    add(given.dialect === 'plain' || fenced ? 'Dependencies: none' : '**Dependencies:** none')
    add('- other item, no criterion')
  }
  if (fenced) lines.push('```')
  lines.push('')
  return {text: lines.join('\n'), expected}
}

/**
 * Whether a block may start right under a label line: a quote, a heading, a
 * bullet list or one numbered from 1. Other blocks there are lines of the
 * label's paragraph, its value (`2. Open` is then one item with the lines
 * after it).
 */
function interrupts(block: Block): boolean {
  if (block.kind === 'quote') return true
  if (block.kind !== 'list' && block.kind !== 'section') return false
  return block.kind === 'section' || !/\d/.test(block.marker) || (block.marker.startsWith('1') && block.marker.length === 2)
}

/** The contract's heading and fields down to the criteria or steps label. */
function head(given: Scenario, lines: string[]): void {
  const label = given.steps ? 'Steps' : 'Acceptance Criteria'
  switch (given.dialect) {
    case 'bold':
      lines.push('### C-01: Checkout', '', '**Verification:** verify', `**${label}:**`)
      break
    case 'plain':
      lines.push('### C-01: Checkout', '', 'Verification: verify', `${label}:`)
      break
    case 'fenced':
      lines.push('### C-01: Checkout', '', '```', 'Verification: verify', `${label}:`)
      break
    case 'comment':
      lines.push('### C-01: Checkout', '', '```go', '// Verification: verify', `// ${label}:`)
      break
    case 'frontmatter':
      lines.push('---', 'id: C-01', 'contract: Checkout', 'verification: verify', '---', '', '# C-01: Checkout', '', `**${label}:**`)
      break
    case 'spec-kit':
      lines.push(
        '# Feature Specification: Checkout',
        '',
        '## User Scenarios & Testing',
        '',
        '### User Story 1 - Checkout (Priority: P1)',
        '',
        '**Acceptance Scenarios**:'
      )
  }
}

/** The one contract of the document, as its reader reads it; and the field that holds the criteria. */
function readContract(given: Scenario, text: string): {items: ContractItem[]; unread: ContractText[]; contract: Contract} {
  let contracts: Contract[]
  if (given.dialect === 'spec-kit') contracts = readStories('specs/001-checkout/spec.md', text).contracts.map(asStory)
  else if (given.tables) {
    // Tables as a tool's files hold them: GitHub's, which the tools' parser reads.
    contracts = analyzeContracts(parseMarkdownText(text), new VFile({path: 'CONTRACTS.md', value: text})).contracts
  } else {
    const {tree, file} = parse(text)
    contracts = analyzeContracts(tree, file).contracts
  }
  expect(contracts).toHaveLength(1)
  const contract = contracts[0]!
  const steps = given.steps && given.dialect !== 'spec-kit'
  const unread = contract.fields.flatMap((field) => field.unread)
  return {items: steps ? contract.steps : contract.criteria, unread, contract}
}

describe('blocks under a criteria or steps label', () => {
  it('reads every criterion as an item or names it unread at its line, and names no prose', () => {
    fc.assert(
      fc.property(scenario, (given) => {
        const {text, expected} = render(given)
        const {items, unread, contract} = readContract(given, text)
        // Every list item, of every list and sub-heading, is an item at its line, and nothing else is.
        expect(items.map((item) => [item.text, item.position.start.line])).toEqual(expected.items.map(({token, line}) => [`${token} the page shows it`, line]))
        // Every table row and quote is named, by its kind, at the first line of its block.
        for (const want of expected.unread) {
          expect(
            unread.some((text) => text.kind === want.kind && text.position.start.line === want.line && text.text.includes(want.token)),
            `${want.kind} ${want.token}\n${text}`
          ).toBe(true)
        }
        expect(unread.some((text) => expected.prose.includes(text.position.start.line))).toBe(false)
        // Past the next label, nothing is a criterion or unread text of the criteria.
        expect([...contract.criteria, ...contract.steps].some((item) => item.text.includes('other item'))).toBe(false)
        expect(unread.some((text) => text.text.includes('other item'))).toBe(false)
      }),
      {seed: Number(process.env.SEED ?? 0x38c1), numRuns: Number(process.env.RUNS ?? 400)}
    )
  })
})
