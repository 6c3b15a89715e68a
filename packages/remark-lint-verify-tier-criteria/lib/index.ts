/**
 * remark-lint rule to warn when a contract on the verify tier (written, by
 * its slice, or by default) has neither acceptance criteria nor steps: the
 * human checkpoint would have nothing to check. A contract the project’s
 * slice graph puts on `auto`, or in slices that each ask a human check of
 * their own, is left alone, as the gate does.
 */
import {defaultTier, effectiveTier, labelFor} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'
import type {GraphSlice} from '@verification-tiers/lint-rule'

/** Configuration. */
export interface Options {
  /** Leave contracts with no Verification field alone (default: `false`). */
  ignoreDefaultTier?: boolean | null | undefined
}

/**
 * The first slice whose checkpoint would show nothing of the contract: one
 * where it is on `verify` (its own tier, else the slice’s, else the default)
 * and the slice asks no human check of its own.
 */
function emptyCheckpoint(contract: Contract, slices: readonly GraphSlice[]): GraphSlice | undefined {
  return slices.find((slice) => slice.humanCheck === null && effectiveTier(contract.tier ?? slice.tier) === 'verify')
}

const remarkLintVerifyTierCriteria = contractRule<Options | null | undefined>(
  'verify-tier-criteria',
  function ({contracts}, _file, options, {slices: project, tool, report}) {
    const ignoreDefaultTier = options?.ignoreDefaultTier ?? false
    if (tool?.tool === 'bmad') {
      // A BMAD story states no tier: a story without criteria is reported in the gate's words, at its heading; a spec
      // without criteria (a one-shot change) asks the person only whether it is what they meant.
      const story = contracts[0]
      if (story && !ignoreDefaultTier) for (const problem of tool.problems) report(problem.message, story.headingPosition)
      return
    }
    for (let index = 0; index < contracts.length; index++) {
      const contract = contracts[index]
      if (contract.criteria.length > 0 || contract.steps.length > 0) continue
      const slices = project.slicesOf(contract)
      // In a slice graph: checked in each of its slices, as the gate checks it there.
      const slice = slices.length > 0 ? emptyCheckpoint(contract, slices) : undefined
      if (slices.length > 0 && slice === undefined) continue
      if (contract.tier !== null && contract.effectiveTier === 'verify') {
        // Written `verify`, or an invalid tier (`Verify`, `manual`), which counts as verify.
        const field = contract.fields.find((candidate) => candidate.key === 'verification')
        report(
          `Unexpected verify contract ${contract.label} without acceptance criteria or steps, expected at least one criterion or step`,
          field?.position ?? contract.headingPosition
        )
      } else if (contract.tier === null && !ignoreDefaultTier) {
        const verification = labelFor('verification', contract.dialect)
        const from = slice?.tier === 'verify' ? `its slice ${slice.id} is on ${inlineCode('verify')}` : `its tier defaults to ${inlineCode(defaultTier)}`
        report(
          `Unexpected contract ${contract.label} without acceptance criteria or steps (${from}), expected at least one criterion or step, or ${inlineCode(verification + ': auto')}`,
          contract.headingPosition
        )
      }
    }
  }
)

export default remarkLintVerifyTierCriteria
