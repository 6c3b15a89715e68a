/**
 * remark-lint rule to warn when a contract’s verification tier is not `auto`
 * or `verify`: wrong casing (`Verify`), other words (`manual`), or an
 * unfilled template (`auto | verify`); when a contract gives two
 * different tiers (it then reads as `verify`). A contract heading that
 * markdown hides is `remark-lint-no-hidden-contract`’s.
 */
import {describeContractProblem, isTier, readTier, tiers} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const remarkLintVerificationTier = contractRule('verification-tier', function ({contracts, problems}, _file, _options, {report}) {
  for (let index = 0; index < problems.length; index++) {
    const problem = problems[index]
    if (problem.kind !== 'tier-conflict') continue
    const cause = problem.otherPlace ? {cause: {reason: `First tier ${inlineCode(problem.expected)} of ${problem.subject}`, place: problem.otherPlace}} : {}
    report(describeContractProblem(problem), problem.place, {actual: problem.actual, expected: [problem.expected], ...cause})
  }
  const allTiers = tiers.map(inlineCode).join(' or ')
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]
    for (let each = 0; each < contract.fields.length; each++) {
      const field = contract.fields[each]
      if (field.key !== 'verification') continue
      const value = readTier(field.value)
      if (isTier(value)) continue
      if (value === '') {
        report(`Unexpected empty verification tier on ${contract.label}, expected ${allTiers}`, field.labelPosition)
        continue
      }
      // A tier in other casing has one fix; anything else could mean either.
      const recased = tiers.find((tier) => tier === value.toLowerCase())
      const expected = recased ? [recased] : [...tiers]
      report(
        `Unexpected verification tier ${inlineCode(value)} on ${contract.label}, expected ${expected.map(inlineCode).join(' or ')}`,
        field.valuePosition ?? field.labelPosition,
        {actual: field.value, expected}
      )
    }
  }
})

export default remarkLintVerificationTier
