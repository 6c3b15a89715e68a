/**
 * What `tiers respond` takes, through the real bin, in copies of the
 * example project (`content/examples/greenlight-project`): an approval only
 * for a checkpoint that could be shown (a fresh passing `tiers verify` run),
 * a rejection always; and the mismatch deferred by skipping verification
 * kept by every later decision.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, exampleWarning, runTiers} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'

const warningLine =
  exampleWarning

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example’s `.greenlight`, its test command `command`. */
const project = (command = 'true'): Promise<string> => exampleProject(folders, 'verification-tiers-respond-', command)

const tiers = (cwd: string, ...args: string[]): Promise<Run> => runTiers(cwd, args)
const stateFile = (folder: string, slice: string) => path.join(folder, '.greenlight', 'tiers', `${slice}.json`)
const readState = async (folder: string, slice: string) => JSON.parse(await fs.readFile(stateFile(folder, slice), 'utf8'))

/** Run `tiers` and expect exit 0. */
async function ok(folder: string, ...args: string[]): Promise<Run> {
  const run = await tiers(folder, ...args)
  if (run.code !== 0) throw new Error(`tiers ${args.join(' ')} exited ${run.code}: ${run.stdout}${run.stderr}`)
  return run
}

/** Exit 1, nothing on stdout, this one line on stderr (errors print no warning). */
const refused = (message: string): Run => ({code: 1, stdout: '', stderr: `tiers: ${message}\n`})

const approvalRefusal = (slice: string, why: string) =>
  refused(`Unexpected approval: ${why}, expected its checkpoint shown on fresh passing verification first: run \`tiers verify ${slice}\`, then \`tiers checkpoint ${slice}\``)

describe.concurrent('an approval needs a checkpoint shown on fresh passing verification', () => {
  it('refuses an approval of a slice never verified (exit 1), and writes nothing', async ({expect}) => {
    const folder = await project()
    for (const reply of ['yes', 'approved', '1', ' Y ']) {
      expect(await tiers(folder, 'respond', 'S-02', reply)).toEqual(approvalRefusal('S-02', 'slice S-02 was never verified'))
    }
    const json = await tiers(folder, 'respond', 'S-02', 'yes', '--json')
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({error: {code: 1, message: approvalRefusal('S-02', 'slice S-02 was never verified').stderr.slice(7, -1)}})
    await expect(fs.access(stateFile(folder, 'S-02'))).rejects.toThrow()
  })

  it('refuses an approval after a failed run, naming the failed checks', async ({expect}) => {
    const folder = await project('false')
    expect((await tiers(folder, 'verify', 'S-02')).code).toBe(1)
    expect(await tiers(folder, 'respond', 'S-02', 'yes')).toEqual(approvalRefusal('S-02', 'slice S-02 failed its latest verification (test-command)'))
    await expect(fs.access(stateFile(folder, 'S-02'))).rejects.toThrow()
  })

  it('refuses an approval once the contracts changed since the run, and takes it after a new run', async ({expect}) => {
    const folder = await project()
    await ok(folder, 'verify', 'S-02')
    const contract = path.join(folder, '.greenlight', 'contracts', 'C-06.md')
    await fs.writeFile(contract, (await fs.readFile(contract, 'utf8')).replace('account currency', 'account currency, two decimals'))
    expect(await tiers(folder, 'respond', 'S-02', 'yes')).toEqual(approvalRefusal('S-02', 'the latest verification of slice S-02 is stale (the contracts changed)'))
    await ok(folder, 'verify', 'S-02')
    expect(await tiers(folder, 'respond', 'S-02', 'yes')).toEqual({
      code: 0,
      stdout: 'APPROVED — Slice S-02: Currency Formatting\n\nRecorded. The slice is complete: go on to summary and docs.\n',
      stderr: warningLine
    })
    expect((await readState(folder, 'S-02')).decision).toMatchObject({status: 'approved', mismatch: []})
  })

  it('still records a rejection of a slice never verified: a user may reject anything', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, 'respond', 'S-02', 'the export has no header row')
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warningLine})
    expect(run.stdout).toContain('\nRejection 1 of 3 recorded. Record the choice: tiers route S-02 <1|2|3> [--detail <text>]\n')
    expect((await readState(folder, 'S-02')).rejections.map((entry: {feedback: string}) => entry.feedback)).toEqual(['the export has no header row'])
  })

  it('refuses an approval of an auto slice, which has no checkpoint', async ({expect}) => {
    const folder = await project()
    const graph = path.join(folder, '.greenlight', 'GRAPH.json')
    const value = JSON.parse(await fs.readFile(graph, 'utf8'))
    value.slices['S-03'] = {name: 'Plumbing', contracts: ['C-02', 'C-04']}
    await fs.writeFile(graph, JSON.stringify(value))
    await ok(folder, 'verify', 'S-03')
    expect(await tiers(folder, 'respond', 'S-03', 'yes')).toEqual(
      refused('Unexpected approval: slice S-03 is auto (every contract is auto) and has no checkpoint to approve, expected no reply for it')
    )
  })
})

describe.concurrent('the mismatch deferred by a skip', () => {
  const first = ['rejection 1', 'rejection 2', 'rejection 3']

  /** Three rejections of S-01, then skip verification (escalate 3). */
  async function skipped(folder: string, feedback: readonly string[] = first): Promise<void> {
    for (const reply of feedback) await ok(folder, 'respond', 'S-01', reply)
    await ok(folder, 'escalate', 'S-01', '3')
  }

  it('stays with an approval after accept-as-auto, and the approval says so', async ({expect}) => {
    const folder = await project()
    await skipped(folder)
    await ok(folder, 'verify', 'S-01')
    const run = await ok(folder, 'respond', 'S-01', 'yes')
    expect(run.stdout).toBe(
      'APPROVED — Slice S-01: Campaign Cards\n\nRecorded. The slice is complete: go on to summary and docs.\nThe mismatch acknowledged when verification was skipped stays recorded:\n  - "rejection 1"\n  - "rejection 2"\n  - "rejection 3"\n'
    )
    expect((await readState(folder, 'S-01')).decision).toMatchObject({status: 'approved', mismatch: first})
    expect(JSON.parse((await ok(folder, 'status', 'S-01', '--json')).stdout).slices[0].decision).toMatchObject({status: 'approved', mismatch: first})
  })

  it('stays through a new rejection, a pair and an approval', async ({expect}) => {
    const folder = await project()
    await skipped(folder)
    expect((await ok(folder, 'respond', 'S-01', 'rejection 4')).stdout).toMatch(/^ESCALATION: /)
    await ok(folder, 'escalate', 'S-01', '2')
    await ok(folder, 'route', 'S-01', '3', '--detail', 'step by step')
    await ok(folder, 'verify', 'S-01')
    await ok(folder, 'respond', 'S-01', 'yes')
    // Rejection 4 was paired, not deferred.
    expect((await readState(folder, 'S-01')).decision).toMatchObject({status: 'approved', mismatch: first})
  })

  it('adds up over a re-scope and a second skip', async ({expect}) => {
    const folder = await project()
    await skipped(folder)
    await ok(folder, 'respond', 'S-01', 'rejection 4')
    await ok(folder, 'escalate', 'S-01', '1')
    const second = ['rejection 5', 'rejection 6', 'rejection 7']
    await skipped(folder, second)
    const state = await readState(folder, 'S-01')
    expect(state.decision).toMatchObject({status: 'accepted-as-auto', mismatch: [...first, ...second]})
    expect(state.escalations.map((entry: {decision: string}) => entry.decision)).toEqual(['skip', 'rescope', 'skip'])
  })
})
