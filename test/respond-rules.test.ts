/**
 * What `tiers respond` takes, through the cli (its `main`, in the test process), in copies of the
 * example project (`content/examples/greenlight-project`): an approval only
 * for a checkpoint that could be shown (a fresh passing `tiers verify` run),
 * a rejection always; the mismatch deferred by skipping verification kept by
 * every later decision; and the answers a person gives: approvals as typed,
 * a bare no that asks for the description, feedback said as such, and
 * `--undo`.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers, verifiedExampleCopies} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'
import {testIdentity} from './helpers/agent-environment.js'

// The example sets the deprecated `workflow.visual_checkpoint`, which only `init`, `contracts` and `report` say: the gate’s commands say nothing of it.
const warningLine = ''

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

// A project on which `tiers verify --all` passed, its state copied from one verified project.
const verifiedProject = verifiedExampleCopies(folders, 'verification-tiers-respond-')

/** Run `tiers` and expect exit 0. */
async function ok(folder: string, ...args: string[]): Promise<Run> {
  const run = await tiers(folder, ...args)
  if (run.code !== 0) throw new Error(`tiers ${args.join(' ')} exited ${run.code}: ${run.stdout}${run.stderr}`)
  return run
}

/** Exit 1, nothing on stdout, this one line on stderr (errors print no warning). */
const refused = (message: string): Run => ({code: 1, stdout: '', stderr: `tiers: ${message}\n`})

const approvalRefusal = (slice: string, why: string) =>
  refused(
    `Unexpected approval: ${why}, expected its checkpoint shown on fresh passing verification first: run \`tiers verify ${slice}\`, then \`tiers checkpoint ${slice}\``
  )

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
    const folder = await verifiedProject()
    const contract = path.join(folder, '.greenlight', 'contracts', 'C-06.md')
    await fs.writeFile(contract, (await fs.readFile(contract, 'utf8')).replace('account currency', 'account currency, two decimals'))
    // The contract file is a source too: the fingerprint of the tree sees it change.
    expect(await tiers(folder, 'respond', 'S-02', 'yes')).toEqual(
      approvalRefusal(
        'S-02',
        'the latest verification of slice S-02 is stale (the contracts changed; uncommitted changes differ (.greenlight/contracts/C-06.md edited))'
      )
    )
    await ok(folder, 'verify', 'S-02')
    expect(await tiers(folder, 'respond', 'S-02', 'yes')).toEqual({
      code: 0,
      stdout:
        'APPROVED — Slice S-02: Currency Formatting\n\nRecorded. The slice is complete: go on to summary and docs.\nTo withdraw this answer: tiers respond --undo S-02\n',
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

  // Verified before the skip, which changes no contract: the run stays fresh for the approval.
  it('stays with an approval after accept-as-auto, and the approval says so', async ({expect}) => {
    const folder = await verifiedProject()
    await skipped(folder)
    const run = await ok(folder, 'respond', 'S-01', 'yes')
    expect(run.stdout).toBe(
      'APPROVED — Slice S-01: Campaign Cards\n\nRecorded. The slice is complete: go on to summary and docs.\nThe mismatch acknowledged when verification was skipped stays recorded:\n  - "rejection 1"\n  - "rejection 2"\n  - "rejection 3"\nTo withdraw this answer: tiers respond --undo S-01\n'
    )
    expect((await readState(folder, 'S-01')).decision).toMatchObject({status: 'approved', mismatch: first})
    expect(JSON.parse((await ok(folder, 'status', 'S-01', '--json')).stdout).slices[0].decision).toMatchObject({status: 'approved', mismatch: first})
  })

  it('stays through a new rejection, a pair and an approval', async ({expect}) => {
    const folder = await verifiedProject()
    await skipped(folder)
    expect((await ok(folder, 'respond', 'S-01', 'rejection 4')).stdout).toMatch(/\n\nESCALATION: /)
    await ok(folder, 'escalate', 'S-01', '2')
    await ok(folder, 'route', 'S-01', '3', '--detail', 'step by step')
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

describe.concurrent('answers a person gives', () => {
  const approved = (slice: string, name: string) =>
    `APPROVED — Slice ${slice}: ${name}\n\nRecorded. The slice is complete: go on to summary and docs.\nTo withdraw this answer: tiers respond --undo ${slice}\n`

  it('approves the forms people type, each withdrawn again with --undo, the state put back each time', async ({expect}) => {
    const folder = await verifiedProject()
    // Each form people type is read in \`packages/runtime/test/response.test.ts\`; here two go through the bin and back.
    const replies = ['Yes.', ' Looks good! ']
    for (const reply of replies) {
      expect(await tiers(folder, 'respond', 'S-02', reply), reply).toEqual({code: 0, stdout: approved('S-02', 'Currency Formatting'), stderr: warningLine})
      const undo = await ok(folder, 'respond', '--undo', 'S-02')
      expect(undo.stdout).toMatch(
        new RegExp(
          `^WITHDRAWN — Slice S-02: Currency Formatting\n\nWithdrawn: the approval ${escape(JSON.stringify(reply))} recorded \\S+; it stays in the history, marked withdrawn\\.\nNow: 0 rejections, undecided\\.\n$`
        )
      )
      expect((await readState(folder, 'S-02')).decision).toBeNull()
    }
    const state = await readState(folder, 'S-02')
    expect(
      state.answers.map((answer: {reply: string; outcome: string; withdrawnAt: string | null}) => [answer.reply, answer.outcome, answer.withdrawnAt !== null])
    ).toEqual(replies.map((reply) => [reply, 'approval', true]))
  })

  it('takes a second approval of the same contracts as already approved: nothing stacks, one --undo puts the slice back', async ({expect}) => {
    const folder = await verifiedProject()
    await ok(folder, 'respond', 'S-02', 'yes')
    const decided = (await readState(folder, 'S-02')).decision
    for (const reply of ['lgtm', '1) Yes — mark complete and continue']) {
      const again = await ok(folder, 'respond', 'S-02', reply)
      expect(again.stdout, reply).toBe(
        `ALREADY APPROVED — Slice S-02: Currency Formatting\n\nThe slice was approved at ${decided.at} for its contracts as they are: nothing was recorded.\n`
      )
    }
    expect((await readState(folder, 'S-02')).answers.length).toBe(1)
    await ok(folder, 'respond', '--undo', 'S-02')
    expect((await readState(folder, 'S-02')).decision).toBeNull()
  })

  it('asks for the description on a bare no, 2, 3 or reject, exit 1, and writes nothing', async ({expect}) => {
    const folder = await project()
    // Every bare form is read in \`packages/runtime/test/response.test.ts\`; here one of each kind goes through the bin.
    for (const reply of ['N.', '2)']) {
      expect(await tiers(folder, 'respond', 'S-01', reply), reply).toEqual(
        refused(
          `Unexpected reply ${JSON.stringify(reply)} to slice S-01 without a description, expected what is wrong: tiers respond S-01 "what is wrong"; nothing was recorded`
        )
      )
    }
    for (const reply of ['Partially.']) {
      expect(await tiers(folder, 'respond', 'S-01', reply), reply).toEqual(
        refused(
          `Unexpected reply ${JSON.stringify(reply)} to slice S-01 without a description, expected what is missing: tiers respond S-01 "partially: what is missing"; nothing was recorded`
        )
      )
    }
    await expect(fs.access(stateFile(folder, 'S-01'))).rejects.toThrow()
    // With its description, option 3 is partial feedback, kept verbatim.
    await ok(folder, 'respond', 'S-01', '3', 'the badge is orange')
    expect((await readState(folder, 'S-01')).rejections).toMatchObject([{feedback: '3 the badge is orange', partial: true}])
  })

  it('says a reply is feedback before counting it; --undo withdraws it, logged, in text and JSON; nothing left: exit 1', async ({expect}) => {
    const folder = await project()
    const reply = 'yes, but the header is wrong'
    const run = await ok(folder, 'respond', 'S-01', reply)
    expect(
      run.stdout.startsWith(
        `Recorded as feedback, not an approval: "${reply}"\nIf it was meant as an approval: tiers respond --undo S-01, then tiers respond S-01 yes\n\nYour feedback: "${reply}"\n`
      )
    ).toBe(true)
    expect(run.stdout).toContain('\nRejection 1 of 3 recorded.')
    await ok(folder, 'route', 'S-01', '1')

    const undo = JSON.parse((await ok(folder, 'respond', '--undo', 'S-01', '--json')).stdout)
    expect(undo).toEqual({
      slice: 'S-01',
      name: 'Campaign Cards',
      outcome: 'withdrawn',
      withdrawn: {
        reply,
        outcome: 'rejection',
        at: expect.any(String),
        decisionBefore: null,
        escalationsBefore: 0,
        withdrawnAt: expect.any(String),
        withdrawnRejection: expect.objectContaining({feedback: reply, classification: 'test_gap'}),
        withdrawnBy: testIdentity,
        withdrawnChannel: 'terminal',
        by: testIdentity,
        channel: 'terminal',
        fingerprint: expect.stringMatching(/^sha256:/)
      },
      rejectionCount: 0,
      decision: null,
      warnings: []
    })
    const state = await readState(folder, 'S-01')
    expect(state).toMatchObject({rejectionCount: 0, rejections: [], decision: null})
    expect(state.answers).toEqual([undo.withdrawn])
    expect(await tiers(folder, 'respond', '--undo', 'S-01')).toEqual(
      refused('Unexpected `--undo`: slice S-01 has no recorded answer to withdraw, expected one given with `tiers respond S-01 <reply>`')
    )
    expect(await tiers(folder, 'respond', '--undo', 'S-01', 'yes')).toEqual(refused('Unexpected arguments, expected `tiers respond --undo <slice>` (no reply)'))
    expect((await ok(folder, 'status', 'S-01')).stdout).toBe('S-01 Campaign Cards: verify, 0/3 rejections, undecided, never verified, next: verify\n')
  })

  it('refuses to withdraw an answer once an escalation choice was recorded after it, writing nothing', async ({expect}) => {
    const folder = await project()
    for (const reply of ['one', 'two', 'three']) await ok(folder, 'respond', 'S-01', reply)
    await ok(folder, 'escalate', 'S-01', '1')
    const before = await fs.readFile(stateFile(folder, 'S-01'), 'utf8')
    expect(await tiers(folder, 'respond', '--undo', 'S-01')).toEqual(
      refused(
        'Unexpected `--undo`: an escalation choice of slice S-01 was recorded after its latest answer ("three"), expected none: the answer can no longer be withdrawn'
      )
    )
    expect(await fs.readFile(stateFile(folder, 'S-01'), 'utf8')).toBe(before)
  })
})

/** `text` as a literal part of a regular expression. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
