import path from 'node:path'
import type {Classification} from '@verification-tiers/protocol'
import {IdError, isSliceId} from './ids.js'
import {describeJsonError, FileReadError, readJsonFile, updateJsonFile} from './json-file.js'
import type {JsonFileKind} from './json-file.js'

/** One rejection, as logged. */
export interface RejectionEntry {
  /** The user’s words, verbatim. */
  feedback: string
  /** Whether the user chose “partially”. */
  partial: boolean
  at: string
  /** Set when the rejection is routed. */
  classification: Classification | null
  action: string | null
  detail: string | null
  routedAt: string | null
}

/** An escalation choice, as logged. */
export interface EscalationEntry {
  choice: string
  decision: 'rescope' | 'pair' | 'skip'
  at: string
  /** Rejections counted when it was made. */
  rejectionCount: number
}

/** How the slice’s checkpoint ended. */
export interface SliceDecision {
  /** `approved` by the user; `accepted-as-auto` by skipping verification at the escalation. */
  status: 'approved' | 'accepted-as-auto'
  at: string
  /** Hash of the slice’s contracts when decided: a later change makes the decision stale. */
  contractsHash: string
  /** For `accepted-as-auto`: the feedback of the rejections left unresolved. */
  mismatch: string[]
}

/** Everything kept about one slice. */
export interface SliceState {
  version: 1
  slice: string
  /** Rejections since the slice last (re)started; escalation opens at the threshold. */
  rejectionCount: number
  /** Every rejection ever, oldest first. */
  rejections: RejectionEntry[]
  escalations: EscalationEntry[]
  decision: SliceDecision | null
}

/** A state file that cannot be read or is not a slice state: never reset silently. */
export class StateError extends FileReadError {
  constructor(file: string, reason: string) {
    super(file, reason)
    this.name = 'StateError'
  }
}

/** Folder of the per-slice state files inside the project folder. */
export const stateFolder = 'tiers'

/**
 * Path of a slice’s state file: `<dir>/tiers/<slice>.json`. Throws an
 * `IdError` for an id that is not a slice id, and for any path that would not
 * be a file directly inside the state folder (which the id’s pattern already
 * rules out: a second guard, should it ever be loosened).
 */
export function statePath(dir: string, sliceId: string): string {
  if (!isSliceId(sliceId)) throw new IdError('slice', sliceId)
  const folder = path.resolve(dir, stateFolder)
  const file = path.resolve(folder, `${sliceId}.json`)
  if (path.dirname(file) !== folder || path.basename(file) !== `${sliceId}.json`) throw new IdError('slice', sliceId)
  return path.join(dir, stateFolder, `${sliceId}.json`)
}

export function emptySliceState(sliceId: string): SliceState {
  return {version: 1, slice: sliceId, rejectionCount: 0, rejections: [], escalations: [], decision: null}
}

/** Read a slice’s state; a missing file is a fresh state, a broken one a `StateError`. */
export async function readSliceState(dir: string, sliceId: string): Promise<SliceState> {
  return readJsonFile(statePath(dir, sliceId), stateKind(sliceId))
}

/**
 * Change a slice’s state under a lock and write it atomically, so concurrent
 * callers never lose an update and a crash never leaves a half-written file.
 */
export async function updateSliceState<Result>(
  dir: string,
  sliceId: string,
  change: (state: SliceState) => Result | Promise<Result>
): Promise<Result> {
  return updateJsonFile(statePath(dir, sliceId), stateKind(sliceId), change)
}

function stateKind(sliceId: string): JsonFileKind<SliceState> {
  return {parse: (file, text) => parseSliceState(file, text, sliceId), empty: () => emptySliceState(sliceId)}
}

/** Parse and check a state file’s text. */
export function parseSliceState(file: string, text: string, sliceId: string): SliceState {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new StateError(file, `${describeJsonError(text, error)}; fix or remove the file (it is never reset silently)`)
  }
  const problem = checkSliceState(value, sliceId)
  if (problem) throw new StateError(file, `${problem}; fix or remove the file (it is never reset silently)`)
  return value as SliceState
}


function checkSliceState(value: unknown, sliceId: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Unexpected content, expected a slice state object'
  const state = value as Record<string, unknown>
  if (state.version !== 1) return `Unexpected \`version\` ${JSON.stringify(state.version)}, expected 1`
  if (state.slice !== sliceId) return `Unexpected \`slice\` ${JSON.stringify(state.slice)}, expected ${JSON.stringify(sliceId)}`
  if (!Number.isInteger(state.rejectionCount) || (state.rejectionCount as number) < 0) {
    return 'Unexpected `rejectionCount`, expected a whole number'
  }
  if (!Array.isArray(state.rejections) || !state.rejections.every(isRejection)) return 'Unexpected `rejections`, expected a list of rejections'
  if (!Array.isArray(state.escalations)) return 'Unexpected `escalations`, expected a list'
  if (state.decision !== null && (typeof state.decision !== 'object' || typeof (state.decision as {contractsHash?: unknown}).contractsHash !== 'string')) {
    return 'Unexpected `decision`, expected null or a decision with `contractsHash`'
  }
  return null
}

function isRejection(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as {feedback?: unknown}).feedback === 'string'
}
