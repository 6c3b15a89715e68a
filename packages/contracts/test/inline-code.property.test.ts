/**
 * A problem's message shows its subject in inline code, delimited by more
 * backticks than any run in it: for any subject, however many runs of
 * backticks it holds (a line of a long file may hold hundreds of thousands;
 * a spread of their lengths into `Math.max` threw past about 120,000).
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {inlineCode} from '../lib/inline-code.js'
import {describeContractProblem} from '../lib/describe.js'
import type {ContractProblem} from '../lib/types.js'

/** The longest run of backticks in `text`. */
function longestRun(text: string): number {
  return (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0)
}

/** A subject of `count` pieces, each a word or a run of one to three backticks. */
const subject = (count: number) =>
  fc.array(fc.constantFrom('a', ' ', '`', '``', '```', 'C-1', '**'), {minLength: count, maxLength: count}).map((pieces) => pieces.join(''))

// The kinds whose message shows the subject (a tier conflict: the second tier, `actual`) in inline code.
const kinds: ReadonlyArray<ContractProblem['kind']> = ['field-shape', 'tier-conflict', 'unread-heading']
const place = {start: {line: 1, column: 1}, end: {line: 1, column: 2}}

describe('inlineCode', () => {
  it('delimits any text with a run longer than its own longest, padded when it has backticks', () => {
    fc.assert(
      fc.property(fc.string({unit: fc.constantFrom('`', 'a', ' ', '\\')}), (text) => {
        const span = inlineCode(text)
        const longest = longestRun(text)
        const delimiter = '`'.repeat(longest + 1)
        const pad = longest > 0 ? ' ' : ''
        expect(span).toBe(delimiter + pad + text + pad + delimiter)
      })
    )
  })

  it('describes a problem whose subject holds any number of backtick runs, up to 300,000', () => {
    fc.assert(
      fc.property(fc.integer({min: 0, max: 300_000}).chain(subject), fc.constantFrom(...kinds), (text, kind) => {
        const problem: ContractProblem = {kind, subject: text, part: 'field', actual: text, expected: 'auto', place}
        const message = describeContractProblem(problem)
        expect(message).toContain('`'.repeat(longestRun(text) + 1) + (longestRun(text) > 0 ? ' ' : '') + text)
      }),
      {numRuns: 8, examples: [['` '.repeat(150_000), 'unread-heading']]}
    )
  })
})
