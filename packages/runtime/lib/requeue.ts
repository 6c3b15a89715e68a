import {failureCategories, maxAttempts, triagePassRatio} from '@verification-tiers/protocol'
import type {FailureCategory, VerificationLevel} from '@verification-tiers/protocol'
import {renderPartial} from './checkpoint.js'

/** One failed check, as the re-queue prompt lists it. */
export interface FailedCheck {
  name: string
  detail: string
  category?: FailureCategory | null
}

/** The result of one verification level for a task attempt. */
export interface LevelResult {
  level: VerificationLevel
  passed: boolean
  failedChecks: FailedCheck[]
}

/** What to do with a task whose verification failed: complete, re-queue, or escalate. */
export type RequeueDecision =
  | {action: 'completed'; passed: true}
  | {action: 'requeued'; passed: false; attemptNumber: number; reason: string}
  | {action: 'escalated'; passed: false; reason: 'max_retries_exceeded'}

/** Decide after attempt `attemptNumber`: passed completes; a failure re-queues until `maxAttempts`, then escalates. */
export function requeueDecision(results: readonly LevelResult[], attemptNumber: number, limit = maxAttempts): RequeueDecision {
  const failed = results.filter((result) => !result.passed)
  if (failed.length === 0) return {action: 'completed', passed: true}
  if (attemptNumber >= limit) return {action: 'escalated', passed: false, reason: 'max_retries_exceeded'}
  const reason = failed.map((result) => `${result.level}: ${result.failedChecks.map((check) => check.name).join(', ')}`).join('; ')
  return {action: 'requeued', passed: false, attemptNumber: attemptNumber + 1, reason}
}

/**
 * The prompt for the next attempt: the original prompt with the failure
 * context of the failed levels appended, in a `=== PREVIOUS ATTEMPT FAILED ===` block.
 */
export function buildRequeuePrompt(originalPrompt: string, results: readonly LevelResult[], attemptNumber: number): string {
  const failed = results.filter((result) => !result.passed)
  const block = renderPartial('requeue', {
    attemptNumber,
    levels: failed.map((result) => result.level).join(', '),
    failures: failed.flatMap((result) => result.failedChecks)
  })
  return `${originalPrompt.replace(/\s+$/, '')}\n\n${block}`
}

/** One criterion checked during triage. */
export interface TriageCheck {
  criterion: string
  command: string
  result: 'pass' | 'fail'
  output: string
}

/** Triage of a phase: already implemented (`verify_only`) or not (`full_pipeline`). */
export interface Triage {
  criteria_checked: TriageCheck[]
  total_criteria: number
  passed_criteria: number
  pass_ratio: number
  routing_decision: 'full_pipeline' | 'verify_only'
  note: string | null
}

/** Route by pass ratio: over 0.8 goes to verification only; no checkable criteria goes the full way. */
export function triage(checked: readonly TriageCheck[]): Triage {
  const passed = checked.filter((check) => check.result === 'pass').length
  const ratio = checked.length === 0 ? 0 : passed / checked.length
  return {
    criteria_checked: checked.map((check) => ({...check, output: check.output.slice(0, 200)})),
    total_criteria: checked.length,
    passed_criteria: passed,
    pass_ratio: ratio,
    routing_decision: checked.length > 0 && ratio > triagePassRatio ? 'verify_only' : 'full_pipeline',
    note: checked.length === 0 ? 'no verifiable criteria for triage' : null
  }
}

/** Whether a value is one of the failure taxonomy’s categories. */
export function isFailureCategory(value: unknown): value is FailureCategory {
  return failureCategories.some((entry) => entry.category === value)
}
