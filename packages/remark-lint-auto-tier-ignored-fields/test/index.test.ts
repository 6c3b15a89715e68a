import remarkLintAutoTierIgnoredFields from 'remark-lint-auto-tier-ignored-fields'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'auto-tier-ignored-fields'
const {expected, check} = ruleHarness(ruleId, remarkLintAutoTierIgnoredFields)

const reason = (what: 'steps' | 'acceptance criteria', label: string, verification = 'Verification') =>
  `Unexpected ${what} on auto contract ${label}, expected none as the \`auto\` tier ignores them, or \`${verification}: verify\``

const orderEmail = (tier: string, rest: string) =>
  `### C-03: OrderEmail\n\n**Boundary:** order placed -> confirmation email\n**Verification:** ${tier}\n${rest}`

describe('remark-lint-auto-tier-ignored-fields', () => {
  describe('bold labels', () => {
    it('reports steps on an auto contract on their label', async () => {
      expect(await check(orderEmail('auto', '**Steps:**\n- Place an order and open the mailbox\n'))).toEqual([
        expected('5:3-5:8', reason('steps', 'C-03 OrderEmail'))
      ])
    })

    it('reports acceptance criteria and steps, each on its label', async () => {
      const value = orderEmail('auto', '**Acceptance Criteria:**\n- An email arrives\n\n**Steps:**\n1. Place an order\n')
      expect(await check(value)).toEqual([
        expected('5:3-5:22', reason('acceptance criteria', 'C-03 OrderEmail')),
        expected('8:3-8:8', reason('steps', 'C-03 OrderEmail'))
      ])
    })

    it('reports a field given as inline text, with the colon outside the bold too', async () => {
      expect(await check(orderEmail('auto', '**Acceptance Criteria**: an email arrives\n'))).toEqual([
        expected('5:3-5:22', reason('acceptance criteria', 'C-03 OrderEmail'))
      ])
    })

    it('reports near misses of the labels', async () => {
      expect(await check(orderEmail('`auto`', '**Step:**\n- Place an order\n'))).toEqual([expected('5:3-5:7', reason('steps', 'C-03 OrderEmail'))])
    })

    it('reports a one-line steps value: it is a step', async () => {
      expect(await check(orderEmail('auto', '**Steps:** Open the mailbox\n'))).toEqual([expected('5:3-5:8', reason('steps', 'C-03 OrderEmail'))])
    })

    it('leaves empty fields alone', async () => {
      expect(await check(orderEmail('auto', '**Acceptance Criteria:**\n\n**Steps:**\n-\n'))).toEqual([])
    })

    it.each(['None', 'none.', 'N/A', 'n/a', 'Nothing', 'TBD', '-', '—'])('leaves a value that says nothing (%j) alone', async (nothing) => {
      expect(await check(orderEmail('auto', `**Acceptance Criteria:** ${nothing}\n**Steps:** ${nothing}\n`))).toEqual([])
    })

    it('leaves other fields of an auto contract alone', async () => {
      expect(await check(orderEmail('auto', '**Invariants:**\n- One email per order\n**Dependencies:** C-02\n'))).toEqual([])
    })

    it('leaves verify, default and invalid tiers alone', async () => {
      const steps = '**Steps:**\n- Place an order\n'
      expect(await check(orderEmail('verify', steps))).toEqual([])
      expect(await check(orderEmail('Auto', steps))).toEqual([])
      expect(await check(orderEmail('auto | verify', steps))).toEqual([])
      expect(await check('### C-03: OrderEmail\n\n' + steps)).toEqual([])
    })

    it('reports each auto contract of a document', async () => {
      const value = [
        '### C-01: One',
        '',
        '**Verification:** auto',
        '**Steps:**',
        '- One',
        '',
        '### C-02: Two',
        '',
        '**Verification:** verify',
        '**Steps:**',
        '- Two',
        '',
        '### Contract: Three',
        '',
        '**Verification:** auto',
        '**Acceptance Criteria:**',
        '- Three',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([expected('4:3-4:8', reason('steps', 'C-01 One')), expected('16:3-16:22', reason('acceptance criteria', 'Three'))])
    })
  })
})
