import remarkLintContractFieldName from 'remark-lint-contract-field-name'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'contract-field-name'
const {expected, check} = ruleHarness(ruleId, remarkLintContractFieldName)

const misnamed = (place: string, label: string, fix: string, contract = 'C-04 ShippingOptions', fatal = false) =>
  expected(place, `Unexpected field name \`${label}\` in ${contract}, expected \`${fix}\``, {actual: label, expected: [fix], fatal})
const second = (place: string, label: string, contract = 'C-04 ShippingOptions') =>
  expected(place, `Unexpected second \`${label}\` field in ${contract}, expected each field once`)

const shipping = (label: string) => `### C-04: ShippingOptions\n\n**Verification:** verify\n**${label}:**\n- Three rates are listed, cheapest first\n`

describe('remark-lint-contract-field-name', () => {
  describe('bold labels', () => {
    it('accepts the correct labels', async () => {
      const value = [
        '### C-01: CampaignCardGrid',
        '',
        '**ID:** C-01',
        '**Contract:** CampaignCardGrid',
        '**Boundary:** CampaignList -> grid',
        '**Slice:** S-01',
        '**Input:** props',
        '**Output:** cards',
        '**Errors:** none',
        '**Invariants:** one card per campaign',
        '**Security:** text only',
        '**Verification:** verify',
        '**Acceptance Criteria:**',
        '- Cards render in a grid',
        '',
        '**Steps:**',
        '- Open /campaigns',
        '',
        '**Dependencies:** C-02',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([])
    })

    it('reports a typo on the label text, with the correct label as the fix', async () => {
      expect(await check(shipping('Acceptence Criteria'))).toEqual([misnamed('4:3-4:22', 'Acceptence Criteria', 'Acceptance Criteria')])
    })

    it('reports other casing and separators', async () => {
      expect(await check(shipping('AcceptanceCriteria'))).toEqual([misnamed('4:3-4:21', 'AcceptanceCriteria', 'Acceptance Criteria')])
      expect(await check(shipping('acceptance-criteria'))).toEqual([misnamed('4:3-4:22', 'acceptance-criteria', 'Acceptance Criteria')])
      expect(await check(shipping('acceptance_criteria'))).toEqual([misnamed('4:3-4:22', 'acceptance_criteria', 'Acceptance Criteria')])
      expect(await check('### C-04: ShippingOptions\n\n**verification:** verify\n**Id:** C-04\n')).toEqual([
        misnamed('3:3-3:15', 'verification', 'Verification'),
        misnamed('4:3-4:5', 'Id', 'ID')
      ])
    })

    it('reports small typos of short labels (`Step`, `Error`)', async () => {
      expect(await check(shipping('Step'))).toEqual([misnamed('4:3-4:7', 'Step', 'Steps')])
      expect(await check('### C-04: ShippingOptions\n\n**Error:** none\n')).toEqual([misnamed('3:3-3:8', 'Error', 'Errors')])
    })

    it('reports a label with the colon outside the bold', async () => {
      expect(await check('### C-04: ShippingOptions\n\n**Verificaton**: verify\n')).toEqual([misnamed('3:3-3:14', 'Verificaton', 'Verification')])
    })

    it('leaves unknown labels and labels too far from a known one alone', async () => {
      expect(await check('### C-04: ShippingOptions\n\n**Owner:** payments team\n**Errs:** none\n**Notes:** none\n')).toEqual([])
    })

    it('leaves short labels (`If`, `In`, `It`) alone: they are no typos of `ID`', async () => {
      const value = '### C-04: ShippingOptions\n\n**If:** the cart is empty, no rates\n**In:** cart\n**It:** ships\n**IDs:** C-04\n'
      expect(await check(value)).toEqual([])
      // Other casing of `ID` itself is still a near miss.
      expect(await check('### C-04: ShippingOptions\n\n**If:** empty\n**id:** C-04\n')).toEqual([misnamed('4:3-4:5', 'id', 'ID')])
    })

    it('leaves a label as close to two known ones alone', async () => {
      // `inutput` is two edits from both `input` and `output`.
      expect(await check('### C-04: ShippingOptions\n\n**Inutput:** rates\n')).toEqual([])
    })

    it('leaves emphasis that is no label alone', async () => {
      expect(await check('### C-04: ShippingOptions\n\n**Note that the Verification field is required:** yes\n')).toEqual([])
    })

    it('leaves labels outside a contract alone', async () => {
      expect(await check('# Notes\n\n**Acceptence Criteria:**\n- x\n')).toEqual([])
    })

    it('reports a field given twice on the second one', async () => {
      const value = '### C-04: ShippingOptions\n\n**Verification:** verify\n\n**Verification:** auto\n'
      expect(await check(value)).toEqual([second('5:3-5:15', 'Verification')])
    })

    it('reports a near miss of a field already given as both misnamed and second', async () => {
      const value = '### C-04: ShippingOptions\n\n**Steps:**\n- Open the cart\n\n**Step:**\n- Pick a rate\n'
      expect(await check(value)).toEqual([misnamed('6:3-6:7', 'Step', 'Steps'), second('6:3-6:7', 'Steps')])
    })

    it('reports every repeat of a field', async () => {
      const value = '### C-04: ShippingOptions\n\n**Slice:** S-01\n**Slice:** S-02\n**Slice:** S-03\n'
      expect(await check(value)).toEqual([second('4:3-4:8', 'Slice'), second('5:3-5:8', 'Slice')])
    })

    it('counts fields per contract', async () => {
      const value = '### C-01: One\n\n**Verification:** verify\n\n### C-02: Two\n\n**Verification:** auto\n**Verifcation:** auto\n'
      expect(await check(value)).toEqual([misnamed('8:3-8:14', 'Verifcation', 'Verification', 'C-02 Two'), second('8:3-8:14', 'Verification', 'C-02 Two')])
    })
  })
})
