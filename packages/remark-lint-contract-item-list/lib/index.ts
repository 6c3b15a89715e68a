/**
 * remark-lint rule to warn when text under an Acceptance Criteria or Steps
 * label (or a tool's label of scenarios) is not a list: a paragraph or code
 * block in place of the list, a table or a quote anywhere up to the next
 * label. It is read as no criteria or steps at all.
 */
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const remarkLintContractItemList = contractRule('contract-item-list', function ({contracts}, _file, _options, {report}) {
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]
    for (let each = 0; each < contract.fields.length; each++) {
      const field = contract.fields[each]
      // Only fields that hold items have unread text: criteria, steps, and a tool's scenarios.
      if (field.unread.length === 0) continue
      const what = field.key === 'steps' ? 'steps' : 'acceptance criteria'
      for (let at = 0; at < field.unread.length; at++) {
        const text = field.unread[at]
        report(`Unexpected ${text.kind} under ${inlineCode(field.label)} in ${contract.label}, expected a list of ${what}`, text.position)
      }
    }
  }
})

export default remarkLintContractItemList
