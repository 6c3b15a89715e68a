import type {Point, Position} from 'unist'
import type {Contract, ContractIntent, ContractItem, Tier} from '@verification-tiers/contracts'
import type {FileContract} from './types.js'

/** How a tool's unit is made a contract: its label, the file it is read from, what it holds. */
export interface UnitContractParts {
  label: string
  file: string
  text: string
  slice: string
  headingPosition: Position
  criteria: ContractItem[]
  steps: ContractItem[]
  tier: Tier
  /** What only a person may change once they approved it (a BMAD spec's frozen block), when the unit has it. */
  intent?: ContractIntent | null
  /** Where the unit's text ends when it reaches past its last item (a story's whole Acceptance Criteria section): what an approval covers. */
  end?: Point
  /** Where the unit's text starts when before its place (a GSD plan's, from its first line): what an approval covers, as it did before the unit was placed at its items. */
  start?: Point
}

/** A tool's unit as a contract (GSD's roadmap entry, plan or verification; a BMAD story or spec): it states no tier, so it takes `tier`. */
export function unitContract(parts: UnitContractParts): FileContract {
  // The unit's text, which an approval covers, reaches its last item, its intent and any end it gives.
  const ends = [...parts.criteria, ...parts.steps].map((item) => item.position.end)
  if (parts.intent) ends.push(parts.intent.position.end)
  if (parts.end) ends.push(parts.end)
  const end = ends.reduce((latest, point) => ((point.offset ?? 0) > (latest.offset ?? 0) ? point : latest), parts.headingPosition.end)
  const position: Position = {start: parts.start ?? parts.headingPosition.start, end}
  const contract: Contract = {
    id: null,
    name: parts.label,
    label: parts.label,
    dialect: 'bold',
    position,
    headingPosition: parts.headingPosition,
    tier: null,
    effectiveTier: parts.tier,
    criteria: parts.criteria,
    steps: parts.steps,
    slice: parts.slice,
    sliceHeading: null,
    fields: [],
    ...(parts.intent ? {intent: parts.intent} : {})
  }
  return {contract, file: parts.file, source: parts.text.slice(position.start.offset ?? 0, position.end.offset ?? parts.text.length)}
}
