import {visualCheckpointWarning} from '@verification-tiers/protocol'
import type {ProjectConfig} from '@verification-tiers/protocol/settings'
import type {ResolvedSlice} from './slice.js'

/** The verifier’s tier report of a slice; informational, it enforces nothing. */
export interface TierReport {
  sliceId: string
  sliceName: string
  tier: string
  contracts: Array<{label: string; tier: string; defaulted: boolean; criteria: number; steps: number}>
  warnings: string[]
}

/** Report a slice’s effective tier, each contract’s tier and counts, and what looks wrong. */
export function tierReport(slice: ResolvedSlice, config: ProjectConfig = {}): TierReport {
  const warnings: string[] = []
  for (const contract of slice.contracts) {
    if (contract.tier !== null && contract.tier !== contract.tierInSlice) {
      warnings.push(`${contract.label}: tier \`${contract.tier}\` is not \`auto\` or \`verify\`; read as \`${contract.tierInSlice}\``)
    }
    if (contract.tierInSlice === 'auto' && (contract.criteria > 0 || contract.steps > 0)) {
      warnings.push(`${contract.label}: auto tier lists acceptance criteria or steps, which are ignored`)
    }
  }
  for (const label of slice.nothingToCheck) warnings.push(nothingToCheckWarning(label))
  const deprecation = deprecationWarning(config)
  if (deprecation) warnings.push(deprecation)
  return {
    sliceId: slice.id,
    sliceName: slice.name,
    tier: slice.tier,
    contracts: slice.contracts.map((contract) => ({
      label: contract.label,
      tier: contract.tierInSlice,
      defaulted: contract.tierFrom === 'default',
      criteria: contract.criteria,
      steps: contract.steps
    })),
    warnings
  }
}

/** What the gate says of a verify contract with neither criteria nor steps: a human would have nothing of it to check. */
export function nothingToCheckWarning(label: string): string {
  return `${label}: verify tier with no acceptance criteria or steps`
}

/** The deprecation warning, when the config still sets `workflow.visual_checkpoint`. */
export function deprecationWarning(config: ProjectConfig): string | null {
  return config.workflow && 'visual_checkpoint' in config.workflow ? visualCheckpointWarning : null
}
