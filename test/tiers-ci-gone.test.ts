/**
 * `tiers ci --base` on verify slices the branch archived, moved or deleted:
 * an OpenSpec change archived as `openspec archive` does (its folder moved
 * under `changes/archive/`), one proposed and archived on the branch, one
 * deleted in the working tree, and a Greenlight slice whose contract was
 * removed. Each holds the merge, named with its places as it last was,
 * until a person approved it as it last was; a slice that reads `auto` goes
 * without one.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {approveAndCommit, twoSliceRepository, twoSlices} from './helpers/ci-repository.js'
import {git, runTiers} from './helpers/tiers-bin.js'
import {runTiersPiped} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const closing = [
  'A person approves a verify slice at its checkpoint, in their own terminal (tiers review <slice>), and commits its state (<project>/tiers/<slice>.json).',
  'A slice the branch archives, moves or deletes is approved before it goes: tiers review <slice> while its files are in place, its state committed with the branch.'
].join('\n')

/** An OpenSpec change's delta spec: one requirement (verify, the default) with its scenario. */
const deltaSpec = (then: string, tier = '') => `## ADDED Requirements

### Requirement: Due reminders
The system SHALL remind a borrower before a loan is due.
${tier}
#### Scenario: Reminder sent
- **WHEN** a loan is due tomorrow
- **THEN** ${then}
`

const change = 'openspec/changes/add-due-reminders'
const spec = `${change}/specs/lending/spec.md`
const archived = 'openspec/changes/archive/2026-01-02-add-due-reminders'

/** A repository on `main` with an OpenSpec project holding the change `add-due-reminders` (its requirement stating `tier`, if any), then on a branch `feature`. */
async function openSpecRepository(tier = ''): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-ci-gone-')))
  folders.push(root)
  const files: Record<string, string> = {
    'openspec/project.md': '# Lending\n',
    'openspec/tiers.json': '{"test": {"command": "true"}}\n',
    [`${change}/proposal.md`]: '## Why\n\nBorrowers forget.\n',
    [spec]: deltaSpec('the borrower gets a reminder', tier)
  }
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), {recursive: true})
    await fs.writeFile(path.join(root, file), text)
  }
  await fs.writeFile(path.join(root, '.gitignore'), 'openspec/tiers/verification-status.json\nopenspec/tiers/stop-hook.json\nopenspec/tiers/*.lock\n')
  await git(root, 'init', '-q', '-b', 'main')
  await git(root, 'add', '-A')
  await git(root, 'commit', '-q', '-m', 'A change')
  await git(root, 'checkout', '-q', '-b', 'feature')
  return root
}

/** Archive the change as `openspec archive` moves it, and commit. */
async function archive(root: string, from = change, to = archived): Promise<string> {
  await fs.mkdir(path.dirname(path.join(root, to)), {recursive: true})
  await git(root, 'mv', from, to)
  await git(root, 'commit', '-q', '-m', 'Archive the change')
  return git(root, 'rev-parse', '--short=7', 'HEAD~1')
}

/** The change `add-fines` proposed on the branch, then archived: its folder, and the short hash of the commit that last had it. */
async function proposeAndArchiveFines(root: string): Promise<{added: string; last: string}> {
  const added = 'openspec/changes/add-fines'
  await fs.mkdir(path.join(root, added, 'specs', 'lending'), {recursive: true})
  await fs.writeFile(path.join(root, added, 'specs', 'lending', 'spec.md'), deltaSpec('a fine is shown'))
  await git(root, 'add', '-A')
  await git(root, 'commit', '-q', '-m', 'Propose fines')
  return {added, last: await archive(root, added, 'openspec/changes/archive/2026-01-02-add-fines')}
}

/** The one hold line of a gone slice. */
const goneLine = (label: string, at: string, places: string) =>
  `${label}: verify, gone since main (archived, moved or deleted), not approved by a person as it last was, at ${at} (${places})`

describe('tiers ci --base: a verify slice the branch archived, moved or deleted', () => {
  it('an OpenSpec change changed, then archived: held as it last was, through the real bin', async () => {
    const root = await openSpecRepository()
    await fs.writeFile(path.join(root, spec), deltaSpec('the borrower may get a reminder'))
    await git(root, 'commit', '-q', '-am', 'A softer scenario')
    const last = await archive(root)
    expect(await runTiers(root, ['ci', '--base', 'main'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 1 thing waits for a person or a fix:\n  ${goneLine('add-due-reminders', last, `${spec}:3`)}\n\n${closing}\n`,
      stderr: ''
    })
  })

  it('an OpenSpec change proposed and archived on the branch: held, though neither end has it', async () => {
    const root = await openSpecRepository()
    const {added, last} = await proposeAndArchiveFines(root)
    const run = await runTiersPiped(root, ['ci', '--base', 'main', '--json'])
    expect([run.code, JSON.parse(run.stdout).holds]).toEqual([
      1,
      [
        {
          project: path.join(root, 'openspec'),
          slice: 'add-fines',
          line: goneLine('add-fines', last, `${added}/specs/lending/spec.md:3`),
          lastAt: expect.stringMatching(new RegExp(`^${last}[0-9a-f]{33}$`))
        }
      ]
    ])
  })

  it('an OpenSpec change a person approved, then archived: passes, with the approval', async () => {
    const root = await openSpecRepository()
    await approveAndCommit(root, 'add-due-reminders', 'openspec')
    await archive(root)
    const run = await runTiersPiped(root, ['ci', '--base', 'main', '--json'])
    const judged = JSON.parse(run.stdout)
    expect([run.code, judged.holds, judged.approved, judged.approvals.map((approval: {line: string}) => approval.line)]).toEqual([
      0,
      [],
      ['add-due-reminders'],
      [expect.stringMatching(/^add-due-reminders: approved by Tiers Test <tiers@example\.com>, at a terminal, \d{4}-\d\d-\d\dT[\d:.]+Z$/)]
    ])
  })

  it('approved, then changed and archived: held, the approval being of other contracts', async () => {
    const root = await openSpecRepository()
    await approveAndCommit(root, 'add-due-reminders', 'openspec')
    await fs.writeFile(path.join(root, spec), deltaSpec('the borrower may get a reminder'))
    await git(root, 'commit', '-q', '-am', 'A softer scenario')
    const last = await archive(root)
    const run = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect([run.code, run.stdout.split('\n')[1]]).toEqual([1, `  ${goneLine('add-due-reminders', last, `${spec}:3`)}`])
  })

  it('an OpenSpec change deleted in the working tree, uncommitted: held as HEAD has it', async () => {
    const root = await openSpecRepository()
    await fs.writeFile(path.join(root, change, 'proposal.md'), '## Why\n\nBorrowers forget, and pay fines.\n')
    await git(root, 'commit', '-q', '-am', 'A longer why')
    await fs.rm(path.join(root, change), {recursive: true})
    const head = await git(root, 'rev-parse', '--short=7', 'HEAD')
    const run = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect([run.code, run.stdout.split('\n')[1]]).toEqual([1, `  ${goneLine('add-due-reminders', head, `${spec}:3`)}`])
  })

  it('a Greenlight slice whose contract the branch removed: held as the base has it, and passes once a person had approved it there', async () => {
    const folder = await twoSliceRepository(folders, 'verification-tiers-ci-gone-')
    const file = '.greenlight/CONTRACTS.md'
    await git(folder, 'checkout', '-q', '-b', 'feature')
    const onlyFirst = twoSlices('The farewell reads well to a person').replace(/\n### C-02[\s\S]*$/, '')
    await fs.writeFile(path.join(folder, file), onlyFirst)
    await git(folder, 'commit', '-q', '-am', 'Drop the farewell')
    const held = await runTiersPiped(folder, ['ci', '--base', 'main', '--json'])
    expect([held.code, JSON.parse(held.stdout).holds.map((hold: {line: string}) => hold.line)]).toEqual([
      1,
      // S-01, unchanged since `main`, is not the branch's to approve.
      [goneLine('S-02', 'main', `${file}:10`)]
    ])

    // Approved on `main`, before the branch: the slice as it last was is what the person approved.
    await git(folder, 'checkout', '-q', 'main')
    await approveAndCommit(folder, 'S-02')
    await git(folder, 'checkout', '-q', 'feature')
    await git(folder, 'merge', '-q', '--no-edit', 'main')
    const judged = JSON.parse((await runTiersPiped(folder, ['ci', '--base', 'main', '--json'])).stdout)
    expect([judged.holds, judged.approved, judged.unchanged]).toEqual([[], ['S-02'], ['S-01']])
  })

  it('on the merge commit CI checks out for a pull request: a change proposed and archived on the branch is held', async () => {
    const root = await openSpecRepository()
    const {added, last} = await proposeAndArchiveFines(root)
    // As `actions/checkout` checks out `refs/pull/N/merge`: `main` first, the branch merged into it.
    await git(root, 'checkout', '-q', '--detach', 'main')
    await git(root, 'merge', '-q', '--no-ff', '--no-edit', 'feature')
    const run = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect([run.code, run.stdout.split('\n')[1]]).toEqual([1, `  ${goneLine('add-fines', last, `${added}/specs/lending/spec.md:3`)}`])
  })

  it('what main added or archived after the branch started is not the branch’s: a branch behind main, and one that merged main', async () => {
    const root = await openSpecRepository()
    // The branch deletes a markdown file of the project: its parent, where `add-due-reminders` is as main first had it, is read.
    await git(root, 'rm', '-q', 'openspec/project.md')
    await git(root, 'commit', '-q', '-m', 'No project notes')
    await git(root, 'checkout', '-q', 'main')
    await fs.mkdir(path.join(root, 'openspec/changes/add-fines/specs/lending'), {recursive: true})
    await fs.writeFile(path.join(root, 'openspec/changes/add-fines/specs/lending/spec.md'), deltaSpec('a fine is shown'))
    await git(root, 'add', '-A')
    await git(root, 'commit', '-q', '-m', 'Propose fines')
    await git(root, 'checkout', '-q', 'feature')
    const behind = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect([behind.code, behind.stdout]).toEqual([
      0,
      'MERGE READY — every verify slice is approved for its contracts as they are (0 approved; 1 unchanged since main)\n'
    ])
    // On main: `add-due-reminders` changed, approved and archived; the branch merges main.
    await git(root, 'checkout', '-q', 'main')
    await fs.writeFile(path.join(root, spec), deltaSpec('the borrower gets a reminder by mail'))
    await git(root, 'commit', '-q', '-am', 'By mail')
    await approveAndCommit(root, 'add-due-reminders', 'openspec')
    await archive(root)
    await git(root, 'checkout', '-q', 'feature')
    await git(root, 'merge', '-q', '--no-edit', 'main')
    const merged = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect([merged.code, merged.stdout.split('\n')[0]]).toEqual([
      0,
      'MERGE READY — every verify slice is approved for its contracts as they are (0 approved; 1 unchanged since main)'
    ])
  })

  it('a slice new on the branch and removed by an edit: held as it last was', async () => {
    const folder = await twoSliceRepository(folders, 'verification-tiers-ci-gone-')
    const file = '.greenlight/CONTRACTS.md'
    await git(folder, 'checkout', '-q', '-b', 'feature')
    const third = '\n### C-03: Receipt\n\n**Slice:** S-03\n**Verification:** verify\n**Acceptance Criteria:**\n- The receipt reads well to a person\n'
    await fs.appendFile(path.join(folder, file), third)
    await git(folder, 'commit', '-q', '-am', 'A receipt')
    const last = await git(folder, 'rev-parse', '--short=7', 'HEAD')
    await fs.writeFile(path.join(folder, file), twoSlices('The farewell reads well to a person'))
    await git(folder, 'commit', '-q', '-am', 'No receipt after all')
    const run = await runTiersPiped(folder, ['ci', '--base', 'main'])
    expect([run.code, run.stdout.split('\n')[1]]).toEqual([1, `  ${goneLine('S-03', last, `${file}:17`)}`])
  })

  it('a change renamed, its approval renamed with it as the orphan note says: passes', async () => {
    const root = await openSpecRepository()
    await approveAndCommit(root, 'add-due-reminders', 'openspec')
    await git(root, 'mv', change, 'openspec/changes/add-reminders')
    const state = JSON.parse(await fs.readFile(path.join(root, 'openspec/tiers/add-due-reminders.json'), 'utf8'))
    await fs.writeFile(path.join(root, 'openspec/tiers/add-reminders.json'), `${JSON.stringify({...state, slice: 'add-reminders'}, null, 2)}\n`)
    await git(root, 'rm', '-q', 'openspec/tiers/add-due-reminders.json')
    await git(root, 'add', '-A')
    await git(root, 'commit', '-q', '-m', 'Rename the change')
    const judged = JSON.parse((await runTiersPiped(root, ['ci', '--base', 'main', '--json'])).stdout)
    expect([judged.holds, judged.approved]).toEqual([[], ['add-reminders']])
  })

  it('refuses a shallow clone in one line: the commits that show a gone slice are not there', async () => {
    const root = await openSpecRepository()
    await archive(root)
    const clone = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-ci-shallow-')))
    folders.push(clone)
    await git(clone, 'clone', '-q', '--depth=1', '--branch', 'feature', `file://${root}`, 'repo')
    const repo = path.join(clone, 'repo')
    await git(repo, 'fetch', '-q', '--depth=1', 'origin', 'main:main')
    const run = await runTiersPiped(repo, ['ci', '--base', 'main'])
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `tiers: Unexpected shallow clone of ${repo}, expected the history since --base main: a slice the branch archived or deleted is judged as it last was (fetch it whole: actions/checkout's fetch-depth: 0)\n`
    })
  })

  it('a slice that reads auto goes without an approval', async () => {
    const root = await openSpecRepository('\n**Verification:** auto\n')
    await archive(root)
    const run = await runTiersPiped(root, ['ci', '--base', 'main'])
    expect(run).toMatchObject({code: 0, stdout: 'MERGE READY — every verify slice is approved for its contracts as they are (0 approved)\n'})
  })
})
