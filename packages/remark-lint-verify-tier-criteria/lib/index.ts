/**
 * remark-lint rule to warn when a contract on the verify tier (written, or by
 * default) has neither acceptance criteria nor steps: the human checkpoint
 * would have nothing to check.
 */
import {defaultTier, labelFor} from '@verification-tiers/contracts'
import {contractRule, inlineCode, report} from '@verification-tiers/lint-rule'

/** Configuration. */
export interface Options {
  /** Leave contracts with no Verification field alone (default: `false`). */
  ignoreDefaultTier?: boolean | null | undefined
}

const remarkLintVerifyTierCriteria = contractRule<Options | null | undefined>(
  'verify-tier-criteria',
  function ({contracts}, file, options) {
    const ignoreDefaultTier = options?.ignoreDefaultTier ?? false
    for (const contract of contracts) {
      if (contract.criteria.length > 0 || contract.steps.length > 0) continue
      if (contract.tier !== null && contract.effectiveTier === 'verify') {
        // Written `verify`, or an invalid tier (`Verify`, `manual`), which counts as verify.
        const field = contract.fields.find((candidate) => candidate.key === 'verification')
        report(
          file,
          `Unexpected verify contract ${contract.label} without acceptance criteria or steps, expected at least one criterion or step`,
          field?.position ?? contract.headingPosition
        )
      } else if (contract.tier === null && !ignoreDefaultTier) {
        const verification = labelFor('verification', contract.dialect)
        report(
          file,
          `Unexpected contract ${contract.label} without acceptance criteria or steps (its tier defaults to ${inlineCode(defaultTier)}), expected at least one criterion or step, or ${inlineCode(verification + ': auto')}`,
          contract.headingPosition
        )
      }
    }
  }
)

export default remarkLintVerifyTierCriteria
