import remarkLintVerifyTierCriteria from 'remark-lint-verify-tier-criteria'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'verify-tier-criteria'
const {expected, check} = ruleHarness(ruleId, remarkLintVerifyTierCriteria)

const verifyReason = (label: string) =>
  `Unexpected verify contract ${label} without acceptance criteria or steps, expected at least one criterion or step`
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
      expect(await check('### C-02: PaymentForm\n\n**Verification:** `verify`\n')).toEqual([
        expected('3:1-3:27', verifyReason('C-02 PaymentForm'))
      ])
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
      expect(await check(spendHeader)).toEqual([
        expected('1:1-1:28', defaultReason('C-05 SpendColumnHeader', 'Verification'))
      ])
    })

    it('accepts a contract with no Verification field but with steps', async () => {
      expect(await check('### C-05: SpendColumnHeader\n\n**Steps:**\n- Open /campaigns\n')).toEqual([])
    })

    it('leaves auto contracts alone', async () => {
      expect(await check('### C-02: CampaignSummaryApi\n\n**Verification:** auto\n')).toEqual([])
    })

    it('counts an invalid tier as verify, reported on the Verification field', async () => {
      expect(await check('### C-02: PaymentForm\n\n**Verification:** Verify\n')).toEqual([
        expected('3:1-3:25', verifyReason('C-02 PaymentForm'))
      ])
      expect(await check('### C-02: PaymentForm\n\n**Verification:** manual\n')).toEqual([
        expected('3:1-3:25', verifyReason('C-02 PaymentForm'))
      ])
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
      expect(await check(paymentForm + '**Acceptance Criteria:** None\n**Steps:** N/A\n')).toEqual([
        expected('4:1-4:25', verifyReason('C-02 PaymentForm'))
      ])
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

  describe('fenced `Field:` blocks', () => {
    it('reports a verify contract with no criteria on its Verification line', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nBoundary: StatusBadge -> badge\nVerification: verify\n```\n'
      expect(await check(value)).toEqual([expected('5:1-5:21', verifyReason('C-03 CampaignStatusBadge'))])
    })

    it('accepts a one-line value, and reports one that says nothing', async () => {
      const fenced = (rest: string) => '### C-03: CampaignStatusBadge\n\n```\nVerification: verify\n' + rest + '```\n'
      expect(await check(fenced('Steps: Open /campaigns and pause one\n'))).toEqual([])
      expect(await check(fenced('Acceptance Criteria: -\nSteps: None.\n'))).toEqual([
        expected('4:1-4:21', verifyReason('C-03 CampaignStatusBadge'))
      ])
    })

    it('reports an invalid tier in a block on its Verification line', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nVerification: manual\n```\n'
      expect(await check(value)).toEqual([expected('4:1-4:21', verifyReason('C-03 CampaignStatusBadge'))])
    })

    it('accepts criteria given as indented items', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nVerification: verify\nAcceptance Criteria:\n  - A paused campaign shows a grey badge\n```\n'
      expect(await check(value)).toEqual([])
    })

    it('reports a fenced contract with no Verification line on its heading', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nBoundary: StatusBadge -> badge\n```\n'
      expect(await check(value)).toEqual([
        expected('1:1-1:30', defaultReason('C-03 CampaignStatusBadge', 'Verification'))
      ])
    })
  })

  describe('`// ` comment blocks', () => {
    it('reports a verify contract with no criteria behind `// `', async () => {
      const value = '### C-04: FormatSpend\n\n```go\n// Contract: FormatSpend\n// Verification: verify\n```\n'
      expect(await check(value)).toEqual([expected('5:4-5:24', verifyReason('C-04 FormatSpend'))])
    })

    it('accepts steps behind `// `', async () => {
      const value = '### C-04: FormatSpend\n\n```go\n// Verification: verify\n// Steps:\n//   - Format 12.5 EUR\n```\n'
      expect(await check(value)).toEqual([])
    })
  })

  describe('YAML frontmatter', () => {
    it('reports a verify contract with an empty list of criteria on its `verification` key', async () => {
      const value = '---\nid: C-06\nverification: verify\nacceptance_criteria: []\n---\n'
      expect(await check(value)).toEqual([expected('3:1-3:21', verifyReason('C-06'))])
    })

    it('reports a frontmatter contract with no tier on its `contract` entry, with the snake_case fix', async () => {
      const value = '---\nid: C-06\ncontract: ExportCsv\n---\n\n# C-06: ExportCsv\n\n**Boundary:** Export button -> CSV download\n'
      expect(await check(value)).toEqual([expected('3:1-3:20', defaultReason('C-06 ExportCsv', 'verification'))])
    })

    it('reports a frontmatter contract with neither id nor name on the whole frontmatter', async () => {
      expect(await check('---\nsteps:\n---\n')).toEqual([
        expected(
          '1:1-3:4',
          'Unexpected contract (unnamed) without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `verification: auto`'
        )
      ])
    })

    it('reports an invalid tier in frontmatter on its `verification` key', async () => {
      expect(await check('---\nid: C-06\nverification: Verify\n---\n')).toEqual([expected('3:1-3:21', verifyReason('C-06'))])
      expect(await check('---\nid: C-06\nverification: [auto]\n---\n')).toEqual([expected('3:1-3:21', verifyReason('C-06'))])
    })

    it('counts a one-line value from the body that repeats the frontmatter contract’s heading', async () => {
      const value = '---\nid: C-06\nverification: verify\n---\n\n# C-06: ExportCsv\n\n**Steps:** Click Export\n'
      expect(await check(value)).toEqual([])
    })

    it('counts criteria from the body that repeats the frontmatter contract’s heading', async () => {
      const value = '---\nid: C-06\nverification: verify\n---\n\n# C-06: ExportCsv\n\n**Acceptance Criteria:**\n- Clicking Export downloads campaigns.csv\n'
      expect(await check(value)).toEqual([])
    })

    it('accepts the frontmatter contract of the example project', async () => {
      const value = [
        '---',
        'id: C-06',
        'contract: ExportCsv',
        'slice: S-02',
        'verification: verify',
        'acceptance_criteria:',
        '  - Clicking "Export" downloads campaigns.csv with one row per campaign',
        'steps:',
        '  - Open /campaigns and click "Export"',
        '---',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([])
    })
  })

  describe('option `ignoreDefaultTier`', () => {
    it('leaves contracts with no Verification field alone when `true`', async () => {
      expect(await check(spendHeader, {ignoreDefaultTier: true})).toEqual([])
      expect(await check('---\nid: C-06\ncontract: ExportCsv\n---\n', {ignoreDefaultTier: true})).toEqual([])
    })

    it('still reports written verify contracts when `true`', async () => {
      expect(await check(paymentForm + '\n' + spendHeader, {ignoreDefaultTier: true})).toEqual([
        expected('4:1-4:25', verifyReason('C-02 PaymentForm'))
      ])
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
      expect(await check(paymentForm, ['error', {ignoreDefaultTier: true}])).toEqual([
        expected('4:1-4:25', verifyReason('C-02 PaymentForm'), {fatal: true})
      ])
    })
  })

  describe('severity', () => {
    it('is a warning by default, and with `warn`', async () => {
      expect(await check(paymentForm)).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'))])
      expect(await check(paymentForm, ['warn'])).toEqual([expected('4:1-4:25', verifyReason('C-02 PaymentForm'))])
    })

    it('is fatal with `error`', async () => {
      expect(await check(spendHeader, ['error'])).toEqual([
        expected('1:1-1:28', defaultReason('C-05 SpendColumnHeader', 'Verification'), {fatal: true})
      ])
    })

    it('is off with `false` or `off`', async () => {
      expect(await check(paymentForm + '\n' + spendHeader, false)).toEqual([])
      expect(await check(paymentForm + '\n' + spendHeader, ['off'])).toEqual([])
    })

    it('can be turned off in a document with a comment', async () => {
      expect(await check('<!--lint disable verify-tier-criteria-->\n\n' + spendHeader)).toEqual([])
    })
  })
})
