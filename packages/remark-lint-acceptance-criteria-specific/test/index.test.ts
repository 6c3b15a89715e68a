import remarkLintAcceptanceCriteriaSpecific from 'remark-lint-acceptance-criteria-specific'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'acceptance-criteria-specific'
const {expected, check} = ruleHarness(ruleId, remarkLintAcceptanceCriteriaSpecific)

const vague = (place: string, phrase: string, contract = 'C-05 Receipt', fatal = false) =>
  expected(place, `Unexpected vague criterion \`${phrase}\` in ${contract}, expected an observable outcome or a \`-- verified by:\` check`, {
    actual: phrase,
    fatal
  })

/** A bold contract whose criteria are the given lines, from line 5 on. */
const receipt = (...criteria: string[]) =>
  '### C-05: Receipt\n\n**Verification:** verify\n**Acceptance Criteria:**\n' + criteria.map((text) => `- ${text}\n`).join('')

describe('remark-lint-acceptance-criteria-specific', () => {
  describe('bold labels', () => {
    it('accepts observable criteria', async () => {
      expect(await check(receipt('The receipt shows the order number', 'Totals use the account currency'))).toEqual([])
    })

    it('reports a vague phrase on the criterion, with the phrase as `actual`', async () => {
      expect(await check(receipt('The receipt shows the order number', 'The receipt works as expected'))).toEqual([vague('6:3-6:32', 'works as expected')])
    })

    it('reports each vague criterion', async () => {
      expect(await check(receipt('Printing should work', 'It looks good', 'The layout is user-friendly'))).toEqual([
        vague('5:3-5:23', 'should work'),
        vague('6:3-6:16', 'looks good'),
        vague('7:3-7:30', 'is user-friendly')
      ])
    })

    it('matches any case and keeps the case as written', async () => {
      expect(await check(receipt('Checkout Works As Expected'))).toEqual([vague('5:3-5:29', 'Works As Expected')])
    })

    it('matches across the line break of a wrapped criterion', async () => {
      expect(await check(receipt('The receipt should\n  work on paper'))).toEqual([vague('5:3-6:16', 'should work')])
    })

    it('reports the first phrase of the list, once per criterion', async () => {
      // `is correct` comes first in the text, `should work` first in the list.
      expect(await check(receipt('The total is correct and printing should work'))).toEqual([vague('5:3-5:48', 'should work')])
    })

    it('matches whole words only', async () => {
      expect(await check(receipt('The should workflow runs', 'The sum is correctly rounded', 'It overlooks good ideas'))).toEqual([])
    })

    it('accepts vague criteria with a `verified by:` command, after any dash', async () => {
      const value = receipt(
        'The receipt works as expected -- verified by: `npm test -- receipt`',
        'It looks good — verified by: `npm run e2e -- receipt`',
        'It is correct – verified by: ``make check``'
      )
      expect(await check(value)).toEqual([])
    })

    it('reports vague criteria whose check is manual or prose: only a command makes them checkable', async () => {
      const value = receipt(
        'The receipt works as expected -- verified by: `npm test -- receipt`',
        'It looks good — verified by: manual',
        'It is correct – verified by: read the handler and trace it'
      )
      expect(await check(value)).toEqual([vague('6:3-6:38', 'looks good'), vague('7:3-7:61', 'is correct')])
    })

    it('reads a one-line Acceptance Criteria value as a criterion, placed on the value', async () => {
      expect(await check('### C-05: Receipt\n\n**Acceptance Criteria:** Printing should work\n')).toEqual([vague('3:26-3:46', 'should work')])
      expect(await check('### C-05: Receipt\n\n**Acceptance Criteria:** Printing should work -- verified by: `npm test -- print`\n')).toEqual([])
      expect(await check('### C-05: Receipt\n\n**Acceptance Criteria:** Printing should work -- verified by: manual\n')).toEqual([
        vague('3:26-3:69', 'should work')
      ])
    })

    it('reports a vague criterion whose `verified by:` is empty', async () => {
      expect(await check(receipt('It should work -- verified by:'))).toEqual([vague('5:3-5:33', 'should work')])
    })

    it('leaves steps alone', async () => {
      expect(await check('### C-05: Receipt\n\n**Steps:**\n- Check that printing should work\n')).toEqual([])
    })

    it('keeps inline code in the criterion', async () => {
      expect(await check(receipt('`npm run print` should work'))).toEqual([vague('5:3-5:30', 'should work')])
    })
  })

  describe('option `phrases`', () => {
    const value = receipt('The receipt looks fine', 'The receipt works as expected')

    it('replaces the default phrases with a list', async () => {
      expect(await check(value, ['looks fine'])).toEqual([vague('5:3-5:25', 'looks fine')])
    })

    it('replaces the default phrases with an object', async () => {
      expect(await check(value, {phrases: ['looks fine']})).toEqual([vague('5:3-5:25', 'looks fine')])
    })

    it('takes phrases after a severity', async () => {
      expect(await check(value, ['error', ['looks fine']])).toEqual([vague('5:3-5:25', 'looks fine', 'C-05 Receipt', true)])
      expect(await check(value, ['warn', {phrases: ['looks  fine ']}])).toEqual([vague('5:3-5:25', 'looks fine')])
    })

    it('rejects nothing with an empty list', async () => {
      expect(await check(value, [])).toEqual([])
      expect(await check(value, {phrases: []})).toEqual([])
    })

    it('uses the defaults for `null`, `undefined` and an object without `phrases`', async () => {
      for (const options of [null, undefined, {}, {phrases: null}]) {
        expect(await check(value, options)).toEqual([vague('6:3-6:32', 'works as expected')])
      }
    })

    it('matches phrases literally, not as regular expressions', async () => {
      const text = receipt('It works (mostly)', 'It worksXmostly', 'A total of 1.5 is shown', 'A total of 125 is shown')
      expect(await check(text, ['works (mostly)', '1.5'])).toEqual([vague('5:3-5:20', 'works (mostly)'), vague('7:3-7:26', '1.5')])
    })
  })
})
