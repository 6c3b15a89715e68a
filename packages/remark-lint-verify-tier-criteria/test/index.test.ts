import remarkLintVerifyTierCriteria from 'remark-lint-verify-tier-criteria'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'verify-tier-criteria'
const {expected, check} = ruleHarness(ruleId, remarkLintVerifyTierCriteria)

const verifyReason = (label: string) => `Unexpected verify contract ${label} without acceptance criteria or steps, expected at least one criterion or step`
const defaultReason = (label: string, verification: string) =>
  `Unexpected contract ${label} without acceptance criteria or steps (its tier defaults to \`verify\`), expected at least one criterion or step, or \`${verification}: auto\``

const paymentForm = '### C-02: PaymentForm\n\n**Boundary:** PaymentForm component -> submitted payment\n**Verification:** verify\n'
const spendHeader = '### C-05: SpendColumnHeader\n\n**Boundary:** Table header -> currency label\n\nNo verification field.\n'

describe('remark-lint-verify-tier-criteria', () => {
  describe('bold labels', () => {
    it('reports a verify contract with neither criteria nor steps on its Verification field', async () => {
      expect(await check(paymentForm)).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'))])
    })

    it('reads a tier in inline code', async () => {
      expect(await check('### C-02: PaymentForm\n\n**Verification:** `verify`\n')).toEqual([expected('3:1-3:27', verifyReason('C-02 PaymentForm'))])
    })

    it('accepts a verify contract with acceptance criteria', async () => {
      expect(await check(paymentForm + '**Acceptance Criteria:**\n- A declined card shows the bank’s reason\n')).toEqual([])
    })

    it('accepts a verify contract with steps only', async () => {
      expect(await check(paymentForm + '\n**Steps:**\n1. Pay with the test card 4000 0000 0000 0002\n')).toEqual([])
    })

    it('reports a verify contract whose criteria and steps are given but empty', async () => {
      const value = '### C-02: PaymentForm\n\n**Verification:** verify\n**Acceptance Criteria:**\n\n**Steps:**\n-\n'
      expect(await check(value)).toEqual([expected('3:1-3:25', verifyReason('C-02 PaymentForm'))])
    })

    it('reports a contract with no Verification field on its heading', async () => {
      expect(await check(spendHeader)).toEqual([expected('1:1-1:28', defaultReason('C-05 SpendColumnHeader', 'Verification'))])
    })

    it('accepts a contract with no Verification field but with steps', async () => {
      expect(await check('### C-05: SpendColumnHeader\n\n**Steps:**\n- Open /campaigns\n')).toEqual([])
    })

    it('leaves auto contracts alone', async () => {
      expect(await check('### C-02: CampaignSummaryApi\n\n**Verification:** auto\n')).toEqual([])
    })

    it('counts an invalid tier as verify, reported on the Verification field', async () => {
      expect(await check('### C-02: PaymentForm\n\n**Verification:** Verify\n')).toEqual([expected('3:1-3:25', verifyReason('C-02 PaymentForm'))])
      expect(await check('### C-02: PaymentForm\n\n**Verification:** manual\n')).toEqual([expected('3:1-3:25', verifyReason('C-02 PaymentForm'))])
      expect(await check('### C-02: PaymentForm\n\n**Boundary:** form\n**Verification:** auto | verify\n')).toEqual([
        expected('4:1-4:32', verifyReason('C-02 PaymentForm'))
      ])
      // An empty tier is no tier of the two either.
      expect(await check('### C-02: PaymentForm\n\n**Verification:**\n')).toEqual([expected('3:1-3:18', verifyReason('C-02 PaymentForm'))])
    })

    it('leaves a contract with an invalid tier alone when it has criteria or steps', async () => {
      expect(await check('### C-02: PaymentForm\n\n**Verification:** Verify\n**Steps:**\n- Pay\n')).toEqual([])
      expect(await check('### C-02: PaymentForm\n\n**Verification:** manual\n**Acceptance Criteria:** A receipt is shown\n')).toEqual([])
    })

    it('still reports an invalid tier with `ignoreDefaultTier`: a tier is written', async () => {
      expect(await check('### C-02: PaymentForm\n\n**Verification:** Verify\n', {ignoreDefaultTier: true})).toEqual([
        expected('3:1-3:25', verifyReason('C-02 PaymentForm'))
      ])
    })

    it('accepts a one-line criteria or steps value', async () => {
      expect(await check(paymentForm + '**Acceptance Criteria:** A declined card shows the bank’s reason\n')).toEqual([])
      expect(await check(paymentForm + '**Steps:** Pay with the test card 4000 0000 0000 0002\n')).toEqual([])
      expect(await check('### C-05: SpendColumnHeader\n\n**Steps:** Open /campaigns\n')).toEqual([])
    })

    it('reports a contract whose criteria and steps say nothing', async () => {
      expect(await check(paymentForm + '**Acceptance Criteria:** None\n**Steps:** N/A\n')).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'))])
      expect(await check('### C-05: SpendColumnHeader\n\n**Steps:** TBD\n')).toEqual([
        expected('1:1-1:28', defaultReason('C-05 SpendColumnHeader', 'Verification'))
      ])
    })

    it('checks each contract of a document, in a slice too', async () => {
      const value = [
        '## S-01: Checkout',
        '',
        '### C-01: CartTotal',
        '',
        '**Verification:** verify',
        '**Acceptance Criteria:**',
        '- The total includes tax',
        '',
        '### C-02: PaymentForm',
        '',
        '**Verification:** verify',
        '',
        '### Contract: Receipt',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([
        expected('11:1-11:25', verifyReason('C-02 PaymentForm')),
        expected('13:1-13:22', defaultReason('Receipt', 'Verification'))
      ])
    })
  })

  describe('option `ignoreDefaultTier`', () => {
    it('leaves contracts with no Verification field alone when `true`', async () => {
      expect(await check(spendHeader, {ignoreDefaultTier: true})).toEqual([])
      expect(await check('---\nid: C-06\ncontract: ExportCsv\n---\n', {ignoreDefaultTier: true})).toEqual([])
    })

    it('still reports written verify contracts when `true`', async () => {
      expect(await check(paymentForm + '\n' + spendHeader, {ignoreDefaultTier: true})).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'))])
    })

    it('reports contracts with no Verification field when `false`, `null` or not given', async () => {
      const reported = [expected('1:1-1:28', defaultReason('C-05 SpendColumnHeader', 'Verification'))]
      expect(await check(spendHeader, {ignoreDefaultTier: false})).toEqual(reported)
      expect(await check(spendHeader, {ignoreDefaultTier: null})).toEqual(reported)
      expect(await check(spendHeader, {})).toEqual(reported)
      expect(await check(spendHeader, null)).toEqual(reported)
    })

    it('takes options after a severity', async () => {
      expect(await check(spendHeader, ['error', {ignoreDefaultTier: true}])).toEqual([])
      expect(await check(paymentForm, ['error', {ignoreDefaultTier: true}])).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'), {fatal: true})])
    })
  })
})
