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
      expect(await check(value)).toEqual([
        expected('3:1-3:28', reason('C-05 SpendColumnHeader')),
        expected('12:1-12:15', reason('C-07 Last'))
      ])
    })

    it('leaves documents without contracts alone', async () => {
      expect(await check('# Notes\n\n**Boundary:** none\n')).toEqual([])
    })
  })

  describe('fenced `Field:` blocks', () => {
    it('reports a fenced contract without a Verification line', async () => {
      const value = '### C-03: CampaignStatusBadge\n\n```\nContract: CampaignStatusBadge\nSteps:\n  - Pause one\n```\n'
      expect(await check(value)).toEqual([expected('1:1-1:30', reason('C-03 CampaignStatusBadge'))])
    })

    it('accepts a Verification line', async () => {
      expect(await check('### C-03: CampaignStatusBadge\n\n```\nVerification: verify\n```\n')).toEqual([])
    })
  })

  describe('`// ` comment blocks', () => {
    it('reports a contract without a Verification line behind `// `', async () => {
      const value = '### C-04: FormatSpend\n\n```go\n// Contract: FormatSpend\n// Slice: S-02\n```\n'
      expect(await check(value)).toEqual([expected('1:1-1:22', reason('C-04 FormatSpend'))])
    })

    it('accepts a Verification line behind `// `', async () => {
      expect(await check('### C-04: FormatSpend\n\n```go\n// Verification: auto\n```\n')).toEqual([])
    })
  })

  describe('YAML frontmatter', () => {
    it('reports a contract without `verification` on its `contract` entry, with snake_case labels', async () => {
      const value = '---\nid: C-06\ncontract: ExportCsv\nsteps:\n  - Click Export\n---\n'
      expect(await check(value)).toEqual([expected('3:1-3:20', reason('C-06 ExportCsv', 'verification'))])
    })

    it('reports on the `id` entry when there is no `contract`', async () => {
      expect(await check('---\nslice: S-02\nid: C-06\n---\n')).toEqual([expected('3:1-3:9', reason('C-06', 'verification'))])
    })

    it('reports on the whole frontmatter when there is neither', async () => {
      expect(await check('---\nsteps:\n  - Click Export\n---\n')).toEqual([
        expected(
          '1:1-4:4',
          'Unexpected contract (unnamed) without a verification tier, expected `verification: auto` or `verification: verify`'
        )
      ])
    })

    it('accepts a tier given in the body that repeats the contract’s heading', async () => {
      const value = '---\nid: C-06\ncontract: ExportCsv\n---\n\n# C-06: ExportCsv\n\n**Verification:** verify\n'
      expect(await check(value)).toEqual([])
    })

    it('accepts `verification`, and leaves frontmatter that is no contract alone', async () => {
      expect(await check('---\nid: C-06\nverification: auto\n---\n')).toEqual([])
      expect(await check('---\ntitle: Notes\n---\n\n# Notes\n')).toEqual([])
    })
  })

  describe('severity', () => {
    it('is a warning by default', async () => {
      expect(await check(spendHeader)).toEqual([expected('1:1-1:28', reason('C-05 SpendColumnHeader'))])
    })

    it('is fatal with `error`', async () => {
      expect(await check(spendHeader, ['error'])).toEqual([
        expected('1:1-1:28', reason('C-05 SpendColumnHeader'), {fatal: true})
      ])
    })

    it('is off with `false` or `off`', async () => {
      expect(await check(spendHeader, false)).toEqual([])
      expect(await check(spendHeader, ['off'])).toEqual([])
    })

    it('can be turned off in a document with a comment', async () => {
      expect(await check('<!--lint disable explicit-verification-tier-->\n\n' + spendHeader)).toEqual([])
    })
  })
})
