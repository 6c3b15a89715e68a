import remarkLintContractItemList from 'remark-lint-contract-item-list'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'
import {lintAt} from '../../../test/helpers/lint-at.js'

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
      expect(await check(campaignCard + '**Steps:**\n\n    npm run e2e\n')).toEqual([expected('6:1-6:16', reason('code', 'Steps', 'C-04 CampaignCard'))])
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
      expect(await check(campaignCard + '**Steps**:\n\nOpen the page\n')).toEqual([expected('6:1-6:14', reason('paragraph', 'Steps', 'C-04 CampaignCard'))])
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

    it('reads a second list, of another bullet or numbered, and a sub-heading’s list as items: nothing to report', async () => {
      const value =
        campaignCard +
        '**Acceptance Criteria:**\n- Cards show the spend\n\n* Cards show the name\n\n1. Cards show the status\n\n#### Edge cases\n- A card without spend shows 0\n'
      expect(await check(value)).toEqual([])
    })

    it('reports a table or a quote after the list, up to the next label, at the block', async () => {
      const value =
        campaignCard +
        '**Acceptance Criteria:**\n- Cards show the spend\n\n| Criterion | Check |\n| --- | --- |\n| Cards show the name | manual |\n\n> Cards show the status\n\n**Steps:**\n1. Open /campaigns\n\n> Look at the first card\n'
      expect(await check(value)).toEqual([
        expected('7:1-9:33', reason('table', 'Acceptance Criteria', 'C-04 CampaignCard')),
        expected('11:1-11:24', reason('quote', 'Acceptance Criteria', 'C-04 CampaignCard')),
        expected('16:1-16:25', reason('quote', 'Steps', 'C-04 CampaignCard'))
      ])
    })

    it('reports a quote under a sub-heading after the criteria', async () => {
      const value = campaignCard + '**Acceptance Criteria:**\n- Cards show the spend\n\n#### Edge cases\n\n> A card without spend shows 0\n'
      expect(await check(value)).toEqual([expected('9:1-9:31', reason('quote', 'Acceptance Criteria', 'C-04 CampaignCard'))])
    })

    it('leaves prose after the list alone, and what follows the next label or heading of the contract’s rank', async () => {
      const value =
        campaignCard +
        '**Acceptance Criteria:**\n- Cards show the spend\n\nThe spend comes from the API.\n\n**Note:** the design may change.\n\n> Ask design first\n\n### Open questions\n\n> Which currency?\n'
      expect(await check(value)).toEqual([])
    })

    it('reports a table or a quote line after the items in a fenced block', async () => {
      const value =
        '### C-03: CampaignStatusBadge\n\n```\nVerification: verify\nSteps:\n- Open /campaigns\n\n| Pause a campaign | manual |\n\n> Check the badge\n```\n'
      expect(await check(value)).toEqual([
        expected('8:1-8:30', reason('table', 'Steps', 'C-03 CampaignStatusBadge')),
        expected('10:1-10:18', reason('quote', 'Steps', 'C-03 CampaignStatusBadge'))
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

  describe('spec-kit stories', () => {
    it('reads every list under Acceptance Scenarios, and reports a table or quote there', async () => {
      const spec = [
        '# Feature Specification: Tides',
        '',
        '## User Scenarios & Testing',
        '',
        '### User Story 1 - See tides (Priority: P1)',
        '',
        '**Acceptance Scenarios**:',
        '',
        '1. **Given** a station, **When** the page opens, **Then** the next tide shows.',
        '',
        '- **Given** no network, **When** the page opens, **Then** an error shows.',
        '',
        '> **Given** a bad id, **When** the page opens, **Then** a 404 shows.',
        ''
      ].join('\n')
      expect(await lintAt('specs/001-tides/spec.md', spec, [remarkLintContractItemList])).toEqual([
        '13:1-13:69: Unexpected quote under `Acceptance Scenarios` in User Story 1 - See tides, expected a list of acceptance criteria (contract-item-list)'
      ])
    })
  })
})
