/**
 * The human summary of a run: each check with its
 * mark, method and details, a failure’s last output lines, the totals and
 * what to do next.
 */
import {renderVerificationSummary, summarize} from '@verification-tiers/evidence'
import type {CheckResult, VerificationRun} from '@verification-tiers/evidence'
import {describe, expect, it} from 'vitest'

function makeRun(results: CheckResult[]): VerificationRun {
  const summary = summarize(results)
  return {
    verification_run: {
      timestamp: '2026-01-17T10:45:00.000Z',
      slice: 'S-01',
      slice_name: 'Notifications',
      git_head: null,
      worktree: null,
      contracts_hash: 'sha256:x',
      timeout_seconds: 60
    },
    results,
    summary,
    all_automated_pass: summary.fail === 0 && summary.timeout === 0
  }
}

const base = {contract: 'C-01', level: 'behavioral', exit_code: null, duration_ms: null, output: null, category: null} as const

/** A passing check of the types. */
const typesCheck: CheckResult = {
  ...base,
  criterion_id: 'C-01.1',
  text: 'no type errors',
  status: 'pass',
  method: 'bash',
  command: 'tsc --noEmit',
  exit_code: 0,
  details: 'exit code 0 in 1.2 s'
}

const tests: CheckResult = {
  ...base,
  criterion_id: 'C-01.2',
  text: 'tests pass',
  status: 'fail',
  method: 'bash',
  command: 'npm test',
  exit_code: 1,
  duration_ms: 2300,
  details: 'exit code 1 in 2.3 s',
  // Twelve lines and trailing blank lines: the summary shows the last ten.
  output: Array.from({length: 12}, (_, index) => `log line ${index + 1}`).join('\n') + '\n\n  \n',
  category: 'acceptance_criteria_unmet'
}

describe('renderVerificationSummary', () => {
  it('shows each check, the last ten lines of a failure’s output, the totals and what to fix', () => {
    const run = makeRun([
      {
        ...base,
        criterion_id: 'contracts',
        contract: null,
        text: 'The slice’s contracts are found and valid',
        level: 'contract',
        status: 'pass',
        method: 'lint',
        command: null,
        details: 'C-01 Notify: found, no lint errors'
      },
      {...typesCheck, output: 'ignored for a pass\n'},
      tests,
      {
        ...base,
        criterion_id: 'C-01.3',
        text: 'the queue drains',
        status: 'timeout',
        method: 'bash',
        command: 'npm run drain',
        details: 'timed out after 60 s; its process group was killed',
        output: 'not shown for a timeout\n',
        category: 'tool_failure'
      },
      {
        ...base,
        criterion_id: 'C-01.4',
        text: 'notification appears within 5s',
        status: 'requires-human',
        method: 'manual',
        command: null,
        details: 'Please verify: notification appears within 5s'
      }
    ])
    expect(renderVerificationSummary(run)).toBe(`Verification Results — Slice S-01: Notifications (2026-01-17T10:45:00.000Z)
==========================================

✓ contracts: The slice’s contracts are found and valid  PASS
  Method: lint
  Details: C-01 Notify: found, no lint errors

✓ C-01.1: no type errors  PASS
  Method: bash (tsc --noEmit)
  Details: exit code 0 in 1.2 s

✗ C-01.2: tests pass  FAIL
  Method: bash (npm test)
  Details: exit code 1 in 2.3 s
    log line 3
    log line 4
    log line 5
    log line 6
    log line 7
    log line 8
    log line 9
    log line 10
    log line 11
    log line 12

✗ C-01.3: the queue drains  TIMEOUT
  Method: bash (npm run drain)
  Details: timed out after 60 s; its process group was killed

? C-01.4: notification appears within 5s  REQUIRES-HUMAN
  Method: manual
  Details: Please verify: notification appears within 5s

Summary: 2/4 automated checks pass, 1 for a human to check

Action Required:
  Fix: C-01.2 and C-01.3
  Then run tiers verify S-01 again`)
  })

  it('points to the checkpoint when every automated check passes, and says nothing of manual ones when there are none', () => {
    const run = makeRun([typesCheck])
    expect(renderVerificationSummary(run)).toBe(`Verification Results — Slice S-01: Notifications (2026-01-17T10:45:00.000Z)
==========================================

✓ C-01.1: no type errors  PASS
  Method: bash (tsc --noEmit)
  Details: exit code 0 in 1.2 s

Summary: 1/1 automated checks pass

Next: tiers checkpoint S-01`)
  })

  it('says the slice is done, and names no checkpoint, when told none waits', () => {
    const run = makeRun([typesCheck])
    const text = renderVerificationSummary(run, {kind: 'done', why: 'slice S-01 is auto (every contract is auto)'})
    expect(text.split('\n').slice(-2)).toEqual(['', 'Done: slice S-01 is auto (every contract is auto): no checkpoint waits for it.'])
  })

  it('lists three failures to fix with commas and `and`', () => {
    const run = makeRun(['C-01.1', 'C-01.2', 'C-01.3'].map((id) => ({...tests, criterion_id: id, output: null})))
    expect(renderVerificationSummary(run)).toContain(
      'Summary: 0/3 automated checks pass\n\nAction Required:\n  Fix: C-01.1, C-01.2 and C-01.3\n  Then run tiers verify S-01 again'
    )
  })
})
