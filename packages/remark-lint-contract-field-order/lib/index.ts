/**
 * remark-lint rule to warn when Verification, Acceptance Criteria and Steps
 * are out of that order, or not after Security and before Dependencies
 * where those exist: the order the contract format defines.
 */
import {dialectOf} from '@verification-tiers/contracts'
import type {ContractField, FieldKey} from '@verification-tiers/contracts'
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

const order: readonly FieldKey[] = ['security', 'verification', 'acceptanceCriteria', 'steps', 'dependencies']
const tierFields: ReadonlySet<FieldKey> = new Set(['verification', 'acceptanceCriteria', 'steps'])

const remarkLintContractFieldOrder = contractRule('contract-field-order', function ({contracts}, _file, _options, {report}) {
  for (const contract of contracts) {
    // First of each ordered field; YAML keys and body labels are ordered apart.
    const fields: ContractField[] = []
    for (const field of contract.fields) {
      if (!field.key || !order.includes(field.key)) continue
      if (!fields.some((seen) => seen.key === field.key && sameBlock(seen, field))) fields.push(field)
    }
    for (const [index, field] of fields.entries()) {
      // The first earlier field that belongs after this one; Security and Dependencies are only placed against tier fields.
      const misplaced = fields
        .slice(0, index)
        .find((earlier) => sameBlock(earlier, field) && rank(earlier) > rank(field) && (tierFields.has(earlier.key!) || tierFields.has(field.key!)))
      if (!misplaced) continue
      report(
        `Unexpected ${inlineCode(field.label)} after ${inlineCode(misplaced.label)} in ${contract.label}, expected ${inlineCode(field.expectedLabel!)} before ${inlineCode(misplaced.expectedLabel!)}`,
        field.labelPosition
      )
    }
  }
})

function rank(field: ContractField): number {
  return order.indexOf(field.key!)
}

/** Whether two fields are ordered together: YAML keys apart from labels in the body, whatever the dialect. */
function sameBlock(a: ContractField, b: ContractField): boolean {
  return (dialectOf(a.dialect).reads === 'frontmatter') === (dialectOf(b.dialect).reads === 'frontmatter')
}

export default remarkLintContractFieldOrder
