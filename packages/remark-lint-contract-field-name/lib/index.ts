/**
 * remark-lint rule to warn when a contract field label is a near miss of a
 * known one (`Acceptence Criteria`, `AcceptanceCriteria`, `Step`,
 * `acceptance-criteria` in YAML), or when a contract gives a field twice.
 */
import type {ContractField, FieldKey} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const remarkLintContractFieldName = contractRule('contract-field-name', function ({contracts}, _file, _options, {tool, report}) {
  // A spec-kit, OpenSpec or Kiro file names its sections as the tool's template does, in any language: no label of ours to suggest.
  if (tool) return
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]
    const first = new Map<FieldKey, ContractField>()
    for (let each = 0; each < contract.fields.length; each++) {
      const field = contract.fields[each]
      if (!field.key || !field.expectedLabel) continue
      if (field.label !== field.expectedLabel) {
        report(`Unexpected field name ${inlineCode(field.label)} in ${contract.label}, expected ${inlineCode(field.expectedLabel)}`, field.labelPosition, {
          actual: field.label,
          expected: [field.expectedLabel]
        })
      }
      const earlier = first.get(field.key)
      if (earlier) {
        report(`Unexpected second ${inlineCode(field.expectedLabel)} field in ${contract.label}, expected each field once`, field.labelPosition, {
          cause: {reason: `First ${inlineCode(field.expectedLabel)} field of ${contract.label}`, place: earlier.labelPosition}
        })
      } else {
        first.set(field.key, field)
      }
    }
  }
})

export default remarkLintContractFieldName
