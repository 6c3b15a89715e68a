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
    const decision = decideStop({status: null, problem, blocks: 4, remaining: [{id: 'C-01.1', text: 'It answers'}]})
    expect(decision).toEqual({
      case: 'unchecked',
      decision: 'block',
      reason: `HOLD: Cannot stop - verification cannot be checked.\n${problem}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`,
      systemMessage: null
    })
    expect(stopHookOutput(decision)).toEqual({decision: 'block', reason: decision.reason})
  })

  it('allows at the safety valve, with a warning naming the problem', () => {
    expect(decideStop({status: null, problem, blocks: 2, maxBlocks: 2, remaining: []})).toEqual({
      case: 'unchecked-valve',
      decision: 'allow',
      reason: null,
      systemMessage: `WARNING: Stop allowed by the safety valve after 2 blocks (limit 2).\nVerification could not be checked: ${problem}\nReview this work before accepting it.`
    })
  })

  it('goes before a passing status: what cannot be read proves nothing', () => {
    const status = {version: 1 as const, slices: {}}
    expect(decideStop({status, problem, blocks: 0, remaining: []})).toMatchObject({case: 'unchecked', decision: 'block'})
  })
})

describe('the safety valve’s warning with nothing remaining', () => {
  it('says `none` rather than an empty list', () => {
    expect(decideStop({status: null, blocks: 5, remaining: []}).systemMessage).toBe(
      'WARNING: Stop allowed by the safety valve after 5 blocks (limit 5).\nVerification was never run. Criteria unverified: none\nReview this work before accepting it.'
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
    const error = await recordStopDecision(dir, 'one', decideStop({status: null, blocks: 0, remaining: []})).catch((caught: unknown) => caught)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(error).toBeInstanceOf(FileWriteError)
    expect((error as Error).message).toBe(`${path.join(dir, 'tiers')}: Unexpected file, expected a folder`)
  })
})
