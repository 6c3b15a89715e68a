/**
 * A slice’s history on real git repositories, through the cli's `main`: a state
 * file whose decision no answer gives, or that lost answers the committed
 * one holds, holds the stop hook, `tiers status`, the checkpoint and `tiers
 * ci`, each naming the file; the person’s `--undo` loses nothing, a
 * withdrawal written by hand does; a state file no slice has is named, and
 * holds nothing.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {approveAndCommit, commitState, sliceStateFile, twoSliceRepository, twoSlices} from './helpers/ci-repository.js'
import {git} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers, runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const repository = () => twoSliceRepository(folders, 'verification-tiers-history-')
const contractsFile = (folder: string) => path.join(folder, '.greenlight', 'CONTRACTS.md')

/** The stop hook as the agent in `folder` runs it, through the cli's `main`, its input on a pipe. */
const stopHook = (folder: string) =>
  runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 'history', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false}))
/** The hook’s block when the gate cannot check the work, listing `lines`. */
const unchecked = (...lines: string[]) => ({
  code: 0,
  stdout: `${JSON.stringify({decision: 'block', reason: `HOLD: Cannot stop - verification cannot be checked.\n${lines.join('\n')}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`})}\n`,
  stderr: ''
})
const closing =
  'A person approves a verify slice at its checkpoint, in their own terminal (tiers review <slice>), and commits its state (<project>/tiers/<slice>.json).'
const neverApproved = (folder: string, slice: string, line: number) => `${slice}: verify, never approved (${contractsFile(folder)}:${line})`

/** Three rejections of S-01, recorded as an orchestrator relays them, and committed. */
async function threeRejections(folder: string): Promise<void> {
  for (const feedback of ['The greeting is cold', 'The greeting is long', 'The greeting is late']) {
    expect((await runTiersHere(folder, ['respond', 'S-01', feedback], '', {}, {terminal: false})).code).toBe(0)
  }
  await commitState(folder, 'S-01', 'Three rejections of S-01')
}

describe('a decision no answer gives', () => {
  it('holds the stop hook and the merge with the one line naming the file, until the person answers again', async () => {
    const folder = await repository()
    expect((await runTiersHere(folder, ['verify', 'S-01'])).code).toBe(0)
    const status = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8'))
    const hash: string = status.slices['S-01'].verification_run.contracts_hash
    // What an agent writes to pass the gate: the decision alone, for the contracts as they are.
    const decision = {status: 'approved', at: '2025-01-01T00:00:00.000Z', contractsHash: hash, mismatch: []}
    await fs.writeFile(
      sliceStateFile(folder, 'S-01'),
      `${JSON.stringify({version: 1, slice: 'S-01', rejectionCount: 0, rejections: [], escalations: [], decision, answers: []}, null, 2)}\n`
    )
    await commitState(folder, 'S-01', 'Approve S-01')

    const line = `${sliceStateFile(folder, 'S-01')}:7:15: Unexpected \`decision\` approved 2025-01-01T00:00:00.000Z for ${hash.slice(0, 19)}… with no approval by a person behind it in \`answers\`, expected null; the person answers its checkpoint again (\`tiers review S-01\`), or fix the file (it is never reset silently)`
    expect(await runTiers(folder, ['ci'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 2 things wait for a person or a fix:\n  ${line}\n  ${neverApproved(folder, 'S-02', 10)}\n\n${closing}\n`,
      stderr: ''
    })
    expect(await stopHook(folder)).toEqual(unchecked(line))

    // The way out: the person approves, at a terminal, on a fresh run; the history then gives the decision.
    expect((await runTiersHere(folder, ['verify', 'S-01'])).code).toBe(0)
    expect((await runTiersHere(folder, ['review', 'S-01'], 'yes\n')).stdout).toMatch(/: APPROVED — Slice S-01: S-01\n\nRecorded\./)
    await commitState(folder, 'S-01', 'Approve S-01 again')
    const held = await runTiers(folder, ['ci'])
    expect(held.stdout).toMatch(
      /^MERGE HELD — 1 thing waits for a person or a fix:\n {2}S-02: verify, never approved .*\n\nApproved:\n {2}S-01: approved by Tiers Test <tiers@example\.com>, at a terminal, \d{4}-\d\d-\d\dT[\d:.]+Z\n\n/
    )
  })
})

describe('history lost against the committed one', () => {
  it('holds the stop hook, status and the checkpoint when a state file holding 3 committed rejections is deleted, until it is restored', async () => {
    const folder = await repository()
    await threeRejections(folder)
    const file = sliceStateFile(folder, 'S-01')
    await fs.rm(file)
    const lostLine = (file: string) =>
      `${file}: Unexpected history of slice S-01: lost 3 rejections and 3 answers compared with the committed one (HEAD), expected every committed answer, rejection and escalation choice still there, in order: restore them (\`git checkout HEAD -- ${file}\`)`
    expect(await stopHook(folder)).toEqual(unchecked(lostLine(file)))
    // Commands run in the repository name the file from there, as they found the project.
    const line = lostLine(path.join('.greenlight', 'tiers', 'S-01.json'))
    const status = await runTiers(folder, ['status'])
    expect(status.code).toBe(0)
    expect(status.stdout).toBe(
      `S-01 S-01: verify, 0/3 rejections, undecided, never verified, next: verify\nS-02 S-02: verify, 0/3 rejections, undecided, never verified, next: verify\nproblem: ${line}\n`
    )
    expect(JSON.parse((await runTiers(folder, ['status', 'S-02', '--json'])).stdout).lostHistory).toEqual([])
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-01'])
    expect([checkpoint.code, checkpoint.stdout]).toEqual([
      1,
      `VERIFICATION UNCHECKED — Slice S-01: S-01\n\nThe gate could not read or match part of the project:\n  ${line}\n\nFix these, then run \`tiers verify S-01\` and \`tiers checkpoint S-01\` again.\n`
    ])

    // Cut short, it lost what it no longer holds.
    await git(folder, 'checkout', 'HEAD', '--', file)
    const state = JSON.parse(await fs.readFile(file, 'utf8'))
    await fs.writeFile(file, JSON.stringify({...state, rejectionCount: 1, rejections: state.rejections.slice(0, 1), answers: state.answers.slice(0, 1)}))
    expect(JSON.parse((await runTiers(folder, ['status', '--json'])).stdout).lostHistory).toEqual([
      line.replace('lost 3 rejections and 3 answers', 'lost 2 rejections and 2 answers')
    ])

    // Restored as the line says, nothing is lost: the slice waits for its escalation.
    await git(folder, 'checkout', 'HEAD', '--', file)
    expect((await runTiers(folder, ['status', 'S-01'])).stdout).toBe('S-01 S-01: verify, 3/3 rejections, undecided, never verified, next: escalation\n')
  })

  it('holds the merge when a branch deletes the committed history of its base, naming the base', async () => {
    const folder = await repository()
    await threeRejections(folder)
    await git(folder, 'checkout', '-q', '-b', 'feature')
    await git(folder, 'rm', '-q', sliceStateFile(folder, 'S-01'))
    await git(folder, 'commit', '-q', '-m', 'A fresh start')
    const file = sliceStateFile(folder, 'S-01')
    const lost = `${file}: Unexpected history of slice S-01: lost 3 rejections and 3 answers compared with the committed one (main), expected every committed answer, rejection and escalation choice still there, in order: restore them (\`git checkout main -- ${file}\`)`
    // Locally nothing is lost since HEAD; the branch lost it since its base.
    expect((await runTiers(folder, ['status'])).stdout).not.toMatch(/problem/)
    expect(await runTiers(folder, ['ci', '--base', 'main'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 1 thing waits for a person or a fix:\n  ${lost}\n\n${closing}\n`,
      stderr: ''
    })
    await git(folder, 'checkout', 'main', '--', file)
    expect(await runTiers(folder, ['ci', '--base', 'main'])).toEqual({
      code: 0,
      stdout: 'MERGE READY — every verify slice is approved for its contracts as they are (0 approved; 2 unchanged since main)\n',
      stderr: ''
    })
  })

  it('loses nothing by an answer withdrawn with --undo and committed', async () => {
    const folder = await repository()
    await approveAndCommit(folder, 'S-01')
    await git(folder, 'checkout', '-q', '-b', 'feature')
    expect((await runTiersHere(folder, ['respond', 'S-01', 'The greeting is cold'])).code).toBe(0)
    await commitState(folder, 'S-01', 'Reject S-01')
    // The rejection put back, at the person's terminal: the approval it cleared stands again.
    expect((await runTiersHere(folder, ['respond', '--undo', 'S-01'])).code).toBe(0)
    expect((await runTiers(folder, ['status', '--json'])).stdout).toMatch(/"lostHistory": \[\]/)
    await commitState(folder, 'S-01', 'Withdraw the rejection of S-01')
    const ci = await runTiers(folder, ['ci', '--base', 'main'])
    expect([ci.code, ci.stdout]).toEqual([
      0,
      expect.stringMatching(
        /^MERGE READY — every verify slice is approved for its contracts as they are \(1 approved; 1 unchanged since main\)\n {2}S-01: approved by Tiers Test <tiers@example\.com>, at a terminal, /
      )
    ])
  })

  it('holds status and the merge when a committed rejection is withdrawn by hand, not by the person at a terminal, naming the file', async () => {
    const folder = await repository()
    await threeRejections(folder)
    await git(folder, 'checkout', '-q', '-b', 'feature')
    // As `tiers respond --undo` writes it, without saying that the person withdrew it at a terminal.
    const file = sliceStateFile(folder, 'S-01')
    const state = JSON.parse(await fs.readFile(file, 'utf8'))
    Object.assign(state.answers[2], {withdrawnAt: '2025-01-02T00:00:00.000Z', withdrawnRejection: state.rejections.pop()})
    await fs.writeFile(file, JSON.stringify({...state, rejectionCount: 2}))
    const changed = (shown: string, revision: string) =>
      `${shown}: Unexpected history of slice S-01: lost 1 rejection, and changed 1 answer compared with the committed one (${revision}), expected every committed answer, rejection and escalation choice still there, in order: restore them (\`git checkout ${revision} -- ${shown}\`)`
    expect(JSON.parse((await runTiers(folder, ['status', '--json'])).stdout).lostHistory).toEqual([
      changed(path.join('.greenlight', 'tiers', 'S-01.json'), 'HEAD')
    ])
    await commitState(folder, 'S-01', 'Take a rejection back')
    expect(await runTiers(folder, ['ci', '--base', 'main'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 1 thing waits for a person or a fix:\n  ${changed(file, 'main')}\n\n${closing}\n`,
      stderr: ''
    })
  })

  it('fails closed when git cannot answer, in one line', async () => {
    const folder = await repository()
    await threeRejections(folder)
    // A repository git cannot read: `.git` points at a folder that is gone.
    await fs.rm(path.join(folder, '.git'), {recursive: true})
    await fs.writeFile(path.join(folder, '.git'), `gitdir: ${path.join(folder, 'no-such-repository')}\n`)
    const hook = JSON.parse((await stopHook(folder)).stdout)
    expect(hook.decision).toBe('block')
    expect(hook.reason.split('\n')[1]).toMatch(
      new RegExp(
        `^${escape(path.join(folder, '.greenlight', 'tiers'))}: Unexpected git error \\(\`git cat-file\` .*\\), expected the state files committed at HEAD: without them nothing proves that no answer was lost$`
      )
    )
  })
})

describe('a state file no slice has', () => {
  it('is named by status, the stop hook and ci, holding nothing; renamed as it says, its history is the slice’s again', async () => {
    const folder = await repository()
    await threeRejections(folder)
    await fs.writeFile(contractsFile(folder), twoSlices('The farewell reads well to a person', 'S-07'))
    const file = sliceStateFile(folder, 'S-01')
    const orphanLine = (file: string) =>
      `${file} holds the history of S-01 (3 rejections and 3 answers), which no slice has: if the slice was renamed, rename the file to its new id (and its \`slice\` with it)`
    const orphan = orphanLine(file)
    expect((await runTiers(folder, ['status'])).stdout).toBe(
      `S-07 S-07: verify, 0/3 rejections, undecided, never verified, next: verify\nS-02 S-02: verify, 0/3 rejections, undecided, never verified, next: verify\nnote: ${orphanLine(path.join('.greenlight', 'tiers', 'S-01.json'))}\n`
    )
    const hook = JSON.parse((await stopHook(folder)).stdout)
    expect(hook.reason.split('\n').at(-1)).toBe(orphan)
    expect(await runTiers(folder, ['ci'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 2 things wait for a person or a fix:\n  ${neverApproved(folder, 'S-07', 3)}\n  ${neverApproved(folder, 'S-02', 10)}\n\n${orphan}\n\n${closing}\n`,
      stderr: ''
    })

    const state = JSON.parse(await fs.readFile(file, 'utf8'))
    await fs.writeFile(sliceStateFile(folder, 'S-07'), JSON.stringify({...state, slice: 'S-07'}))
    await fs.rm(file)
    expect((await runTiers(folder, ['status'])).stdout).toBe(
      'S-07 S-07: verify, 3/3 rejections, undecided, never verified, next: escalation\nS-02 S-02: verify, 0/3 rejections, undecided, never verified, next: verify\n'
    )
  })
})

/** `text` as a regular expression matches it, literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
