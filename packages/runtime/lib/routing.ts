import {escalationOptions, rejectionOptions, testWriterNeverReceives} from '@verification-tiers/protocol'
import type {Classification, RouteTarget} from '@verification-tiers/protocol'
import type {ResolvedSlice, TaggedItem} from './slice.js'

export type RejectionOption = (typeof rejectionOptions)[number]
export type EscalationOption = (typeof escalationOptions)[number]

/** The rejection option for a choice (`1`, `2`, `3`), or `undefined`. */
export function findRejectionOption(choice: string): RejectionOption | undefined {
  return rejectionOptions.find((option) => option.choice === choice.trim())
}

/** The escalation option for a choice, or `undefined`. */
export function findEscalationOption(choice: string): EscalationOption | undefined {
  return escalationOptions.find((option) => option.choice === choice.trim())
}

/** A contract as the next agent receives it. */
export interface HandoffContract {
  label: string
  /** The contract’s markdown as written. */
  source: string
}

/** Where a rejection goes, and everything the next agent is to receive. */
export interface Route {
  sliceId: string
  sliceName: string
  choice: string
  title: string
  classification: Classification
  gap: string
  target: RouteTarget
  action: string
  actionTaken: string
  /** The user’s words, verbatim. */
  feedback: string
  /** The user’s detail (option 3), verbatim. */
  detail: string | null
  contracts: HandoffContract[]
  criteria: TaggedItem[]
  /** What the test writer never receives. */
  never: readonly string[]
}

/**
 * Route a rejection: test and implementation gaps go to the test
 * writer with the feedback verbatim, the contracts and the criteria, never
 * implementation code; contract gaps go to the user.
 */
export function routeRejection(input: {
  option: RejectionOption
  slice: ResolvedSlice
  feedback: string
  detail: string | null
  contracts: readonly HandoffContract[]
}): Route {
  const {option, slice} = input
  return {
    sliceId: slice.id,
    sliceName: slice.name,
    choice: option.choice,
    title: option.title,
    classification: option.classification,
    gap: option.gap,
    target: option.target,
    action: option.action,
    actionTaken: option.actionTaken,
    feedback: input.feedback,
    detail: input.detail,
    contracts: [...input.contracts],
    criteria: slice.criteria,
    // The user may see anything; the test writer never sees implementation details.
    never: option.target === 'test writer' ? testWriterNeverReceives : []
  }
}
