import {effectiveTier, tiers} from '@verification-tiers/contracts'
import type {Contract, Tier} from '@verification-tiers/contracts'
import type {VerifyCheckpointData} from '@verification-tiers/protocol'

/** A slice as the project defines it: an id, a name and its contracts in order. */
export interface SliceInput {
  id: string
  name: string
  contracts: readonly Contract[]
}

/** A criterion or step, with the contract it came from. */
export interface TaggedItem {
  text: string
  /** Label of the contract: `C-01 CampaignCardGrid`. */
  contract: string
}

/** One contract’s part in a slice’s tier. */
export interface ContractTier {
  id: string | null
  label: string
  /** As written: `auto`, `verify`, other text, or `null` when missing. */
  tier: string | null
  effectiveTier: Tier
  criteria: number
  steps: number
}

/** A slice with its tier resolved and its checkpoint items aggregated. */
export interface ResolvedSlice {
  id: string
  name: string
  tier: Tier
  contracts: ContractTier[]
  criteria: TaggedItem[]
  steps: TaggedItem[]
}

/** The highest tier of the contracts (`verify` > `auto`); a missing tier counts as `verify`. */
export function resolveSliceTier(contracts: readonly Pick<Contract, 'tier'>[]): Tier {
  let highest: Tier = tiers[0]!
  for (const contract of contracts) {
    const tier = effectiveTier(contract.tier)
    if (tiers.indexOf(tier) > tiers.indexOf(highest)) highest = tier
  }
  return highest
}

/**
 * Resolve a slice: its tier, each contract’s tier, and the criteria and steps
 * of every verify contract, in contract order, each tagged with its contract.
 */
export function resolveSlice(slice: SliceInput): ResolvedSlice {
  const verify = slice.contracts.filter((contract) => effectiveTier(contract.tier) === 'verify')
  const tag = (contract: Contract, items: Contract['criteria']) => items.map((item) => ({text: item.text, contract: contract.label}))
  return {
    id: slice.id,
    name: slice.name,
    tier: resolveSliceTier(slice.contracts),
    contracts: slice.contracts.map((contract) => ({
      id: contract.id,
      label: contract.label,
      tier: contract.tier,
      effectiveTier: effectiveTier(contract.tier),
      criteria: contract.criteria.length,
      steps: contract.steps.length
    })),
    criteria: verify.flatMap((contract) => tag(contract, contract.criteria)),
    steps: verify.flatMap((contract) => tag(contract, contract.steps))
  }
}

/** What the Verify checkpoint of a resolved slice shows. */
export function verifyCheckpointData(slice: ResolvedSlice): VerifyCheckpointData {
  return {
    sliceId: slice.id,
    sliceName: slice.name,
    criteria: slice.criteria.map((item) => item.text),
    steps: slice.steps.map((item) => item.text)
  }
}
