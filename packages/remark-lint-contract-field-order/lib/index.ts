/**
 * remark-lint rule to warn when Verification, Acceptance Criteria and Steps
 * are out of that order, or not after Security and before Dependencies
 * where those exist: the order the contract format defines.
 */
import type {ContractField, FieldKey} from '@verification-tiers/contracts'
import {code, contractRule, report} from '@verification-tiers/lint-rule'

const order: readonly FieldKey[] = ['security', 'verification', 'acceptanceCriteria', 'steps', 'dependencies']

const remarkLintContractFieldOrder = contractRule('contract-field-order', function ({contracts}, file) {
  for (const contract of contracts) {
    const seen = new Set<FieldKey>()
    let latest: {field: ContractField; rank: number} | null = null
    for (const field of contract.fields) {
      const rank = field.key ? order.indexOf(field.key) : -1
      if (rank === -1 || seen.has(field.key!)) continue
      seen.add(field.key!)
      // Only tier fields are placed; Security and Dependencies are where they are.
      const placed = field.key !== 'security' && field.key !== 'dependencies'
      if (latest && rank < latest.rank && (placed || latest.field.key !== 'dependencies')) {
        report(
          file,
          `Unexpected ${code(field.label)} after ${code(latest.field.label)} in ${contract.label}, expected ${code(field.expectedLabel!)} before ${code(latest.field.expectedLabel!)}`,
          field.labelPosition
        )
      } else if (!latest || rank > latest.rank) {
        latest = {field, rank}
      }
    }
  }
})

export default remarkLintContractFieldOrder
