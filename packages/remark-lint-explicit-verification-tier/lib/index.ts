/**
 * remark-lint rule to warn when a contract has no Verification field. Such a
 * contract is on the verify tier by default; this rule asks that the choice
 * be written down.
 */
import {labelFor, tiers} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const remarkLintExplicitVerificationTier = contractRule('explicit-verification-tier', function ({contracts}, _file, _options, {report}) {
  for (const contract of contracts) {
    if (contract.tier !== null) continue
    const label = labelFor('verification', contract.dialect)
    report(
      `Unexpected contract ${contract.label} without a verification tier, expected ${tiers.map((tier) => inlineCode(label + ': ' + tier)).join(' or ')}`,
      contract.headingPosition
    )
  }
})

export default remarkLintExplicitVerificationTier
