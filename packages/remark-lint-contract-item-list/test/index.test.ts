import remarkLintContractItemList from 'remark-lint-contract-item-list'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'contract-item-list'
const {expected, check} = ruleHarness(ruleId, remarkLintContractItemList)

const reason = (kind: string, label: string, contract: string) =>
  `Unexpected ${kind} under \`${label}\` in ${contract}, expected a list of ${label.toLowerCase().startsWith('step') ? 'steps' : 'acceptance criteria'}`

const campaignCard = '### C-04: CampaignCard\n\n**Verification:** verify\n'
const fenced = (rest: string) => '### C-03: CampaignStatusBadge\n\n```\nVerification: verify\n' + rest + '```\n'

describe('remark-lint-contract-item-list', () => {
  describe('bold labels', () => {
    it('reports a paragraph after an empty Steps label, at the paragraph', async () => {
      expect(await check(campaignCard + '**Steps:**\n\nOpen the page and click Save\n')).toEqual([
        expected('6:1-6:29', reason('paragraph', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('reports a wrapped paragraph over all its lines', async () => {
      expect(await check(campaignCard + '**Acceptance Criteria:**\n\nEach card shows the name\nand the spend.\n')).toEqual([
        expected('6:1-7:15', reason('paragraph', 'Acceptance Criteria', 'C-04 CampaignCard'))
      ])
    })

    it('reports a code block after an empty label', async () => {
      expect(await check(campaignCard + '**Steps:**\n\n```sh\nnpm run e2e -- campaigns\n```\n')).toEqual([
        expected('6:1-8:4', reason('code', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('reports an indented code block after an empty label', async () => {
      expect(await check(campaignCard + '**Steps:**\n\n    npm run e2e\n')).toEqual([
        expected('6:1-6:16', reason('code', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('reports a block quote after an empty label', async () => {
      expect(await check(campaignCard + '**Acceptance Criteria:**\n\n> Cards show the spend\n')).toEqual([
        expected('6:1-6:23', reason('quote', 'Acceptance Criteria', 'C-04 CampaignCard'))
      ])
    })

    it('names the label as written, near misses too', async () => {
      expect(await check(campaignCard + '**Acceptance Critera:**\n\nCards show the spend\n')).toEqual([
        expected('6:1-6:21', reason('paragraph', 'Acceptance Critera', 'C-04 CampaignCard'))
      ])
      expect(await check(campaignCard + '**Steps**:\n\nOpen the page\n')).toEqual([
        expected('6:1-6:14', reason('paragraph', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('reports both fields of a contract, in order', async () => {
      const value = campaignCard + '**Acceptance Criteria:**\n\nCards show the spend\n\n**Steps:**\n\n```\nopen /campaigns\n```\n'
      expect(await check(value)).toEqual([
        expected('6:1-6:21', reason('paragraph', 'Acceptance Criteria', 'C-04 CampaignCard')),
        expected('10:1-12:4', reason('code', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('accepts lists', async () => {
      expect(await check(campaignCard + '**Acceptance Criteria:**\n- Cards show the spend\n\n**Steps:**\n\n1. Open /campaigns\n')).toEqual([])
    })

    it('accepts a one-line value, and a value on the next line of the paragraph', async () => {
      expect(await check(campaignCard + '**Steps:** Open /campaigns\n')).toEqual([])
      expect(await check(campaignCard + '**Steps:**\nOpen /campaigns\n')).toEqual([])
    })

    it('accepts an empty label followed by the next labels', async () => {
      expect(await check(campaignCard + '**Acceptance Criteria:**\n\n**Steps:** Open /campaigns\n')).toEqual([])
      expect(await check(campaignCard + '**Steps:**\n')).toEqual([])
    })

    it('leaves text under other labels alone', async () => {
      expect(await check(campaignCard + '**Boundary:**\n\nCampaignCard component -> rendered card\n')).toEqual([])
      expect(await check(campaignCard + '**Notes:**\n\nSome prose.\n')).toEqual([])
    })

    it('leaves a heading after an empty label alone', async () => {
      expect(await check(campaignCard + '**Steps:**\n\n#### Notes\n')).toEqual([])
    })

    it('reports on auto contracts too', async () => {
      expect(await check('### C-02: CampaignSummaryApi\n\n**Verification:** auto\n**Steps:**\n\nRun curl\n')).toEqual([
        expected('6:1-6:9', reason('paragraph', 'Steps', 'C-02 CampaignSummaryApi'))
      ])
    })

    it('checks each contract of a document', async () => {
      const value = [
        '## S-01: Campaign Cards',
        '',
        '### C-04: CampaignCard',
        '',
        '**Steps:**',
        '',
        'Open the page and click Save',
        '',
        '### Contract: CampaignList',
        '',
        '**Acceptance Criteria:**',
        '',
        'The list is sorted',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([
        expected('7:1-7:29', reason('paragraph', 'Steps', 'C-04 CampaignCard')),
        expected('13:1-13:19', reason('paragraph', 'Acceptance Criteria', 'CampaignList'))
      ])
    })
  })

  describe('fenced `Field:` blocks', () => {
    it('reports plain lines under an empty Steps label', async () => {
      expect(await check(fenced('Steps:\nOpen the page and click Save\n'))).toEqual([
        expected('6:1-6:29', reason('paragraph', 'Steps', 'C-03 CampaignStatusBadge'))
      ])
    })

    it('reports lines that go on as one paragraph, and each paragraph after a blank line', async () => {
      expect(await check(fenced('Acceptance Criteria:\nA paused campaign\nshows a grey badge\n\nIt says Paused\n'))).toEqual([
        expected('6:1-7:19', reason('paragraph', 'Acceptance Criteria', 'C-03 CampaignStatusBadge')),
        expected('9:1-9:15', reason('paragraph', 'Acceptance Criteria', 'C-03 CampaignStatusBadge'))
      ])
    })

    it('accepts items, indented or not, and a one-line value', async () => {
      expect(await check(fenced('Steps:\n  - Open the page\n'))).toEqual([])
      expect(await check(fenced('Steps:\n- Open the page\n1. Click Save\n'))).toEqual([])
      expect(await check(fenced('Steps: Open the page\n'))).toEqual([])
    })

    it('accepts an empty label followed by the next label', async () => {
      expect(await check(fenced('Acceptance Criteria:\nSteps:\n  - Open the page\n'))).toEqual([])
    })

    it('reports plain lines behind `// `', async () => {
      const value = '### C-04: FormatSpend\n\n```go\n// Verification: verify\n// Steps:\n//   Format 12.5 EUR\n```\n'
      expect(await check(value)).toEqual([expected('6:6-6:21', reason('paragraph', 'Steps', 'C-04 FormatSpend'))])
    })
  })

  describe('YAML frontmatter', () => {
    it('leaves frontmatter values alone', async () => {
      expect(await check('---\nid: C-06\nverification: verify\nsteps: Click Export\nacceptance_criteria: []\n---\n')).toEqual([])
    })

    it('reports text in the body of a frontmatter contract', async () => {
      const value = '---\nid: C-06\ncontract: ExportCsv\n---\n\n# C-06: ExportCsv\n\n**Steps:**\n\nClick Export\n'
      expect(await check(value)).toEqual([expected('10:1-10:13', reason('paragraph', 'Steps', 'C-06 ExportCsv'))])
    })
  })

  describe('severity', () => {
    const value = campaignCard + '**Steps:**\n\nOpen the page\n'
    const message = (fields: {fatal?: boolean} = {}) => expected('6:1-6:14', reason('paragraph', 'Steps', 'C-04 CampaignCard'), fields)

    it('is a warning by default, and with `warn`', async () => {
      expect(await check(value)).toEqual([message()])
      expect(await check(value, ['warn'])).toEqual([message()])
    })

    it('is fatal with `error`', async () => {
      expect(await check(value, ['error'])).toEqual([message({fatal: true})])
    })

    it('is off with `false` or `off`', async () => {
      expect(await check(value, false)).toEqual([])
      expect(await check(value, ['off'])).toEqual([])
    })

    it('can be turned off in a document with a comment', async () => {
      expect(await check('<!--lint disable contract-item-list-->\n\n' + value)).toEqual([])
    })
  })
})
