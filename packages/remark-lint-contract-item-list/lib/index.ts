/**
 * remark-lint rule to warn when the text under an Acceptance Criteria or
 * Steps label is not a list (a paragraph, a code block, a table, a quote):
 * it is read as no criteria or steps at all.
 */
import {contractRule, inlineCode, report} from '@verification-tiers/lint-rule'

const remarkLintContractItemList = contractRule('contract-item-list', function ({contracts}, file) {
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]!
    for (let each = 0; each < contract.fields.length; each++) {
      const field = contract.fields[each]!
      if (field.key !== 'acceptanceCriteria' && field.key !== 'steps') continue
      const what = field.key === 'steps' ? 'steps' : 'acceptance criteria'
      for (let at = 0; at < field.unread.length; at++) {
        const text = field.unread[at]!
        report(
          file,
          `Unexpected ${text.kind} under ${inlineCode(field.label)} in ${contract.label}, expected a list of ${what}`,
          text.position
        )
      }
    }
  }
})

export default remarkLintContractItemList
