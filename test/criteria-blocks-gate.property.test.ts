/**
 * No criterion is dropped in silence, through the cli's `main`: for a verify
 * contract whose Acceptance Criteria label is followed by any blocks (lists
 * of any bullet or number, a sub-heading and its list, a table, a quote,
 * prose), `tiers contracts --json` lists every list item as a criterion at
 * its line, and names every table and quote as unread at its first line.
 * The reader's own property (packages/contracts/test) covers every dialect;
 * this one checks that the gate says what the reader read.
 *
 * CI runs 12 documents; `npm run fuzz` runs more (`FUZZ_SCALE`).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const numRuns = Math.max(1, Math.round(12 * scale))
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

type Block =
  | {kind: 'list'; marker: string; items: number}
  | {kind: 'section'; marker: string; items: number}
  | {kind: 'table'}
  | {kind: 'quote'}
  | {kind: 'prose'}

const marker = fc.constantFrom('-', '*', '+', '1.', '2)')
const block: fc.Arbitrary<Block> = fc.oneof(
  fc.record({kind: fc.constant('list' as const), marker, items: fc.integer({min: 1, max: 3})}),
  fc.record({kind: fc.constant('section' as const), marker, items: fc.integer({min: 1, max: 2})}),
  fc.constant({kind: 'table' as const}),
  fc.constant({kind: 'quote' as const}),
  fc.constant({kind: 'prose' as const})
)

const firstList: fc.Arbitrary<Block> = fc.record({kind: fc.constant('list' as const), marker, items: fc.integer({min: 1, max: 3})})

/** The document, with the line of every item that must be a criterion and of every block that must be named unread. */
function documentOf(blocks: readonly Block[]) {
  const lines = ['### C-01: Checkout', '', '**Verification:** verify', '**Acceptance Criteria:**']
  const items: Array<{text: string; line: number}> = []
  const unread: Array<{kind: string; line: number}> = []
  let count = 0
  const list = (bullet: string, size: number) => {
    for (let index = 0; index < size; index++) {
      const text = `Criterion number ${count++} holds`
      // Each list numbers from its own start, as markdown reads the first marker's number.
      const shown = /\d/.test(bullet) ? `${Number.parseInt(bullet, 10) + index}${bullet.at(-1)}` : bullet
      lines.push(`${shown} ${text}`)
      items.push({text, line: lines.length})
    }
  }
  for (const each of blocks) {
    lines.push('')
    if (each.kind === 'list') list(each.marker, each.items)
    else if (each.kind === 'section') {
      lines.push('#### Edge cases', '')
      list(each.marker, each.items)
    } else if (each.kind === 'table') {
      unread.push({kind: 'table', line: lines.length + 1})
      lines.push('| Case | Outcome |', '| - | - |', '| late card | refused |')
    } else if (each.kind === 'quote') {
      unread.push({kind: 'quote', line: lines.length + 1})
      lines.push('> The card is charged once')
    } else lines.push('The page says so in plain words.')
  }
  return {value: lines.join('\n') + '\n', items, unread}
}

describe('no criterion is dropped in silence, through the gate', () => {
  it(`lists every item after a criteria label, and names every table and quote (${numRuns} documents)`, async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-criteria-gate-')))
    folders.push(root)
    let run = 0
    await fc.assert(
      // The criteria open with a list, as a person writes them; what comes first alone (an intro, a lone paragraph) is the reader's property's.
      fc.asyncProperty(fc.tuple(firstList, fc.array(block, {maxLength: 4})), async ([first, rest]) => {
        const blocks = [first, ...rest]
        const folder = path.join(root, `case-${run++}`)
        await fs.mkdir(path.join(folder, '.greenlight'), {recursive: true})
        const {value, items, unread} = documentOf(blocks)
        await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), value)
        const shown = await runTiers(folder, ['contracts', '--json'])
        const [contract] = JSON.parse(shown.stdout).contracts as Array<{
          criteria: Array<{text: string; line: number}>
          unread: Array<{kind: string; line: number}>
        }>
        expect(contract!.criteria.map(({text, line}) => ({text, line}))).toEqual(items)
        expect(contract!.unread.map(({kind, line}) => ({kind, line}))).toEqual(unread)
      }),
      {seed: 381, numRuns}
    )
  }, 120_000)
})
