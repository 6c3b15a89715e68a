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
      expect(await check(orderEmail('`auto`', '**Step:**\n- Place an order\n'))).toEqual([
        expected('5:3-5:7', reason('steps', 'C-03 OrderEmail'))
      ])
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
      expect(await check(value)).toEqual([
        expected('4:3-4:8', reason('steps', 'C-01 One')),
        expected('16:3-16:22', reason('acceptance criteria', 'Three'))
      ])
    })
  })

  describe('fenced `Field:` blocks', () => {
    it('reports criteria in a fenced auto contract on their label', async () => {
      const value =
        '### C-03: CampaignStatusBadge\n\n```\nVerification: auto\nAcceptance Criteria:\n  - A paused campaign shows a grey badge\nSteps:\n  - Open /campaigns\n```\n'
      expect(await check(value)).toEqual([
        expected('5:1-5:20', reason('acceptance criteria', 'C-03 CampaignStatusBadge')),
        expected('7:1-7:6', reason('steps', 'C-03 CampaignStatusBadge'))
      ])
    })

    it('leaves a fenced field with no items alone', async () => {
      expect(await check('### C-03: CampaignStatusBadge\n\n```\nVerification: auto\nSteps:\n```\n')).toEqual([])
    })

    it('reports a one-line fenced value, and leaves one that says nothing alone', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nVerification: auto\nSteps: Open /campaigns\nAcceptance Criteria: None\n```\n'
      expect(await check(value)).toEqual([expected('5:1-5:6', reason('steps', 'C-03 CampaignStatusBadge'))])
    })
  })

  describe('`// ` comment blocks', () => {
    it('reports steps behind `// `', async () => {
      const value = '### C-04: FormatSpend\n\n```go\n// Verification: auto\n// Steps:\n//   - Format 12.5 EUR\n```\n'
      expect(await check(value)).toEqual([expected('5:4-5:9', reason('steps', 'C-04 FormatSpend'))])
    })
  })

  describe('YAML frontmatter', () => {
    it('reports criteria on their key, with the snake_case fix', async () => {
      const value = '---\nid: C-06\ncontract: ExportCsv\nverification: auto\nacceptance_criteria:\n  - A file downloads\n---\n'
      expect(await check(value)).toEqual([
        expected('5:1-5:20', reason('acceptance criteria', 'C-06 ExportCsv', 'verification'))
      ])
    })

    it('reports steps given as a string', async () => {
      const value = '---\nid: C-06\nverification: auto\nsteps: Click Export\n---\n'
      expect(await check(value)).toEqual([expected('4:1-4:6', reason('steps', 'C-06', 'verification'))])
    })

    it('suggests the frontmatter fix for body fields when the tier is in frontmatter', async () => {
      const value = [
        '---', // 1
        'id: C-06', // 2
        'verification: auto', // 3
        '---', // 4
        '', // 5
        '# C-06: ExportCsv', // 6
        '', // 7
        '**Steps:**', // 8
        '- Click Export', // 9
        '', // 10
        '**Acceptance Criteria:** A file downloads', // 11
        ''
      ].join('\n')
      expect(await check(value)).toEqual([
        expected('8:3-8:8', reason('steps', 'C-06', 'verification')),
        expected('11:3-11:22', reason('acceptance criteria', 'C-06', 'verification'))
      ])
    })

    it('suggests the markdown fix for frontmatter fields when the tier is in the body', async () => {
      const value = '---\nid: C-06\nsteps:\n  - Click Export\n---\n\n# C-06: ExportCsv\n\n**Verification:** auto\n'
      expect(await check(value)).toEqual([expected('3:1-3:6', reason('steps', 'C-06'))])
    })

    it('reports a lone string that says nothing in frontmatter: YAML reads it as one item', async () => {
      expect(await check('---\nid: C-06\nverification: auto\nsteps: None\n---\n')).toEqual([
        expected('4:1-4:6', reason('steps', 'C-06', 'verification'))
      ])
    })

    it('leaves empty lists alone', async () => {
      expect(await check('---\nid: C-06\nverification: auto\nsteps: []\nacceptance_criteria:\n---\n')).toEqual([])
    })
  })

  describe('severity', () => {
    const value = orderEmail('auto', '**Steps:**\n- Place an order\n')

    it('is a warning by default', async () => {
      expect(await check(value)).toEqual([expected('5:3-5:8', reason('steps', 'C-03 OrderEmail'))])
    })

    it('is fatal with `error`', async () => {
      expect(await check(value, ['error'])).toEqual([expected('5:3-5:8', reason('steps', 'C-03 OrderEmail'), {fatal: true})])
    })

    it('is off with `false` or `off`', async () => {
      expect(await check(value, false)).toEqual([])
      expect(await check(value, ['off'])).toEqual([])
    })

    it('can be turned off in a document with a comment', async () => {
      expect(await check('<!--lint disable auto-tier-ignored-fields-->\n\n' + value)).toEqual([])
    })
  })
})
