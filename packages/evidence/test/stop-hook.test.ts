/**
 * The stop-hook decision (block on no run or a failure, allow on a pass, a
 * safety valve after too many blocks) as a pure function, the hook’s JSON answer, and the per-session block counts that
 * feed the safety valve.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {decideStop, readStopBlocks, recordStopDecision, stopHookCountsPath, stopHookOutput} from '@verification-tiers/evidence'
import type {SliceJudgement} from '@verification-tiers/evidence'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {FileReadError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

const remaining = [
  {id: 'AC-1', text: 'Errors use AppError', forPerson: true},
  {id: 'AC-2', text: 'Tests pass', forPerson: false}
]

const notRun: SliceJudgement[] = [{id: 'S-01', name: 'Errors', state: 'not-run', remaining}]
const passing: SliceJudgement[] = [{id: 'S-01', name: 'Errors', state: 'passed', manual: []}]
const failing: SliceJudgement[] = [
  {id: 'S-01', name: 'Errors', state: 'failed', failures: [{id: 'AC-2', details: 'pattern-checker found raw Error() throw at line 45'}]},
  {
    id: 'S-02',
    name: 'Totals',
    state: 'failed',
    failures: [
      {id: 'AC-5', details: 'npm test exited with code 1'},
      {id: 'AC-6', details: 'timed out after 60 s; its process group was killed'}
    ]
  }
]
const withManual: SliceJudgement[] = [
  {id: 'S-01', name: 'Errors', state: 'passed', manual: [{id: 'AC-3', text: 'Text of AC-3', forPerson: true}]},
  {id: 'S-02', name: 'Totals', state: 'passed', manual: [{id: 'AC-7', text: 'Text of AC-7', forPerson: true}]}
]

/** What `tiers checkpoint` says of a slice never verified, as the block says it too. */
const missingText = (id: string, name: string) =>
  `VERIFICATION MISSING — Slice ${id}: ${name}\n\nNo verification run is recorded for this slice: the checkpoint opens only\non a passing run.`
const runAgain =
  'Run tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.'
const remainingText = 'Criteria remaining:\n  - AC-1 (for a person at the checkpoint): Errors use AppError\n  - AC-2 (checked by its command): Tests pass'

describe('decideStop: the decision matrix', () => {
  it('allows five blocks by default', () => {
    expect(defaultMaxStopBlocks).toBe(5)
  })

  it('not run, blocks < max: blocks, naming the slice and listing its criteria', () => {
    expect(decideStop({slices: notRun, blocks: 4})).toEqual({
      case: 'missing',
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Errors')}\n\n${runAgain}\n${remainingText}`,
      systemMessage: null
    })
  })

  it('stale: says stale and why, not “not run”; with a slice never run too, says both', () => {
    const stale: SliceJudgement = {
      id: 'S-02',
      name: 'Totals',
      state: 'stale',
      run: '2025-01-01T10:00:00.000Z',
      changed: ['the contracts changed', 'uncommitted changes differ'],
      remaining: [{id: 'C-02.1', text: 'x', forPerson: true}]
    }
    // The words of `tiers checkpoint S-02` (its `evidence-refusal`), not a summary of them.
    const staleText =
      'VERIFICATION STALE — Slice S-02: Totals\n\nThe latest run (2025-01-01T10:00:00.000Z) passed, but since then the contracts changed and uncommitted changes differ.'
    expect(decideStop({slices: [stale], blocks: 0}).reason).toBe(
      `HOLD: Cannot stop - verification stale.\n\n${staleText}\n\n${runAgain}\nCriteria remaining:\n  - C-02.1 (for a person at the checkpoint): x`
    )
    expect(decideStop({slices: [...notRun, stale], blocks: 0}).reason).toBe(
      `HOLD: Cannot stop - verification not run or stale.\n\n${missingText('S-01', 'Errors')}\n\n${staleText}\n\n${runAgain}\n${remainingText}\n  - C-02.1 (for a person at the checkpoint): x`
    )
  })

  it('lists a criterion once when its contract is in several slices not yet verified', () => {
    const shared: SliceJudgement[] = [
      {id: 'S-01', name: 'Errors', state: 'not-run', remaining},
      {id: 'S-02', name: 'Totals', state: 'not-run', remaining: [remaining[1]!, {id: 'AC-9', text: 'Totals add up', forPerson: true}]}
    ]
    expect(decideStop({slices: shared, blocks: 0}).reason).toBe(
      `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Errors')}\n\n${missingText('S-02', 'Totals')}\n\n${runAgain}\n${remainingText}\n  - AC-9 (for a person at the checkpoint): Totals add up`
    )
  })

  it('not run with no criterion: says none were found', () => {
    expect(decideStop({slices: [{id: 'S-01', name: 'Errors', state: 'not-run', remaining: []}], blocks: 0}).reason).toBe(
      `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Errors')}\n\n${runAgain}\nCriteria remaining: none found`
    )
  })

  it('not run, blocks >= max: allows with the safety valve’s warning', () => {
    const expected = {
      case: 'missing-valve',
      decision: 'allow',
      reason: null,
      systemMessage:
        'WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).\nSlice S-01: never verified\nCriteria unverified: AC-1, AC-2\nReview this work before accepting it.'
    }
    expect(decideStop({slices: notRun, blocks: 5})).toEqual(expected)
    expect(decideStop({slices: notRun, blocks: 7, maxBlocks: 2}).systemMessage).toBe(
      'WARNING: Stop allowed by the safety valve after 7 blocks (limit 2).\nSlice S-01: never verified\nCriteria unverified: AC-1, AC-2\nReview this work before accepting it.'
    )
  })

  it('all pass, or nothing in progress: allows with nothing to say, whatever the blocks', () => {
    const allowed = {case: 'pass', decision: 'allow', reason: null, systemMessage: null}
    expect(decideStop({slices: passing, blocks: 0})).toEqual(allowed)
    expect(decideStop({slices: passing, blocks: 9})).toEqual(allowed)
    expect(decideStop({slices: [], blocks: 0})).toEqual(allowed)
  })

  it('any fail, blocks < max: blocks, listing every failure and timeout of every slice, and the slices not verified', () => {
    expect(decideStop({slices: failing, blocks: 4})).toEqual({
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
    expect(
      decideStop({slices: [failing[0]!, {id: 'S-03', name: 'Export', state: 'not-run', remaining}], blocks: 0}).reason
    ).toBe(`HOLD: Cannot stop - 1 criterion failed verification.

Failed:
  - AC-2: pattern-checker found raw Error() throw at line 45

Not verified:
  - Slice S-03: never verified

Continue working on failing criteria, then run tiers verify again.`)
  })

  it('any fail, blocks >= max: allows with a warning naming what still fails', () => {
    expect(decideStop({slices: failing, blocks: 2, maxBlocks: 2})).toEqual({
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
    expect(decideStop({slices: withManual, blocks: 3})).toEqual({
      case: 'pass-manual',
      decision: 'allow',
      reason: null,
      systemMessage: 'All automated criteria pass. For a human to check:\n  - AC-3: Text of AC-3\n  - AC-7: Text of AC-7'
    })
  })

  it('says what asks less of a person than they approved: with an allow, for the person; with a block and at the valve, after what holds', () => {
    const changed = [
      'C-01 Greeting: tier verify → auto (.greenlight/CONTRACTS.md:3)',
      'C-01 Greeting: acceptance criterion "It waves" → removed (.greenlight/CONTRACTS.md:3)'
    ]
    const section = `Changed since a person approved the slice (it stays verify until a person approves it as it is):\n  - ${changed[0]}\n  - ${changed[1]}`
    expect(decideStop({slices: passing, blocks: 0, changed})).toEqual({
      case: 'pass-manual',
      decision: 'allow',
      reason: null,
      systemMessage: `All automated criteria pass.\n${section}`
    })
    expect(decideStop({slices: withManual, blocks: 0, changed}).systemMessage).toBe(
      `All automated criteria pass. For a human to check:\n  - AC-3: Text of AC-3\n  - AC-7: Text of AC-7\n${section}`
    )
    expect(decideStop({slices: [failing[0]!], blocks: 0, changed}).reason).toBe(
      `HOLD: Cannot stop - 1 criterion failed verification.\n\nFailed:\n  - AC-2: pattern-checker found raw Error() throw at line 45\n\n${section}\n\nContinue working on failing criteria, then run tiers verify again.`
    )
    expect(decideStop({slices: notRun, blocks: 0, changed}).reason).toBe(
      `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Errors')}\n\n${runAgain}\n${section}\n${remainingText}`
    )
    expect(decideStop({slices: notRun, blocks: 5, changed}).systemMessage).toContain(`\n${section}\nReview this work before accepting it.`)
  })

  it('failures and slices not verified come before manual criteria', () => {
    expect(decideStop({slices: [...withManual, failing[0]!], blocks: 0})).toMatchObject({case: 'failed', decision: 'block'})
    expect(decideStop({slices: [...withManual, ...notRun], blocks: 0})).toMatchObject({case: 'missing', decision: 'block'})
  })
})

describe('decideStop: a big project', () => {
  /** `count` slices of one state, `S-01` on, each with two criteria: one for a person, one by its command. */
  const slices = (count: number, judge: (id: string, criteria: typeof remaining) => SliceJudgement): SliceJudgement[] =>
    Array.from({length: count}, (_, index) => {
      const id = `S-${String(index + 1).padStart(2, '0')}`
      return judge(id, [
        {id: `C-${id.slice(2)}.1`, text: 'Reads well', forPerson: true},
        {id: `C-${id.slice(2)}.2`, text: 'Builds', forPerson: false}
      ])
    })
  const edited = (id: string, criteria: typeof remaining): SliceJudgement => ({
    id,
    name: `Slice ${id}`,
    state: 'stale',
    run: '2025-01-01T10:00:00.000Z',
    changed: ['uncommitted changes differ (src/a.ts edited)'],
    remaining: criteria
  })
  const names = 'S-01 (Slice S-01), S-02 (Slice S-02), S-03 (Slice S-03), S-04 (Slice S-04), S-05 (Slice S-05)'

  it('groups more than three slices not verified by state, counts them, names the first five, says a change once and counts the criteria', () => {
    const judged = [
      ...slices(40, edited),
      {id: 'S-41', name: 'Late', state: 'stale', run: '2025-01-01T10:00:00.000Z', changed: ['the contracts changed'], remaining: []},
      {id: 'S-42', name: 'S-42', state: 'not-run', remaining: []}
    ] satisfies SliceJudgement[]
    expect(
      decideStop({slices: judged, blocks: 0, claims: Array.from({length: 7}, (_, index) => `STATE.md:${index + 1} calls S-0${index + 1} complete`)}).reason
    ).toBe(`HOLD: Cannot stop - verification not run or stale.

Never verified, 1 slice: S-42
Stale, 40 slices, since their latest runs uncommitted changes differ (src/a.ts edited): ${names}, and 35 more
Stale, 1 slice, since its latest run the contracts changed: S-41 (Late)

STATE.md:1 calls S-01 complete
STATE.md:2 calls S-02 complete
STATE.md:3 calls S-03 complete
STATE.md:4 calls S-04 complete
and 3 more places in the workflow’s files call slices in progress complete

${runAgain}
Criteria remaining: 80, 40 for a person at the checkpoint, 40 checked by their commands (tiers contracts --slice <slice> lists a slice’s)`)
    // Three or fewer stay in the checkpoint’s words.
    expect(decideStop({slices: slices(3, edited), blocks: 0}).reason).toMatch(
      /^HOLD: Cannot stop - verification stale\.\n\nVERIFICATION STALE — Slice S-01: Slice S-01\n/
    )
  })

  it('lists ten failures and counts the rest; groups the slices not verified beside them; the valve says the same in short', () => {
    const failed: SliceJudgement[] = Array.from({length: 12}, (_, index) => ({
      id: `S-9${index}`,
      name: 'Fails',
      state: 'failed',
      failures: [{id: `C-9${index}.1`, details: 'exit code 1'}]
    }))
    const judged = [...failed, ...slices(4, (id, criteria) => ({id, name: `Slice ${id}`, state: 'not-run', remaining: criteria}))]
    const listed = Array.from({length: 10}, (_, index) => `  - C-9${index}.1: exit code 1`).join('\n')
    expect(decideStop({slices: judged, blocks: 0}).reason).toBe(`HOLD: Cannot stop - 12 criteria failed verification.

Failed:
${listed}
  - and 2 more

Not verified:
  - Never verified, 4 slices: S-01 (Slice S-01), S-02 (Slice S-02), S-03 (Slice S-03), S-04 (Slice S-04)

Continue working on failing criteria, then run tiers verify again.`)
    expect(decideStop({slices: judged, blocks: 5, maxBlocks: 5}).systemMessage).toBe(`WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).
Still failing:
${listed}
  - and 2 more
Never verified, 4 slices: S-01 (Slice S-01), S-02 (Slice S-02), S-03 (Slice S-03), S-04 (Slice S-04)
Criteria unverified: C-01.1, C-01.2, C-02.1, C-02.2, C-03.1, C-03.2, C-04.1, C-04.2
Review this work before accepting it.`)
  })

  it('counts more than ten criteria for a person with the slices that wait for their checkpoints, naming the first five', () => {
    const waiting = slices(12, (id, criteria) => ({id, name: `Slice ${id}`, state: 'passed', manual: criteria.filter((criterion) => criterion.forPerson)}))
    const nothingToCheck: SliceJudgement[] = ['S-91', 'S-92'].map((id) => ({id, name: 'No criteria', state: 'passed', manual: []}))
    expect(decideStop({slices: [...waiting, ...nothingToCheck], blocks: 0, command: 'npx tiers'}).systemMessage).toBe(
      `All automated criteria pass. 14 slices wait for a person’s answer at their checkpoints, 12 criteria to check (npx tiers checkpoint <slice> shows a slice’s): ${names}, and 9 more`
    )
  })
})

describe('decideStop: open tasks', () => {
  const task = 'specs/001-log/tasks.md:4: T002 Schedule the check (open task of slice 001-log)'

  it('holds under their own heading when only open tasks hold, and the valve says so', () => {
    expect(decideStop({slices: notRun, openTasks: [task], blocks: 0})).toEqual({
      case: 'tasks-open',
      decision: 'block',
      reason: `HOLD: Cannot stop - tasks open.\n${task}\nFinish them (or remove the ones no longer planned), then run tiers verify --all to verify all acceptance criteria before completing.`,
      systemMessage: null
    })
    expect(decideStop({slices: passing, openTasks: [task], blocks: 5})).toEqual({
      case: 'tasks-open-valve',
      decision: 'allow',
      reason: null,
      systemMessage: `WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).\nTasks still open: ${task}\nReview this work before accepting it.`
    })
  })

  it('says “cannot be checked” only when something cannot be read, listing the open tasks after it', () => {
    const problem = 'a.md:3: Unexpected one'
    expect(decideStop({slices: notRun, problems: [problem], openTasks: [task], blocks: 0}).reason).toBe(
      `HOLD: Cannot stop - verification cannot be checked.\n${problem}\n${task}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
    )
  })
})

describe('stopHookOutput', () => {
  it('blocks with `decision` and `reason`', () => {
    expect(stopHookOutput(decideStop({slices: notRun, blocks: 0}))).toEqual({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Errors')}\n\n${runAgain}\n${remainingText}`
    })
  })

  it('allows with `{}`, or with a `systemMessage` when there is one', () => {
    expect(stopHookOutput(decideStop({slices: passing, blocks: 0}))).toEqual({})
    expect(stopHookOutput(decideStop({slices: withManual, blocks: 0}))).toEqual({
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

  const block = decideStop({slices: notRun, blocks: 0})
  const allow = decideStop({slices: passing, blocks: 0})

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

  it('refuses counts of the right shape with values that are no whole number of 0 or more, naming the file', async () => {
    const dir = await projectDir()
    await fs.mkdir(path.dirname(stopHookCountsPath(dir)), {recursive: true})
    for (const entry of [{blocks: 'x', at: 'x'}, {blocks: -1, at: 'x'}, {blocks: 1.5, at: 'x'}, {blocks: 1}, null, 3]) {
      await fs.writeFile(stopHookCountsPath(dir), JSON.stringify({version: 1, sessions: {s1: entry}}))
      const error = await readStopBlocks(dir, 'one').catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(FileReadError)
      expect((error as Error).message).toBe(
        `${stopHookCountsPath(dir)}: Unexpected entry for session "s1", expected \`blocks\` (a whole number of 0 or more) and \`at\` (a time)`
      )
    }
  })
})
