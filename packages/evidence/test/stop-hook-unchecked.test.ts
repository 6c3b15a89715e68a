/**
 * What the stop hook answers when it cannot check: a project that cannot be
 * read blocks under the safety valve (`problem`), the valve’s warning never
 * ends on an empty list, and a state folder that cannot be written fails at
 * once, naming it, instead of after the lock’s retries.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {decideStop, recordStopDecision, stopHookOutput} from '@verification-tiers/evidence'
import {FileWriteError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

const problem = ".greenlight/GRAPH.json: 3:1: Expected property name or '}'"

describe('decideStop with a problem', () => {
  it('blocks below the safety valve, naming the problem', () => {
    const decision = decideStop({
      slices: [{id: 'S-01', name: 'Answers', state: 'not-run', remaining: [{id: 'C-01.1', text: 'It answers', forPerson: true}]}],
      problems: [problem],
      blocks: 4
    })
    expect(decision).toEqual({
      case: 'unchecked',
      decision: 'block',
      reason: `HOLD: Cannot stop - verification cannot be checked.\n${problem}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`,
      systemMessage: null
    })
    expect(stopHookOutput(decision)).toEqual({decision: 'block', reason: decision.reason})
  })

  it('allows at the safety valve, with a warning naming the problem', () => {
    expect(decideStop({slices: [], problems: [problem], blocks: 2, maxBlocks: 2})).toEqual({
      case: 'unchecked-valve',
      decision: 'allow',
      reason: null,
      systemMessage: `WARNING: Stop allowed by the safety valve after 2 blocks (limit 2).\nVerification could not be checked: ${problem}\nReview this work before accepting it.`
    })
  })

  it('names every problem, one line each', () => {
    expect(decideStop({slices: [], problems: ['a.md:3: Unexpected one', 'b.md: Unexpected two'], blocks: 0}).reason).toBe(
      'HOLD: Cannot stop - verification cannot be checked.\na.md:3: Unexpected one\nb.md: Unexpected two\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.'
    )
  })

  it('goes before a passing status: what cannot be read proves nothing', () => {
    expect(decideStop({slices: [{id: 'S-01', name: 'Answers', state: 'passed', manual: []}], problems: [problem], blocks: 0})).toMatchObject({
      case: 'unchecked',
      decision: 'block'
    })
  })
})

describe('the safety valve’s warning with nothing remaining', () => {
  it('says `none` rather than an empty list', () => {
    expect(decideStop({slices: [{id: 'S-01', name: 'Answers', state: 'not-run', remaining: []}], blocks: 5}).systemMessage).toBe(
      'WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).\nSlice S-01: never verified\nCriteria unverified: none\nReview this work before accepting it.'
    )
  })
})

describe('recordStopDecision where it cannot write', () => {
  const folders: string[] = []
  afterAll(async () => {
    await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
  })

  it('throws a `FileWriteError` naming the state folder at once', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-stop-'))
    folders.push(folder)
    const dir = path.join(folder, '.greenlight')
    await fs.mkdir(dir)
    // A file where the state folder should be.
    await fs.writeFile(path.join(dir, 'tiers'), '')
    const started = Date.now()
    const error = await recordStopDecision(dir, 'one', decideStop({slices: [], blocks: 0})).catch((caught: unknown) => caught)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(error).toBeInstanceOf(FileWriteError)
    expect((error as Error).message).toBe(`${path.join(dir, 'tiers')}: Unexpected file, expected a folder`)
  })
})
