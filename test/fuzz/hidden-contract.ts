/**
 * Documents that hold a verify contract with one criterion after any prefix
 * of markdown, HTML or unclosed blocks, under a heading written in any of
 * the ways a person reads as one: shared by the reader's property and the
 * gate's.
 */
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import {text} from './arbitraries.js'

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

export const prefix: Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', '', '---\ntitle: Contracts\n---\n\n', '---\ntitle: Contracts\n'),
    fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n')), {maxLength: 5})
  )
  .map(([frontmatter, blocks]) => frontmatter + blocks.map(([value, end]) => value + end).join(''))

// ---------------------------------------------------------------------------
// The heading: what stands before it on its line, its marks, and its id.

export const linePrefix = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom('', ' ', '   ')},
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '    ',
      '\t',
      '- ',
      '* ',
      '1. ',
      '> ',
      '> - ',
      '- > ',
      '<b>',
      '<span>',
      '<!-- ',
      '\u00a0',
      '\u200b',
      '\u3000',
      ' \u00a0',
      '```',
      '~~~ ',
      '<?',
      '<!X ',
      '<![CDATA['
    )
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
  .tuple(
    linePrefix,
    fc.oneof({weight: 9, arbitrary: fc.integer({min: 1, max: 6})}, fc.constant(7)),
    fc.oneof({weight: 6, arbitrary: fc.constant(' ')}, fc.constantFrom('', '  ', '\t', '\u00a0')),
    fc.oneof({weight: 4, arbitrary: idHeading}, namedHeading)
  )
  .chain(([before, depth, space, {line, key}]) =>
    fc.constantFrom('#', '#', '#', '#', '#', '\uff03').map((mark) => ({line: before + mark.repeat(depth) + space + line, key}))
  )

export const criterion = 'Paying with a saved card needs no retyping'

/**
 * A document, the 1-based line of the contract's heading, and what names the
 * contract (its id or name). `body` goes between the heading and the tier
 * (a `**Slice:**` line, for a project's gate).
 */
export const hiddenContractDocument = (body = '') =>
  fc.tuple(prefix, heading).map(([start, {line, key}]) => ({
    value: start + line + '\n\n' + body + '**Verification:** verify\n**Acceptance Criteria:**\n- ' + criterion + '\n',
    line: start.split('\n').length,
    key
  }))
