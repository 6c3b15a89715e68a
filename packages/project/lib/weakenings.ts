import {describeWeakening, holdSlice, weakeningsSinceApproval} from '@verification-tiers/runtime'
import type {GateContext, ResolvedSlice, SliceState, Weakening} from '@verification-tiers/runtime'
import {gateContext} from './project.js'
import type {LoadedContract, Project, ProjectSlice} from './project.js'

/** A change that lowered the bar a person approved, with where it is in the project now. */
export interface PlacedWeakening extends Weakening {
  /** `file:line` (or `file`) where the project now says it, `null` when it says it nowhere (a contract gone). */
  place: string | null
  /** In one line, with its place: `C-01 Greeting: tier verify → auto (.greenlight/CONTRACTS.md:3)`. */
  line: string
}

/** A slice’s gate context held at the bar a person approved, and what lowered that bar since. */
export interface HeldContext {
  /** As `gateContext` gives it, with the slice’s tier kept at `verify` while a weakening waits for a person (`holdSlice`). */
  context: GateContext & {slice: ResolvedSlice}
  weakenings: PlacedWeakening[]
}

/**
 * The gate context of a slice, from its state (`answers`, `escalations`):
 * while a change lowers what a person last approved, the slice stays
 * `verify` and each change is given with its place.
 */
export function heldGateContext(project: Project, slice: ProjectSlice, state: Pick<SliceState, 'answers' | 'escalations'>): HeldContext {
  const context = gateContext(project, slice)
  const weakenings = weakeningsSinceApproval(context, state)
  return {context: {...context, slice: holdSlice(context.slice, weakenings)}, weakenings: placeWeakenings(slice, weakenings)}
}

/** Each weakening of `slice` with its place in the project as it is. */
export function placeWeakenings(slice: ProjectSlice, weakenings: readonly Weakening[]): PlacedWeakening[] {
  const byKey = new Map(slice.contracts.map((loaded) => [loaded.contract.id ?? loaded.contract.name, loaded]))
  return weakenings.map((weakening) => {
    const place = placeOf(slice, weakening, weakening.contract === null ? undefined : byKey.get(weakening.contract))
    return {...weakening, place, line: place === null ? describeWeakening(weakening) : `${describeWeakening(weakening)} (${place})`}
  })
}

/**
 * Where a weakening is now: a contract’s at its heading (a reworded item at
 * its own line, intent removed at its block), unless its tier comes from the slice; the slice’s where the
 * project states it (its graph entry, a tool’s `tiers.json`); a contract
 * gone, nowhere.
 */
function placeOf(slice: ProjectSlice, weakening: Weakening, loaded: LoadedContract | undefined): string | null {
  const stated = slice.statedAt ?? null
  if (weakening.kind === 'contract-removed') return null
  // A slice gone auto because its contracts did is placed at theirs.
  if (!loaded) return weakening.kind === 'slice-tier' && slice.tier !== 'auto' ? null : stated
  const {contract, file} = loaded
  if (weakening.kind === 'contract-tier' && contract.tier === null && stated !== null) return stated
  const list = weakening.item?.list === 'intent' ? (contract.intent?.items ?? []) : weakening.item ? contract[weakening.item.list] : []
  const item = weakening.item ? list[weakening.item.index] : undefined
  // Intent removed is placed at its block, while there is one.
  const block = weakening.kind === 'intent-changed' ? contract.intent?.position : undefined
  return `${file}:${(item?.position ?? block ?? contract.headingPosition).start.line}`
}
