/**
 * remark-lint rule to warn when an auto-tier contract lists acceptance
 * criteria or steps: nobody checks them on the auto tier, so they mislead.
 */
import {labelFor} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const remarkLintAutoTierIgnoredFields = contractRule('auto-tier-ignored-fields', function ({contracts}, _file, _options, {tool, report}) {
  // A spec-kit, OpenSpec or Kiro unit needs its criteria whatever its tier: the tool's template asks for them.
  if (tool) return
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]
    if (contract.tier !== 'auto') continue
    // Suggest the fix in the dialect the tier is written in.
    const tierField = contract.fields.find((field) => field.key === 'verification')
    const verify = inlineCode(labelFor('verification', tierField?.dialect ?? contract.dialect) + ': verify')
    for (let each = 0; each < contract.fields.length; each++) {
      const field = contract.fields[each]
      if (field.key !== 'acceptanceCriteria' && field.key !== 'steps') continue
      if (field.items.length === 0) continue
      const what = field.key === 'steps' ? 'steps' : 'acceptance criteria'
      report(
        `Unexpected ${what} on auto contract ${contract.label}, expected none as the ${inlineCode('auto')} tier ignores them, or ${verify}`,
        field.labelPosition
      )
    }
  }
})

export default remarkLintAutoTierIgnoredFields
