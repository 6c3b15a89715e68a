/** What the tests of positions share: every position the contract model gives. */
import type {ContractAnalysis} from '@verification-tiers/contracts'
import type {Position} from 'unist'

/** Every position the model gives, each with what it places: contracts, headings, fields, labels, values, items, problems. */
export function positionsOf(analysis: ContractAnalysis): Array<[string, Position]> {
  const positions: Array<[string, Position]> = []
  for (const contract of analysis.contracts) {
    positions.push([contract.label, contract.position], [contract.label + ' heading', contract.headingPosition])
    for (const field of contract.fields) {
      positions.push([field.label, field.position], [field.label + ' label', field.labelPosition])
      if (field.valuePosition) positions.push([field.label + ' value', field.valuePosition])
      for (const item of field.items) positions.push([field.label + ' item ' + JSON.stringify(item.text), item.position])
    }
    for (const item of [...contract.criteria, ...contract.steps]) positions.push(['item ' + JSON.stringify(item.text), item.position])
  }
  for (const problem of analysis.problems) positions.push(['problem ' + problem.subject, problem.place])
  return positions
}
