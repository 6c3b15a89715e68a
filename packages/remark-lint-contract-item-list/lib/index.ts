/**
 * remark-lint rule to warn when the text under an Acceptance Criteria or
 * Steps label is not a list (a paragraph, a code block, a table, a quote):
 * it is read as no criteria or steps at all.
 */
import {contractRule, inlineCode, report} from '@verification-tiers/lint-rule'

const remarkLintContractItemList = contractRule('contract-item-list', function ({contracts}, file) {
  for (const contract of contracts) {
    for (const field of contract.fields) {
      if (field.key !== 'acceptanceCriteria' && field.key !== 'steps') continue
      const what = field.key === 'steps' ? 'steps' : 'acceptance criteria'
      for (const text of field.unread) {
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
