import remarkLintExplicitVerificationTier from 'remark-lint-explicit-verification-tier'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'explicit-verification-tier'
const {expected, check} = ruleHarness(ruleId, remarkLintExplicitVerificationTier)

const reason = (contract: string, label = 'Verification') =>
  `Unexpected contract ${contract} without a verification tier, expected \`${label}: auto\` or \`${label}: verify\``

const spendHeader = '### C-05: SpendColumnHeader\n\n**Boundary:** Table header -> currency label\n**Slice:** S-02\n'

describe('remark-lint-explicit-verification-tier', () => {
  describe('bold labels', () => {
    it('reports a contract without a Verification field on its heading', async () => {
      expect(await check(spendHeader)).toEqual([expected('1:1-1:28', reason('C-05 SpendColumnHeader'))])
    })

    it('reports a contract with no fields at all', async () => {
      expect(await check('## C-09\n\nNothing here yet.\n')).toEqual([expected('1:1-1:8', reason('C-09'))])
      expect(await check('## Contract: Billing\n')).toEqual([expected('1:1-1:21', reason('Billing'))])
    })

    it('accepts any written tier, valid or not: the tier rule checks its value', async () => {
      for (const tier of ['auto', 'verify', 'Verify', 'auto | verify', '']) {
        expect(await check(spendHeader + `**Verification:** ${tier}\n`)).toEqual([])
      }
    })

    it('accepts a near miss of the label: the field-name rule reports it', async () => {
      expect(await check(spendHeader + '**Verifcation:** verify\n')).toEqual([])
    })

    it('reports each contract without a tier', async () => {
      const value = '## S-02: Currency\n\n' + spendHeader + '\n### C-06: Other\n\n**Verification:** auto\n\n### C-07: Last\n'
      expect(await check(value)).toEqual([expected('3:1-3:28', reason('C-05 SpendColumnHeader')), expected('12:1-12:15', reason('C-07 Last'))])
    })

    it('leaves documents without contracts alone', async () => {
      expect(await check('# Notes\n\n**Boundary:** none\n')).toEqual([])
    })
  })
})
