import {remark} from 'remark'
import remarkLint from 'remark-lint'
import remarkLintAcceptanceCriteriaCount from 'remark-lint-acceptance-criteria-count'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'acceptance-criteria-count'
const {url, rule, lint, summary, expected, check} = ruleHarness(ruleId, remarkLintAcceptanceCriteriaCount)

const reason = (count: number, max: number, contract = 'C-07 OrderHistory') => `Unexpected ${count} acceptance criteria on ${contract}, expected at most ${max}`

/** A bold contract with `count` criteria, on lines 5 onwards (`- Criterion N` ends at column 14). */
const history = (count: number) =>
  '### C-07: OrderHistory\n\n**Verification:** verify\n**Acceptance Criteria:**\n' +
  Array.from({length: count}, (_, index) => `- Criterion ${index + 1}\n`).join('')

/** The message of an option that is no whole number of 0 or more. */
function invalid(value: string, fatal = false) {
  return {
    reason: `Unexpected value \`${value}\` for \`max\`, expected a whole number of 0 or more`,
    place: undefined,
    ruleId,
    source: 'remark-lint',
    url,
    fatal,
    actual: undefined,
    expected: undefined
  }
}

describe('remark-lint-acceptance-criteria-count', () => {
  describe('default maximum (5)', () => {
    it('accepts 5 criteria', async () => {
      expect(await check(history(5))).toEqual([])
    })

    it('reports 6 criteria on the sixth', async () => {
      expect(await check(history(6))).toEqual([expected('10:3-10:14', reason(6, 5))])
    })

    it('reports once per contract, on the first criterion over the maximum', async () => {
      expect(await check(history(8))).toEqual([expected('10:3-10:14', reason(8, 5))])
    })

    it('counts the criteria of every Acceptance Criteria field of a contract, but not steps', async () => {
      const value = history(3) + '\n**Steps:**\n- One\n- Two\n- Three\n\n**Acceptance Criteria:**\n- Fourth\n- Fifth\n- Sixth\n'
      expect(await check(value)).toEqual([expected('17:3-17:8', reason(6, 5))])
    })

    it('leaves out empty items', async () => {
      expect(await check(history(5) + '-\n-\n')).toEqual([])
    })

    it('counts a one-line Acceptance Criteria value as one criterion, placed on the value', async () => {
      const value = history(5) + '\n**Acceptance Criteria:** Refunds show as negative amounts\n'
      expect(await check(value)).toEqual([expected('11:26-11:58', reason(6, 5))])
    })

    it('does not count a value that says nothing', async () => {
      for (const nothing of ['None', 'N/A', 'TBD.', '-']) {
        expect(await check(history(5) + `\n**Acceptance Criteria:** ${nothing}\n`)).toEqual([])
      }
    })

    it('checks each contract on its own', async () => {
      const value = history(4) + '\n' + history(6).replace('C-07: OrderHistory', 'Contract: Refunds')
      expect(await check(value)).toEqual([expected('19:3-19:14', reason(6, 5, 'Refunds'))])
    })
  })

  describe('option `max`', () => {
    it('takes a number', async () => {
      expect(await check(history(2), 2)).toEqual([])
      expect(await check(history(3), 2)).toEqual([expected('7:3-7:14', reason(3, 2))])
    })

    it('takes an object', async () => {
      expect(await check(history(3), {max: 2})).toEqual([expected('7:3-7:14', reason(3, 2))])
      expect(await check(history(6), {max: 8})).toEqual([])
    })

    it('takes `0`: no criteria at all', async () => {
      // One criterion: singular.
      expect(await check(history(1), {max: 0})).toEqual([expected('5:3-5:14', 'Unexpected 1 acceptance criterion on C-07 OrderHistory, expected at most 0')])
      expect(await check('### C-07: OrderHistory\n\n**Steps:**\n- Open it\n', 0)).toEqual([])
      expect(await check('### C-07: OrderHistory\n\n**Steps:** Open it\n**Acceptance Criteria:** None\n', 0)).toEqual([])
      expect(await check('### C-07: OrderHistory\n\n**Acceptance Criteria:** Orders are listed newest first\n', 0)).toEqual([
        expected('3:26-3:56', 'Unexpected 1 acceptance criterion on C-07 OrderHistory, expected at most 0')
      ])
    })

    it('uses the default for `null`, `undefined` and an object without `max`', async () => {
      for (const options of [null, undefined, {}, {max: null}, {max: undefined}]) {
        expect(await check(history(6), options)).toEqual([expected('10:3-10:14', reason(6, 5))])
      }
    })

    it('takes options after a severity', async () => {
      expect(await check(history(2), ['warn', {max: 1}])).toEqual([expected('6:3-6:14', reason(2, 1))])
      expect(await check(history(2), ['error', 1])).toEqual([expected('6:3-6:14', reason(2, 1), {fatal: true})])
    })

    it('reports an invalid `max` as a message of the rule instead of crashing', async () => {
      expect(await check(history(6), {max: -1})).toEqual([invalid('-1')])
      expect(await check(history(6), 1.5)).toEqual([invalid('1.5')])
      expect(await check(history(6), {max: 'three'})).toEqual([invalid('three')])
      expect(await check(history(6), {max: Number.NaN})).toEqual([invalid('NaN')])
    })

    it('reports an invalid `max` even with no contracts, as a plain message without a stack', async () => {
      const messages = await lint('# Notes\n', {max: -2})
      expect(messages.map(summary)).toEqual([invalid('-2')])
      expect(messages[0]!.cause).toBeUndefined()
      expect(messages[0]!.stack).toBe('')
    })

    it('makes an invalid `max` fatal when the rule is an error', async () => {
      expect(await check(history(6), ['error', {max: -1}])).toEqual([invalid('-1', true)])
    })

    it('does not reject `process` of a whole remark pipeline', async () => {
      const processor = remark().use(remarkLint).use(rule, {max: -1})
      const file = await processor.process(new VFile({path: 'CONTRACTS.md', value: history(6)}))
      expect(file.messages.map(summary)).toEqual([invalid('-1')])
    })
  })
})
