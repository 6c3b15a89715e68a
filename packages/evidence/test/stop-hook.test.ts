/**
 * The stop-hook decision (block on no run or a failure, allow on a pass, a
 * safety valve after too many blocks) as a pure function, the hook’s JSON answer, and the per-session block counts that
 * feed the safety valve.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {decideStop, readStopBlocks, recordStopDecision, stopHookCountsPath, stopHookOutput, summarize} from '@verification-tiers/evidence'
import type {CheckResult, VerificationRun, VerificationStatus} from '@verification-tiers/evidence'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {FileReadError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

function check(id: string, status: CheckResult['status'], details: string): CheckResult {
  return {
    criterion_id: id,
    contract: null,
    text: `Text of ${id}`,
    level: 'behavioral',
    status,
    method: status === 'requires-human' ? 'manual' : 'bash',
    command: null,
    exit_code: null,
    duration_ms: null,
    details,
    output: null,
    category: null
  }
}

function run(slice: string, results: CheckResult[]): VerificationRun {
  const summary = summarize(results)
  return {
    verification_run: {timestamp: '2025-01-01T10:00:00.000Z', slice, slice_name: slice, git_head: null, worktree: null, contracts_hash: 'sha256:x', timeout_seconds: 60},
    results,
    summary,
    all_automated_pass: summary.fail === 0 && summary.timeout === 0
  }
}

function status(...runs: VerificationRun[]): VerificationStatus {
  return {version: 1, slices: Object.fromEntries(runs.map((entry) => [entry.verification_run.slice, entry]))}
}

const remaining = [
  {id: 'AC-1', text: 'Errors use AppError'},
  {id: 'AC-2', text: 'Tests pass'}
]

const passing = status(run('S-01', [check('AC-1', 'pass', 'npm test exited 0'), check('AC-3', 'pass', 'tsc exited 0')]))
const failing = status(
  run('S-01', [check('AC-1', 'pass', 'exit code 0 in 0.1 s'), check('AC-2', 'fail', 'pattern-checker found raw Error() throw at line 45')]),
  run('S-02', [check('AC-5', 'fail', 'npm test exited with code 1'), check('AC-6', 'timeout', 'timed out after 60 s; its process group was killed')])
)
const withManual = status(
  run('S-01', [check('AC-1', 'pass', 'exit code 0 in 0.1 s'), check('AC-3', 'requires-human', 'Please verify: notification appears within 5s')]),
  run('S-02', [check('AC-7', 'requires-human', 'Please verify: the badge is green')])
)

describe('decideStop: the decision matrix', () => {
  it('allows five blocks by default', () => {
    expect(defaultMaxStopBlocks).toBe(5)
  })

  it('missing, blocks < max: blocks, saying to run the checks and listing what remains', () => {
    expect(decideStop({status: null, blocks: 4, remaining})).toEqual({
      case: 'missing',
      decision: 'block',
      reason: 'HOLD: Cannot stop - verification not run.\nRun tiers verify --all to verify all acceptance criteria before completing.\nCriteria remaining: AC-1, AC-2',
      systemMessage: null
    })
  })

  it('missing with no criterion to run: says none were found', () => {
    expect(decideStop({status: null, blocks: 0, remaining: []}).reason).toBe(
      'HOLD: Cannot stop - verification not run.\nRun tiers verify --all to verify all acceptance criteria before completing.\nCriteria remaining: none found'
    )
  })

  it('missing, blocks >= max: allows with the safety valve’s warning', () => {
    const expected = {
      case: 'missing-valve',
      decision: 'allow',
      reason: null,
      systemMessage: 'WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).\nVerification was never run. Criteria unverified: AC-1, AC-2\nReview this work before accepting it.'
    }
    expect(decideStop({status: null, blocks: 5, remaining})).toEqual(expected)
    expect(decideStop({status: null, blocks: 7, maxBlocks: 2, remaining}).systemMessage).toBe(
      'WARNING: Stop allowed by the safety valve after 7 blocks (limit 2).\nVerification was never run. Criteria unverified: AC-1, AC-2\nReview this work before accepting it.'
    )
  })

  it('all pass: allows with nothing to say, whatever the blocks', () => {
    const allowed = {case: 'pass', decision: 'allow', reason: null, systemMessage: null}
    expect(decideStop({status: passing, blocks: 0, remaining})).toEqual(allowed)
    expect(decideStop({status: passing, blocks: 9, remaining})).toEqual(allowed)
  })

  it('any fail, blocks < max: blocks, listing every failure and timeout of every slice', () => {
    expect(decideStop({status: failing, blocks: 4, remaining})).toEqual({
      case: 'failed',
      decision: 'block',
      reason: `HOLD: Cannot stop - 3 criteria failed verification.

Failed:
  - AC-2: pattern-checker found raw Error() throw at line 45
  - AC-5: npm test exited with code 1
  - AC-6: timed out after 60 s; its process group was killed

Continue working on failing criteria, then run tiers verify again.`,
      systemMessage: null
    })
  })

  it('one failure says `criterion`', () => {
    const one = status(run('S-01', [check('AC-5', 'fail', 'npm test exited with code 1')]))
    expect(decideStop({status: one, blocks: 0, remaining}).reason).toBe(`HOLD: Cannot stop - 1 criterion failed verification.

Failed:
  - AC-5: npm test exited with code 1

Continue working on failing criteria, then run tiers verify again.`)
  })

  it('any fail, blocks >= max: allows with a warning naming what still fails', () => {
    expect(decideStop({status: failing, blocks: 2, maxBlocks: 2, remaining})).toEqual({
      case: 'failed-valve',
      decision: 'allow',
      reason: null,
      systemMessage: `WARNING: Stop allowed by the safety valve after 2 blocks (limit 2).
Still failing:
  - AC-2: pattern-checker found raw Error() throw at line 45
  - AC-5: npm test exited with code 1
  - AC-6: timed out after 60 s; its process group was killed
Review this work before accepting it.`
    })
  })

  it('all pass with manual criteria: allows, listing them for a person', () => {
    expect(decideStop({status: withManual, blocks: 3, remaining})).toEqual({
      case: 'pass-manual',
      decision: 'allow',
      reason: null,
      systemMessage: 'All automated criteria pass. For a human to check:\n  - AC-3: Text of AC-3\n  - AC-7: Text of AC-7'
    })
  })

  it('failures come before manual criteria', () => {
    const mixed = status(run('S-01', [check('AC-3', 'requires-human', ''), check('AC-2', 'fail', 'exit code 1 in 0.1 s')]))
    expect(decideStop({status: mixed, blocks: 0, remaining})).toMatchObject({case: 'failed', decision: 'block'})
  })
})

describe('stopHookOutput', () => {
  it('blocks with `decision` and `reason`', () => {
    expect(stopHookOutput(decideStop({status: null, blocks: 0, remaining}))).toEqual({
      decision: 'block',
      reason: 'HOLD: Cannot stop - verification not run.\nRun tiers verify --all to verify all acceptance criteria before completing.\nCriteria remaining: AC-1, AC-2'
    })
  })

  it('allows with `{}`, or with a `systemMessage` when there is one', () => {
    expect(stopHookOutput(decideStop({status: passing, blocks: 0, remaining}))).toEqual({})
    expect(stopHookOutput(decideStop({status: withManual, blocks: 0, remaining}))).toEqual({
      systemMessage: 'All automated criteria pass. For a human to check:\n  - AC-3: Text of AC-3\n  - AC-7: Text of AC-7'
    })
  })
})

describe('block counts', () => {
  const folders: string[] = []
  afterAll(async () => {
    await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
  })

  async function projectDir(): Promise<string> {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-stop-'))
    folders.push(folder)
    return path.join(folder, '.greenlight')
  }

  const block = decideStop({status: null, blocks: 0, remaining})
  const allow = decideStop({status: passing, blocks: 0, remaining})

  it('counts blocks per session, and starts again after an allowed stop', async () => {
    const dir = await projectDir()
    expect(stopHookCountsPath(dir)).toBe(path.join(dir, 'tiers', 'stop-hook.json'))
    expect(await readStopBlocks(dir, 'one')).toBe(0)
    const at = new Date('2025-01-01T10:00:00.000Z')
    expect(await recordStopDecision(dir, 'one', block, at)).toBe(1)
    expect(await recordStopDecision(dir, 'one', block, at)).toBe(2)
    expect(await recordStopDecision(dir, 'two', block, at)).toBe(1)
    expect(await readStopBlocks(dir, 'one')).toBe(2)
    expect(JSON.parse(await fs.readFile(stopHookCountsPath(dir), 'utf8'))).toEqual({
      version: 1,
      sessions: {one: {blocks: 2, at: '2025-01-01T10:00:00.000Z'}, two: {blocks: 1, at: '2025-01-01T10:00:00.000Z'}}
    })
    expect(await recordStopDecision(dir, 'one', allow, at)).toBe(0)
    expect(await readStopBlocks(dir, 'one')).toBe(0)
    expect(await readStopBlocks(dir, 'two')).toBe(1)
  })

  it('counts every one of 10 blocks recorded at once', async () => {
    const dir = await projectDir()
    const counts = await Promise.all(Array.from({length: 10}, () => recordStopDecision(dir, 'busy', block)))
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(await readStopBlocks(dir, 'busy')).toBe(10)
  })

  it('refuses a broken counts file, naming it', async () => {
    const dir = await projectDir()
    await fs.mkdir(path.dirname(stopHookCountsPath(dir)), {recursive: true})
    await fs.writeFile(stopHookCountsPath(dir), '{"version": 1}')
    const error = await readStopBlocks(dir, 'one').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FileReadError)
    expect((error as Error).message).toBe(`${stopHookCountsPath(dir)}: Unexpected content, expected stop-hook counts with \`version: 1\` and \`sessions\``)
  })
})
