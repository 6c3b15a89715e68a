/**
 * Re-queue after failed verification: the failure-context block appended to
 * the task’s prompt, re-queue or escalation after at most three attempts;
 * triage routing by pass ratio (over 0.8: verification only); and the failure
 * taxonomy.
 */
import {failureCategories, maxAttempts, triagePassRatio} from '@verification-tiers/protocol'
import {buildRequeuePrompt, isFailureCategory, requeueDecision, triage} from '@verification-tiers/runtime'
import type {LevelResult, TriageCheck} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'

/** The contract level failed on two checks. */
const exampleResults: LevelResult[] = [
  {level: 'syntactic', passed: true, failedChecks: []},
  {
    level: 'contract',
    passed: false,
    failedChecks: [
      {name: 'env-JWT_SECRET', detail: 'JWT_SECRET is NOT set — task may fail at runtime'},
      {name: 'endpoint-POST--api-auth-register', detail: 'Endpoint not found'}
    ]
  },
  {level: 'behavioral', passed: true, failedChecks: []}
]

/** The failure-context block for those checks, exactly. */
const exampleBlock = `=== PREVIOUS ATTEMPT FAILED (Attempt 2) ===
Verification level: contract
The previous execution of this task failed verification. Fix the following issues:

- env-JWT_SECRET: JWT_SECRET is NOT set — task may fail at runtime
- endpoint-POST--api-auth-register: Endpoint not found

=== END FAILURE CONTEXT ===

Retry the task addressing these specific failures.
Do not change working parts of the implementation.`

describe('buildRequeuePrompt', () => {
  it('appends the failure-context block to the original prompt, exactly', () => {
    expect(buildRequeuePrompt('Create the auth service in services/gateway.', exampleResults, 2)).toBe(
      `Create the auth service in services/gateway.\n\n${exampleBlock}`
    )
  })

  it('trims the original prompt’s trailing space and blank lines before the block', () => {
    expect(buildRequeuePrompt('Create the auth service.\n\n  \n', exampleResults, 2)).toBe(`Create the auth service.\n\n${exampleBlock}`)
  })

  it('names every failed level and lists their checks in level order', () => {
    const results: LevelResult[] = [
      {level: 'syntactic', passed: false, failedChecks: [{name: 'typecheck', detail: '3 TS errors in auth-service.ts'}]},
      {level: 'contract', passed: true, failedChecks: []},
      {level: 'behavioral', passed: false, failedChecks: [{name: 'AC-2', detail: 'npm test exited with code 1', category: 'acceptance_criteria_unmet'}]}
    ]
    expect(buildRequeuePrompt('Task', results, 3)).toBe(`Task

=== PREVIOUS ATTEMPT FAILED (Attempt 3) ===
Verification level: syntactic, behavioral
The previous execution of this task failed verification. Fix the following issues:

- typecheck: 3 TS errors in auth-service.ts
- AC-2: npm test exited with code 1

=== END FAILURE CONTEXT ===

Retry the task addressing these specific failures.
Do not change working parts of the implementation.`)
  })
})

describe('requeueDecision', () => {
  it('allows three attempts', () => {
    expect(maxAttempts).toBe(3)
  })

  it('completes a task whose levels all passed, whatever the attempt', () => {
    const passed = exampleResults.map((result) => ({...result, passed: true, failedChecks: []}))
    expect(requeueDecision(passed, 1)).toEqual({action: 'completed', passed: true})
    expect(requeueDecision(passed, 3)).toEqual({action: 'completed', passed: true})
    expect(requeueDecision([], 5)).toEqual({action: 'completed', passed: true})
  })

  it('re-queues failed attempts 1 and 2 as the next attempt, naming the failed checks', () => {
    const reason = 'contract: env-JWT_SECRET, endpoint-POST--api-auth-register'
    expect(requeueDecision(exampleResults, 1)).toEqual({action: 'requeued', passed: false, attemptNumber: 2, reason})
    expect(requeueDecision(exampleResults, 2)).toEqual({action: 'requeued', passed: false, attemptNumber: 3, reason})
  })

  it('escalates at the third failed attempt, and after', () => {
    const escalated = {action: 'escalated', passed: false, reason: 'max_retries_exceeded'}
    expect(requeueDecision(exampleResults, 3)).toEqual(escalated)
    expect(requeueDecision(exampleResults, 4)).toEqual(escalated)
  })

  it('joins several failed levels in the reason', () => {
    const results: LevelResult[] = [
      {level: 'syntactic', passed: false, failedChecks: [{name: 'typecheck', detail: ''}, {name: 'lint', detail: ''}]},
      {level: 'behavioral', passed: false, failedChecks: [{name: 'AC-1', detail: ''}]}
    ]
    expect(requeueDecision(results, 1)).toEqual({action: 'requeued', passed: false, attemptNumber: 2, reason: 'syntactic: typecheck, lint; behavioral: AC-1'})
  })

  it('takes another limit', () => {
    expect(requeueDecision(exampleResults, 1, 1)).toEqual({action: 'escalated', passed: false, reason: 'max_retries_exceeded'})
    expect(requeueDecision(exampleResults, 4, 5)).toMatchObject({action: 'requeued', attemptNumber: 5})
  })
})

/** `passed` passing and `failed` failing checks. */
function checks(passed: number, failed: number): TriageCheck[] {
  const check = (result: 'pass' | 'fail', index: number): TriageCheck => ({
    criterion: `criterion ${index + 1}`,
    command: `test -f file-${index + 1}`,
    result,
    output: ''
  })
  return [...Array.from({length: passed}, (_, index) => check('pass', index)), ...Array.from({length: failed}, (_, index) => check('fail', passed + index))]
}

describe('triage', () => {
  it('routes to the full pipeline, with a note, when no criterion can be checked', () => {
    expect(triage([])).toEqual({
      criteria_checked: [],
      total_criteria: 0,
      passed_criteria: 0,
      pass_ratio: 0,
      routing_decision: 'full_pipeline',
      note: 'no verifiable criteria for triage'
    })
  })

  it('routes 5 of 6 passing (0.83, over 0.8) to verification only', () => {
    const result = triage(checks(5, 1))
    expect(result).toMatchObject({total_criteria: 6, passed_criteria: 5, routing_decision: 'verify_only', note: null})
    expect(result.pass_ratio).toBeCloseTo(5 / 6, 10)
  })

  it('routes exactly 0.8 (4 of 5) to the full pipeline: the ratio must be over 0.8', () => {
    expect(triagePassRatio).toBe(0.8)
    expect(triage(checks(4, 1))).toMatchObject({total_criteria: 5, passed_criteria: 4, pass_ratio: 0.8, routing_decision: 'full_pipeline', note: null})
  })

  it('routes all passing to verification only, and none passing to the full pipeline', () => {
    expect(triage(checks(3, 0))).toMatchObject({pass_ratio: 1, routing_decision: 'verify_only'})
    expect(triage(checks(0, 3))).toMatchObject({pass_ratio: 0, routing_decision: 'full_pipeline', note: null})
  })

  it('keeps the first 200 characters of each output, and the checks in order', () => {
    const long = 'a'.repeat(150) + 'b'.repeat(100)
    const result = triage([
      {criterion: 'Build passes', command: 'npm run build', result: 'pass', output: long},
      {criterion: 'Exports UserService', command: 'grep -q UserService src/index.ts', result: 'fail', output: 'short'}
    ])
    expect(result.criteria_checked).toEqual([
      {criterion: 'Build passes', command: 'npm run build', result: 'pass', output: 'a'.repeat(150) + 'b'.repeat(50)},
      {criterion: 'Exports UserService', command: 'grep -q UserService src/index.ts', result: 'fail', output: 'short'}
    ])
    expect(result.criteria_checked[0]!.output).toHaveLength(200)
  })
})

describe('failure taxonomy', () => {
  const categories = [
    'executor_incomplete',
    'executor_wrong_approach',
    'compilation_failure',
    'lint_failure',
    'build_failure',
    'acceptance_criteria_unmet',
    'scope_creep',
    'context_exhaustion',
    'tool_failure',
    'coordination_failure'
  ]

  it('has the ten failure categories, in order, each described', () => {
    expect(failureCategories.map((entry) => entry.category)).toEqual(categories)
    for (const entry of failureCategories) expect(entry.description).not.toBe('')
  })

  it.each(categories)('knows %s', (category) => {
    expect(isFailureCategory(category)).toBe(true)
  })

  it.each(['flaky_test', 'LINT_FAILURE', 'lint failure', '', null, undefined, 3, {category: 'lint_failure'}])('rejects %j', (value) => {
    expect(isFailureCategory(value)).toBe(false)
  })
})
