import {renderPartial} from '@verification-tiers/runtime'
import {some} from './listing.js'
import type {VerificationRun} from './status.js'

const marks = {pass: '✓', fail: '✗', timeout: '✗', 'requires-human': '?'} as const
const labels = {pass: 'PASS', fail: 'FAIL', timeout: 'TIMEOUT', 'requires-human': 'REQUIRES-HUMAN'} as const

// Lines of a failure’s output shown in the summary; the status file keeps more.
const shownOutputLines = 10

/**
 * What a passing run leaves of its slice: its checkpoint to show, or nothing
 * (`done`: why no checkpoint waits, `slice S-02 is auto (every contract is
 * auto)` or `slice S-01 was approved <time> for its contracts as they are`).
 */
export type AfterRun = {kind: 'checkpoint'} | {kind: 'done'; why: string}

/** The human summary of a run: each check, totals, what to do next (`after`: what a passing run leaves, its checkpoint unless told). */
export function renderVerificationSummary(run: VerificationRun, after: AfterRun = {kind: 'checkpoint'}): string {
  const results = run.results.map((result) => ({
    ...result,
    mark: marks[result.status],
    label: labels[result.status],
    outputLines: result.status === 'fail' && result.output ? result.output.replace(/\s+$/, '').split('\n').slice(-shownOutputLines) : []
  }))
  const automated = run.summary.total - run.summary.manual
  return renderPartial('verification-summary', {
    slice: run.verification_run.slice,
    sliceName: run.verification_run.slice_name,
    timestamp: run.verification_run.timestamp,
    results,
    passed: run.summary.pass,
    automated,
    manual: run.summary.manual,
    unproven: run.verification_run.unproven ?? null,
    done: after.kind === 'done' ? after.why : null,
    failed: run.results.filter((result) => result.status === 'fail' || result.status === 'timeout').map((result) => result.criterion_id)
  })
}

/**
 * What a run’s fingerprint left out and what its checks wrote, a line each
 * (`''` when neither): the same for every slice of one `tiers verify`.
 */
export function renderFingerprintNotes(run: VerificationRun): string {
  const {left_out: leftOut = [], written_by_checks: written = []} = run.verification_run
  const lines: string[] = []
  if (leftOut.length > 0) lines.push(`Left out of the fingerprint (the defaults and \`freshness.exclude\`): ${some(leftOut, 10)}`)
  if (written.length > 0) lines.push(`Written by the checks, no change to the sources: ${some(written, 10)}`)
  return lines.join('\n')
}
