import remarkLintContractFieldOrder from 'remark-lint-contract-field-order'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'contract-field-order'
const {expected, check} = ruleHarness(ruleId, remarkLintContractFieldOrder)

const reason = (label: string, after: string, fix: string, before: string, contract = 'C-01 CampaignCardGrid') =>
  `Unexpected \`${label}\` after \`${after}\` in ${contract}, expected \`${fix}\` before \`${before}\``

/** A bold contract with one field per line, in the order given. */
const contract = (...labels: string[]) => '### C-01: CampaignCardGrid\n\n' + labels.map((label) => `**${label}:** x`).join('\n') + '\n'

describe('remark-lint-contract-field-order', () => {
  describe('bold labels', () => {
    it('accepts the order of the contract format', async () => {
      expect(await check(contract('Boundary', 'Slice', 'Input', 'Security', 'Verification', 'Acceptance Criteria', 'Steps', 'Dependencies'))).toEqual([])
    })

    it('accepts any subset in order, and fields the order does not place anywhere', async () => {
      expect(await check(contract('Verification', 'Steps'))).toEqual([])
      expect(await check(contract('Steps', 'Boundary', 'Owner', 'Dependencies'))).toEqual([])
      expect(await check(contract('Boundary'))).toEqual([])
    })

    it('reports Acceptance Criteria after Steps', async () => {
      expect(await check(contract('Verification', 'Steps', 'Acceptance Criteria'))).toEqual([
        expected('5:3-5:22', reason('Acceptance Criteria', 'Steps', 'Acceptance Criteria', 'Steps'))
      ])
    })

    it('reports Verification after Acceptance Criteria', async () => {
      expect(await check(contract('Acceptance Criteria', 'Verification'))).toEqual([
        expected('4:3-4:15', reason('Verification', 'Acceptance Criteria', 'Verification', 'Acceptance Criteria'))
      ])
    })

    it('reports Verification after Steps', async () => {
      expect(await check(contract('Steps', 'Verification'))).toEqual([expected('4:3-4:15', reason('Verification', 'Steps', 'Verification', 'Steps'))])
    })

    it('reports Security after a tier field', async () => {
      expect(await check(contract('Verification', 'Security'))).toEqual([expected('4:3-4:11', reason('Security', 'Verification', 'Security', 'Verification'))])
      expect(await check(contract('Steps', 'Security'))).toEqual([expected('4:3-4:11', reason('Security', 'Steps', 'Security', 'Steps'))])
    })

    it('reports tier fields after Dependencies', async () => {
      expect(await check(contract('Dependencies', 'Verification', 'Steps'))).toEqual([
        expected('4:3-4:15', reason('Verification', 'Dependencies', 'Verification', 'Dependencies')),
        expected('5:3-5:8', reason('Steps', 'Dependencies', 'Steps', 'Dependencies'))
      ])
    })

    it('leaves Security after Dependencies alone: only tier fields are placed against them', async () => {
      expect(await check(contract('Dependencies', 'Security'))).toEqual([])
      expect(await check(contract('Dependencies', 'Boundary', 'Security', 'Owner'))).toEqual([])
    })

    it('reports Security after Verification even with Dependencies between them', async () => {
      expect(await check(contract('Verification', 'Dependencies', 'Security'))).toEqual([
        expected('5:3-5:11', reason('Security', 'Verification', 'Security', 'Verification'))
      ])
    })

    it('names the first earlier field that belongs after the reported one', async () => {
      // Dependencies comes later than Steps, but Steps is the first one Verification should precede.
      expect(await check(contract('Steps', 'Dependencies', 'Verification'))).toEqual([
        expected('5:3-5:15', reason('Verification', 'Steps', 'Verification', 'Steps'))
      ])
      expect(await check(contract('Dependencies', 'Steps', 'Verification'))).toEqual([
        expected('4:3-4:8', reason('Steps', 'Dependencies', 'Steps', 'Dependencies')),
        expected('5:3-5:15', reason('Verification', 'Dependencies', 'Verification', 'Dependencies'))
      ])
      // Security skips Dependencies, which it is not placed against, and names Acceptance Criteria.
      expect(await check(contract('Dependencies', 'Acceptance Criteria', 'Steps', 'Security'))).toEqual([
        expected('4:3-4:22', reason('Acceptance Criteria', 'Dependencies', 'Acceptance Criteria', 'Dependencies')),
        expected('5:3-5:8', reason('Steps', 'Dependencies', 'Steps', 'Dependencies')),
        expected('6:3-6:11', reason('Security', 'Acceptance Criteria', 'Security', 'Acceptance Criteria'))
      ])
    })

    it('still places tier fields after Security that came after Dependencies', async () => {
      expect(await check(contract('Dependencies', 'Security', 'Acceptance Criteria'))).toEqual([
        expected('5:3-5:22', reason('Acceptance Criteria', 'Dependencies', 'Acceptance Criteria', 'Dependencies'))
      ])
    })

    it('compares each field with every earlier one, those out of order too', async () => {
      // Verification and Acceptance Criteria both come too late for Steps; they are in order with each other.
      expect(await check(contract('Steps', 'Verification', 'Acceptance Criteria'))).toEqual([
        expected('4:3-4:15', reason('Verification', 'Steps', 'Verification', 'Steps')),
        expected('5:3-5:22', reason('Acceptance Criteria', 'Steps', 'Acceptance Criteria', 'Steps'))
      ])
    })

    it('only reads the first of a repeated field', async () => {
      expect(await check(contract('Verification', 'Acceptance Criteria', 'Steps', 'Verification'))).toEqual([])
    })

    it('quotes labels as written and expects the correct ones', async () => {
      expect(await check(contract('Step', 'Acceptence Criteria'))).toEqual([
        expected('4:3-4:22', reason('Acceptence Criteria', 'Step', 'Acceptance Criteria', 'Steps'))
      ])
    })

    it('reads a list after a label', async () => {
      const value = [
        '### C-01: CampaignCardGrid',
        '',
        '**Steps:**',
        '1. Run `npm run dev`',
        '',
        '**Verification:** verify',
        '**Acceptance Criteria:**',
        '- Campaigns render as cards',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([
        expected('6:3-6:15', reason('Verification', 'Steps', 'Verification', 'Steps')),
        expected('7:3-7:22', reason('Acceptance Criteria', 'Steps', 'Acceptance Criteria', 'Steps'))
      ])
    })

    it('checks each contract on its own', async () => {
      const value = contract('Steps') + '\n### C-02: Other\n\n**Verification:** auto\n**Steps:** x\n**Verification:** verify\n'
      expect(await check(value)).toEqual([])
      const wrong = contract('Verification') + '\n### C-02: Other\n\n**Steps:** x\n**Verification:** verify\n'
      expect(await check(wrong)).toEqual([expected('8:3-8:15', reason('Verification', 'Steps', 'Verification', 'Steps', 'C-02 Other'))])
    })
  })
})
