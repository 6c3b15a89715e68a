/**
 * What each checkpoint format shows, and the placeholder data the docs render
 * it with: the docs’ format blocks are the runtime’s output for this data.
 */
import {rejectionOptions, rejectionThreshold} from './vocabulary.js'

/** Data of a Verify checkpoint: one slice, its aggregated criteria and steps. */
export interface VerifyCheckpointData {
  sliceId: string
  sliceName: string
  criteria: readonly string[]
  steps: readonly string[]
  /** What the person is asked to check for the slice itself, beside its contracts’ criteria; `null` when nothing. */
  humanCheck?: string | null | undefined
  /** What the slice’s tests prove, as the project words it; `null` when it says nothing. */
  verification?: string | null | undefined
  /** Why the slice’s human check was retired (shown; nothing is asked); `null` when it was not. */
  retired?: string | null | undefined
  /** The project sets no test command: the headline says so instead of claiming passing tests. */
  noTestCommand?: boolean
  /** What lowered the bar since a person approved the slice, one line each (old → new, and where): shown so the person knows what they confirm. */
  changed?: readonly string[] | undefined
  /** What `changed` is measured from: `a person approved the slice` (the default), or a git revision. */
  changedSince?: string | undefined
  /** What the tool's workflow recorded of a person's answers (GSD's UAT files), one line each: shown beside the checks, never an answer. */
  records?: readonly string[] | undefined
}

/** Data of the rejection options: the user’s words. */
export interface RejectionOptionsData {
  feedback: string
}

/** One logged rejection, as the escalation lists it. */
export interface RejectionHistoryEntry {
  feedback: string
  action: string
}

/** Data of the escalation. */
export interface EscalationData {
  sliceName: string
  rejections: readonly RejectionHistoryEntry[]
}

/** Data of the other checkpoint types, for their formats. */
export interface DecisionCheckpointData {
  summary: string
  context: string
  options: readonly string[]
}
export interface ExternalActionCheckpointData {
  action: string
  steps: readonly string[]
}
export interface CircuitBreakCheckpointData {
  sliceId: string
  scope: string
  attempts: string
  lastError: string
}

/** Placeholder data of the escalation of a project whose threshold is `threshold` rejections: one entry per rejection. */
export function escalationPlaceholder(threshold: number): EscalationData {
  return {
    sliceName: '{slice_name}',
    rejections: Array.from({length: threshold}, (_, index) => ({
      feedback: `{feedback ${index + 1}}`,
      action: '{action taken}'
    }))
  }
}

/** The placeholder data of every format, as named placeholders (`{slice_id}`) the docs show. */
export const placeholders = {
  verifyCheckpoint: {
    sliceId: '{slice_id}',
    sliceName: '{slice_name}',
    criteria: ['{criterion 1 from contract A}', '{criterion 2 from contract A}', '{criterion 3 from contract B}'],
    steps: ['{step 1 from contract A}', '{step 2 from contract A}', '{step 3 from contract B}'],
    humanCheck: null,
    verification: null,
    retired: null,
    changed: [],
    records: []
  },
  verifyCheckpointEmpty: {
    sliceId: '{slice_id}',
    sliceName: '{slice_name}',
    criteria: [],
    steps: [],
    humanCheck: null,
    verification: null,
    retired: null,
    changed: [],
    records: []
  },
  rejectionOptions: {feedback: "{user's response}"},
  escalation: escalationPlaceholder(rejectionThreshold),
  // An example log: a test gap, then an implementation gap.
  rejectionLog: {
    sliceId: 'S-{N}',
    rejectionCount: 2,
    log: [rejectionOptions[0], rejectionOptions[2]].map((option) => ({
      feedback: "{user's words}",
      classification: option.classification,
      actionTaken: option.actionTaken
    }))
  },
  decision: {summary: '{decision to make}', context: '{why it cannot wait}', options: ['{option 1}', '{option 2}']},
  externalAction: {action: '{what the user must do}', steps: ['{step 1}', '{step 2}']},
  circuitBreak: {sliceId: '{slice_id}', scope: '{test name, or the slice}', attempts: '{N}', lastError: '{last error}'}
} as const satisfies {
  verifyCheckpoint: VerifyCheckpointData
  verifyCheckpointEmpty: VerifyCheckpointData
  rejectionOptions: RejectionOptionsData
  escalation: EscalationData
  rejectionLog: {sliceId: string; rejectionCount: number; log: ReadonlyArray<{feedback: string; classification: string; actionTaken: string}>}
  decision: DecisionCheckpointData
  externalAction: ExternalActionCheckpointData
  circuitBreak: CircuitBreakCheckpointData
}
