import remarkLintContractItemList from 'remark-lint-contract-item-list'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'contract-item-list'
const {expected, check} = ruleHarness(ruleId, remarkLintContractItemList)

const reason = (kind: string, label: string, contract: string) =>
  `Unexpected ${kind} under \`${label}\` in ${contract}, expected a list of ${label.toLowerCase().startsWith('step') ? 'steps' : 'acceptance criteria'}`

const campaignCard = '### C-04: CampaignCard\n\n**Verification:** verify\n'

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
})
