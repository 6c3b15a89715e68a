import {effectiveTier, tiers} from '@verification-tiers/contracts/gate-terms'
import type {Contract, Tier} from '@verification-tiers/contracts'
import type {VerifyCheckpointData} from '@verification-tiers/protocol'

/** A slice as the project defines it: an id, a name and its contracts in order. */
export interface SliceInput {
  id: string
  name: string
  contracts: readonly Contract[]
  /** The tier the project states for the slice (in its graph), taken by contracts that state none. */
  tier?: Tier | null | undefined
  /** What the project asks a person to check for the slice itself (its graph’s `Human check: …`). */
  humanCheck?: string | null | undefined
  /** What the slice’s tests prove, as the project words it. */
  verification?: string | null | undefined
  /** Why the slice’s human check was retired: it asks no one, and the reason is shown. */
  retired?: string | null | undefined
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
  /** Its tier in this slice: its own, else the slice’s stated tier, else the default (`Contract.effectiveTier` is its own or the default, whatever the slice). */
  tierInSlice: Tier
  /** Where `tierInSlice` comes from: the contract’s own field, the slice’s stated tier, or the default. */
  tierFrom: 'contract' | 'slice' | 'default'
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
  /** Labels of the verify contracts with neither criteria nor steps: the checkpoint has nothing of theirs to show. */
  nothingToCheck: string[]
  /** The slice’s own human check, asked beside its contracts’ criteria; `null` when it has none (or it was retired). */
  humanCheck: string | null
  /** What the slice’s tests prove, shown with the checkpoint. */
  verification: string | null
  /** Why the slice’s human check was retired, shown instead of asking. */
  retired: string | null
}

/**
 * The highest tier of the contracts (`verify` > `auto`); a missing tier counts
 * as the slice’s stated tier when there is one, else as `verify`.
 */
export function resolveSliceTier(contracts: readonly Pick<Contract, 'tier'>[], sliceTier: Tier | null = null): Tier {
  let highest: Tier = tiers[0]
  for (const contract of contracts) {
    const tier = contractTier(contract, sliceTier).tier
    if (tiers.indexOf(tier) > tiers.indexOf(highest)) highest = tier
  }
  return highest
}

/** A contract’s tier in its slice: its own, else the slice’s stated tier, else the default. */
export function contractTier(contract: Pick<Contract, 'tier'>, sliceTier: Tier | null): {tier: Tier; from: ContractTier['tierFrom']} {
  if (contract.tier !== null) return {tier: effectiveTier(contract.tier), from: 'contract'}
  if (sliceTier) return {tier: sliceTier, from: 'slice'}
  return {tier: effectiveTier(null), from: 'default'}
}

/**
 * Resolve a slice: its tier, each contract’s tier, and the criteria and steps
 * of every verify contract, in contract order, each tagged with its contract.
 */
export function resolveSlice(slice: SliceInput): ResolvedSlice {
  const sliceTier = slice.tier ?? null
  const retired = slice.retired ?? null
  const humanCheck = retired === null ? (slice.humanCheck ?? null) : null
  const resolved = slice.contracts.map((contract) => ({contract, ...contractTier(contract, sliceTier)}))
  const verify = resolved.filter((entry) => entry.tier === 'verify').map((entry) => entry.contract)
  const tag = (contract: Contract, items: Contract['criteria']) => items.map((item) => ({text: item.text, contract: contract.label}))
  // A check of the slice’s own asks a person whatever its contracts say; a slice with no contracts has the tier it states.
  let tier = resolveSliceTier(slice.contracts, sliceTier)
  if (humanCheck !== null || (slice.contracts.length === 0 && sliceTier !== null)) tier = humanCheck !== null ? 'verify' : sliceTier!
  return {
    id: slice.id,
    name: slice.name,
    tier,
    contracts: resolved.map(({contract, tier, from}) => ({
      id: contract.id,
      label: contract.label,
      tier: contract.tier,
      tierInSlice: tier,
      tierFrom: from,
      criteria: contract.criteria.length,
      steps: contract.steps.length
    })),
    criteria: verify.flatMap((contract) => tag(contract, contract.criteria)),
    steps: verify.flatMap((contract) => tag(contract, contract.steps)),
    // A slice that asks its own human check shows the person something, whatever its contracts hold.
    nothingToCheck:
      humanCheck !== null ? [] : verify.filter((contract) => contract.criteria.length === 0 && contract.steps.length === 0).map((contract) => contract.label),
    humanCheck,
    verification: slice.verification ?? null,
    retired
  }
}

/** What the Verify checkpoint of a resolved slice shows. */
export function verifyCheckpointData(slice: ResolvedSlice): VerifyCheckpointData {
  return {
    sliceId: slice.id,
    sliceName: slice.name,
    criteria: slice.criteria.map((item) => item.text),
    steps: slice.steps.map((item) => item.text),
    humanCheck: slice.humanCheck,
    verification: slice.verification,
    retired: slice.retired
  }
}
