import remarkLintVerificationTier from 'remark-lint-verification-tier'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'verification-tier'
const {expected, check} = ruleHarness(ruleId, remarkLintVerificationTier)

const bold = (tier: string) => `### C-01: CartTotal\n\n**Boundary:** cartTotal(items) -> money\n**Verification:** ${tier}\n`

describe('remark-lint-verification-tier', () => {
  describe('bold labels', () => {
    it('accepts `auto` and `verify`, also in inline code', async () => {
      expect(await check(bold('auto'))).toEqual([])
      expect(await check(bold('verify'))).toEqual([])
      expect(await check(bold('`verify`'))).toEqual([])
      expect(await check(bold('` auto `'))).toEqual([])
    })

    it('reports `Verify` with the one fix `verify`', async () => {
      expect(await check(bold('Verify'))).toEqual([
        expected('4:19-4:25', 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`', {
          actual: 'Verify',
          expected: ['verify']
        })
      ])
    })

    it('reports `AUTO` with the one fix `auto`', async () => {
      expect(await check(bold('AUTO'))).toEqual([
        expected('4:19-4:23', 'Unexpected verification tier `AUTO` on C-01 CartTotal, expected `auto`', {
          actual: 'AUTO',
          expected: ['auto']
        })
      ])
    })

    it('reports `manual` with both tiers as fixes', async () => {
      expect(await check(bold('manual'))).toEqual([
        expected('4:19-4:25', 'Unexpected verification tier `manual` on C-01 CartTotal, expected `auto` or `verify`', {
          actual: 'manual',
          expected: ['auto', 'verify']
        })
      ])
    })

    it('reports an unfilled template `auto | verify`', async () => {
      expect(await check(bold('auto | verify'))).toEqual([
        expected('4:19-4:32', 'Unexpected verification tier `auto | verify` on C-01 CartTotal, expected `auto` or `verify`', {
          actual: 'auto | verify',
          expected: ['auto', 'verify']
        })
      ])
    })

    it('reads a tier in inline code without its backticks, but keeps them in `actual`', async () => {
      expect(await check(bold('`Verify`'))).toEqual([
        expected('4:19-4:27', 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`', {
          actual: '`Verify`',
          expected: ['verify']
        })
      ])
    })

    it('reports an empty tier on the label, with no fix', async () => {
      expect(await check('### C-01: CartTotal\n\n**Verification:**\n')).toEqual([
        expected('3:3-3:15', 'Unexpected empty verification tier on C-01 CartTotal, expected `auto` or `verify`')
      ])
    })

    it('reports an empty tier written as bare backticks', async () => {
      expect(await check('### C-01: CartTotal\n\n**Verification:** ``\n')).toEqual([
        expected('3:3-3:15', 'Unexpected empty verification tier on C-01 CartTotal, expected `auto` or `verify`')
      ])
    })

    it('names a contract with a `Contract: Name` heading by its name', async () => {
      expect(await check('## Contract: Billing\n\n**Verification:** Auto\n')).toEqual([
        expected('3:19-3:23', 'Unexpected verification tier `Auto` on Billing, expected `auto`', {
          actual: 'Auto',
          expected: ['auto']
        })
      ])
    })

    it('checks every Verification field of a contract, near misses of the label too', async () => {
      const value = '### C-02: PaymentForm\n\n**Verification:** verify\n\n**Verifcation:** yes\n'
      expect(await check(value)).toEqual([
        expected(
          '5:18-5:21',
          'Unexpected second tier `yes` on C-02 PaymentForm, expected one tier: line 3 gives `verify`, and the contract reads as `verify`',
          {
            actual: 'yes',
            expected: ['verify']
          }
        ),
        expected('5:18-5:21', 'Unexpected verification tier `yes` on C-02 PaymentForm, expected `auto` or `verify`', {
          actual: 'yes',
          expected: ['auto', 'verify']
        })
      ])
    })

    it('checks each contract of a document', async () => {
      const value = [
        '### C-01: One',
        '',
        '**Verification:** Verify',
        '',
        '### C-02: Two',
        '',
        '**Verification:** auto',
        '',
        '### C-03: Three',
        '',
        '**Verification:** never',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([
        expected('3:19-3:25', 'Unexpected verification tier `Verify` on C-01 One, expected `verify`', {
          actual: 'Verify',
          expected: ['verify']
        }),
        expected('11:19-11:24', 'Unexpected verification tier `never` on C-03 Three, expected `auto` or `verify`', {
          actual: 'never',
          expected: ['auto', 'verify']
        })
      ])
    })

    it('leaves a Verification label under no heading alone', async () => {
      expect(await check('**Verification:** manual\n')).toEqual([])
    })

    it('reads a heading that holds a tier as a contract, named by its text', async () => {
      expect(await check('# Notes\n\n**Verification:** Verify\n')).toEqual([
        expected('3:19-3:25', 'Unexpected verification tier `Verify` on Notes, expected `verify`', {actual: 'Verify', expected: ['verify']})
      ])
    })

    it('reports two different tiers in one contract at the second, which reads as `verify`', async () => {
      const value = '### AUTH-3: Login\n\nVerification: auto\nThe reason: it has tests.\n\n**Tier:** verify\n'
      expect(await check(value)).toEqual([
        expected('6:11-6:17', 'Unexpected second tier `verify` on AUTH-3 Login, expected one tier: line 3 gives `auto`, and the contract reads as `verify`', {
          actual: 'verify',
          expected: ['auto']
        })
      ])
    })
  })
})
