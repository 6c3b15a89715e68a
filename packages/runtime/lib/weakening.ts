import isRecord from 'is-plain-obj'
import type {Tier} from '@verification-tiers/contracts'
import {resolveSlice} from './slice.js'
import type {ResolvedSlice, SliceInput} from './slice.js'
import type {SliceState} from './state.js'

/** One contract as a person approved it: its tier in the slice, and the texts of its criteria, steps and intent. */
export interface ContractPin {
  /** The contract’s id, else its name: how it is found again. */
  key: string
  /** What messages call it: `C-01 Greeting`. */
  label: string
  /** Its tier in the slice (its own, else the slice’s stated tier or the tool’s default, else `verify`). */
  tier: Tier
  criteria: string[]
  steps: string[]
  /** The texts of its intent, which only a person may change (a BMAD spec's `<frozen-after-approval>` block); absent when it has none. */
  intent?: string[]
}

/**
 * A slice as a person approved it: its tier, its own human check (or why it
 * was retired), and each contract as it was. Kept with the approval, so a
 * change that weakens what was approved shows with the old and the new text.
 */
export interface SlicePins {
  tier: Tier
  humanCheck: string | null
  retired: string | null
  contracts: ContractPin[]
}

/** What a change weakened since a person approved the slice. */
export type WeakeningKind =
  | 'slice-tier'
  | 'human-check-retired'
  | 'human-check-removed'
  | 'human-check-reworded'
  | 'contract-removed'
  | 'contract-tier'
  | 'criterion-removed'
  | 'criterion-reworded'
  | 'step-removed'
  | 'step-reworded'
  | 'intent-changed'

/** One change that lowers the bar a person approved, with the old and the new text. */
export interface Weakening {
  kind: WeakeningKind
  /** The contract’s key (its id, else its name), `null` for the slice itself. */
  contract: string | null
  /** What it is about: the contract’s label, or `S-01 Name` for the slice. */
  subject: string
  /** As approved. */
  was: string
  /** As it is now (`removed` when it is gone). */
  now: string
  /** For a reworded criterion or step, or an intent text reworded, added or moved: which of the contract’s it is now (0-based), so a caller can place it. */
  item?: {list: 'criteria' | 'steps' | 'intent'; index: number}
}

/** The slice as a person would approve it now: what an approval pins. */
export function slicePins(slice: SliceInput, resolved: ResolvedSlice = resolveSlice(slice)): SlicePins {
  return {
    tier: resolved.tier,
    humanCheck: resolved.humanCheck,
    retired: resolved.retired,
    contracts: slice.contracts.map((contract, index) => ({
      key: contract.id ?? contract.name,
      label: contract.label,
      tier: resolved.contracts[index]?.tierInSlice ?? 'verify',
      criteria: contract.criteria.map((item) => item.text),
      steps: contract.steps.map((item) => item.text),
      ...(contract.intent ? {intent: contract.intent.items.map((item) => item.text)} : {})
    }))
  }
}

/**
 * The pins of the latest approval that stands (not withdrawn), `null` when
 * there is none, it was recorded before approvals kept them, or the person
 * chose to skip the checkpoint after it (an escalation’s skip accepts the
 * slice as it was then, without pinning a bar).
 */
export function approvedPins(state: Pick<SliceState, 'answers' | 'escalations'>): SlicePins | null {
  const approval = state.answers.findLast((answer) => answer.outcome === 'approval' && answer.withdrawnAt === null)
  if (!approval?.pins) return null
  const skipped = state.escalations.some((entry) => entry.decision === 'skip' && entry.at >= approval.at)
  return skipped ? null : approval.pins
}

/**
 * What lowers the bar of `pinned` (a slice as a person approved it) in `now`
 * (the slice as it is): the slice or a verify contract gone from `verify`
 * to `auto`; a verify contract gone from the slice; a criterion or step of
 * a verify contract removed or reworded; any change to the intent of a
 * verify contract (which only a person may change: a text reworded,
 * removed, added or moved); the slice’s own human check retired, removed
 * or reworded. Added contracts, criteria and steps, and criteria and steps
 * in another order, lower nothing: none of them is listed.
 */
export function findWeakenings(pinned: SlicePins, now: SlicePins, sliceName: string): Weakening[] {
  const found: Weakening[] = []
  const slice = (kind: WeakeningKind, was: string, is: string) => found.push({kind, contract: null, subject: sliceName, was, now: is})
  if (pinned.tier === 'verify' && now.tier === 'auto') slice('slice-tier', 'tier verify', 'auto')
  if (pinned.humanCheck !== null && pinned.humanCheck !== now.humanCheck) {
    const was = `human check ${quoted(pinned.humanCheck)}`
    if (now.retired !== null) slice('human-check-retired', was, `retired: ${quoted(now.retired)}`)
    else if (now.humanCheck === null) slice('human-check-removed', was, 'removed')
    else slice('human-check-reworded', was, quoted(now.humanCheck))
  }
  const current = new Map(now.contracts.map((contract) => [contract.key, contract]))
  for (const old of pinned.contracts) {
    // An auto contract asked a person nothing: what becomes of it lowers no bar.
    if (old.tier !== 'verify') continue
    const contract = (kind: WeakeningKind, was: string, is: string, item?: Weakening['item']) =>
      found.push({kind, contract: old.key, subject: old.label, was, now: is, ...(item ? {item} : {})})
    const kept = current.get(old.key)
    if (!kept) {
      contract(
        'contract-removed',
        `verify contract of ${count(old.criteria.length, 'acceptance criterion', 'acceptance criteria')} and ${count(old.steps.length, 'step')}`,
        'removed from the slice'
      )
      continue
    }
    if (kept.tier === 'auto') contract('contract-tier', 'tier verify', 'auto')
    for (const list of ['criteria', 'steps'] as const) {
      const [noun, removed, reworded] =
        list === 'criteria'
          ? (['acceptance criterion', 'criterion-removed', 'criterion-reworded'] as const)
          : (['step', 'step-removed', 'step-reworded'] as const)
      for (const change of lostItems(old[list], kept[list])) {
        if (change.now === null) contract(removed, `${noun} ${quoted(change.was)}`, 'removed')
        else contract(reworded, `${noun} ${quoted(change.was)}`, quoted(kept[list][change.now]), {list, index: change.now})
      }
    }
    // An approval before intent was pinned pins none: nothing to compare.
    if (old.intent === undefined) continue
    for (const change of intentChanges(old.intent, kept.intent ?? [])) {
      const item = change.now === null ? undefined : ({list: 'intent', index: change.now} as const)
      if (change.was === null) contract('intent-changed', `intent without ${quoted(kept.intent![change.now!])}`, 'added', item)
      else if (change.now === null) contract('intent-changed', `intent ${quoted(change.was)}`, 'removed')
      else if (change.was === kept.intent![change.now]) contract('intent-changed', `intent ${quoted(change.was)}`, 'moved', item)
      else contract('intent-changed', `intent ${quoted(change.was)}`, quoted(kept.intent![change.now]), item)
    }
  }
  return found
}

/**
 * The items of `was` that `now` lacks, each paired in order with an item
 * `now` added (a rewording: its index in `now`) while there is one, else
 * removed (`now` `null`). Items are matched by their text, each once, in
 * any order.
 */
function lostItems(was: readonly string[], now: readonly string[]): Array<{was: string; now: number | null}> {
  const unmatched = now.map((_, index) => index)
  const lost: string[] = []
  for (const item of was) {
    const at = unmatched.findIndex((index) => now[index] === item)
    if (at === -1) lost.push(item)
    else unmatched.splice(at, 1)
  }
  return lost.map((item, index) => ({was: item, now: unmatched[index] ?? null}))
}

/**
 * How the intent texts `was` became `now`, in order: the texts kept in
 * place (their longest common sequence) are no change; a text of `was` also
 * among the others of `now` moved; the others of `was` are paired in order
 * with the others of `now` (reworded) while there are some, else removed;
 * what is left of `now` was added. `now` is an index in `now`.
 */
function intentChanges(was: readonly string[], now: readonly string[]): Array<{was: string | null; now: number | null}> {
  // What is the same at both ends is kept; the sequence is sought only between.
  let head = 0
  while (head < was.length && head < now.length && was[head] === now[head]) head++
  let tail = 0
  while (tail < was.length - head && tail < now.length - head && was[was.length - 1 - tail] === now[now.length - 1 - tail]) tail++
  const {lost, added} = unkept(was.slice(head, was.length - tail), now.slice(head, now.length - tail))
  const changes: Array<{was: string | null; now: number | null}> = []
  const rest: string[] = []
  const others = added.map((index) => index + head)
  for (const text of lost) {
    const at = others.findIndex((index) => now[index] === text)
    if (at === -1) rest.push(text)
    else changes.push({was: text, now: others.splice(at, 1)[0]})
  }
  for (const [index, text] of rest.entries()) changes.push({was: text, now: others[index] ?? null})
  for (const index of others.slice(rest.length)) changes.push({was: null, now: index})
  return changes
}

// Beyond this many pairs of texts, none is sought in common: every text of either side counts as changed.
const commonLimit = 1_000_000

/** The texts of `was` outside a longest sequence it has in common with `now`, and the indexes of those of `now`. */
function unkept(was: readonly string[], now: readonly string[]): {lost: string[]; added: number[]} {
  if (was.length * now.length > commonLimit) return {lost: [...was], added: now.map((_, index) => index)}
  // `common[i * width + j]`: the length of the longest common sequence of `was[i…]` and `now[j…]`.
  const width = now.length + 1
  const common = new Uint32Array((was.length + 1) * width)
  for (let i = was.length - 1; i >= 0; i--) {
    for (let j = now.length - 1; j >= 0; j--) {
      common[i * width + j] = was[i] === now[j] ? common[(i + 1) * width + j + 1] + 1 : Math.max(common[(i + 1) * width + j], common[i * width + j + 1])
    }
  }
  const lost: string[] = []
  const added: number[] = []
  let [i, j] = [0, 0]
  while (i < was.length || j < now.length) {
    if (i < was.length && j < now.length && was[i] === now[j]) [i, j] = [i + 1, j + 1]
    else if (j === now.length || (i < was.length && common[(i + 1) * width + j] >= common[i * width + j + 1])) lost.push(was[i++])
    else added.push(j++)
  }
  return {lost, added}
}

/** A weakening in one line: `C-01 Greeting: tier verify → auto`. */
export function describeWeakening(weakening: Weakening): string {
  return `${weakening.subject}: ${weakening.was} → ${weakening.now}`
}

/**
 * The slice as the gate holds it: while a change lowers the bar a person
 * approved (`weakenings`), its tier stays `verify`, so its checkpoint waits
 * for a person again; a new approval pins the slice as it is.
 */
export function holdSlice(slice: ResolvedSlice, weakenings: readonly Weakening[]): ResolvedSlice {
  return weakenings.length > 0 && slice.tier !== 'verify' ? {...slice, tier: 'verify'} : slice
}

const quoted = (text: string) => JSON.stringify(text)

function count(amount: number, one: string, many = `${one}s`): string {
  return `${amount} ${amount === 1 ? one : many}`
}

const isTier = (value: unknown): value is Tier => value === 'verify' || value === 'auto'
const isTexts = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string')
const isContractPin = (value: unknown) =>
  isRecord(value) &&
  typeof value.key === 'string' &&
  typeof value.label === 'string' &&
  isTier(value.tier) &&
  isTexts(value.criteria) &&
  isTexts(value.steps) &&
  (value.intent === undefined || isTexts(value.intent))

/** Whether a state file’s `pins` are a slice’s pins, as `slicePins` writes them. */
export function isSlicePins(value: unknown): value is SlicePins {
  const textOrNull = (field: unknown) => field === null || typeof field === 'string'
  return (
    isRecord(value) &&
    isTier(value.tier) &&
    textOrNull(value.humanCheck) &&
    textOrNull(value.retired) &&
    Array.isArray(value.contracts) &&
    value.contracts.every(isContractPin)
  )
}

/** What `isSlicePins` takes, as a state file’s error says it. */
export const slicePinsShape =
  '`{"tier", "humanCheck", "retired", "contracts"}` with each contract’s `key`, `label`, `tier`, `criteria`, `steps` and, when it has one, `intent`'
