/**
 * `tiers ci` on a real git repository with a feature branch: the merge is
 * held while a verify slice has no approval for its contracts as they are,
 * and passes once a person approved each; with `--base`, only the slices
 * the branch changed are judged.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {approveAndCommit, sliceStateFile, twoSliceRepository, twoSlices} from './helpers/ci-repository.js'
import {git, runTiers} from './helpers/tiers-bin.js'
import {runTiersPiped, runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const contracts = twoSlices
const repository = () => twoSliceRepository(folders, 'verification-tiers-ci-')
const approve = approveAndCommit

/** The answer that approved `slice`, as its state file keeps it. */
async function approvalOf(folder: string, slice: string): Promise<{at: string}> {
  const state = JSON.parse(await fs.readFile(sliceStateFile(folder, slice), 'utf8'))
  return state.answers.findLast((answer: {outcome: string}) => answer.outcome === 'approval')
}

const file = '.greenlight/CONTRACTS.md'
const closing =
  'A person approves a verify slice at its checkpoint, in their own terminal (tiers review <slice>), and commits its state (<project>/tiers/<slice>.json).'

describe('tiers ci', () => {
  it('holds the merge while a verify slice has no approval, and passes once a person approved each (through the real bin)', async () => {
    const folder = await repository()
    const held = await runTiers(folder, ['ci'])
    expect(held).toEqual({
      code: 1,
      stdout: `MERGE HELD — 2 things wait for a person or a fix:\n  S-01: verify, never approved (${path.join(folder, file)}:3)\n  S-02: verify, never approved (${path.join(folder, file)}:10)\n\n${closing}\n`,
      stderr: ''
    })
    await approve(folder, 'S-01')
    await approve(folder, 'S-02')
    // Who approved each, and how: what the reviewer of the branch checks.
    const [first, second] = await Promise.all(['S-01', 'S-02'].map(async (slice) => (await approvalOf(folder, slice)).at))
    expect(await runTiers(folder, ['ci'])).toEqual({
      code: 0,
      stdout: `MERGE READY — every verify slice is approved for its contracts as they are (2 approved)\n  S-01: approved by Tiers Test <tiers@example.com>, at a terminal, ${first}\n  S-02: approved by Tiers Test <tiers@example.com>, at a terminal, ${second}\n`,
      stderr: ''
    })
  })

  it('reads no contracts cache: entries forged in the user’s cache folder, lowering every tier, fool `status` on this machine, never the merge gate', async () => {
    const folder = await repository()
    const env = {XDG_CACHE_HOME: path.join(folder, 'user-cache'), TIERS_NO_CACHE: undefined}
    expect((await runTiersPiped(folder, ['status'], '', env)).code).toBe(0)
    // The agent can write the user's cache folder as it can write the project: every stored contract made `auto`.
    const models = path.join(folder, 'user-cache', 'verification-tiers', 'contracts')
    for (const model of await fs.readdir(models)) {
      for (const name of await fs.readdir(path.join(models, model))) {
        const entry = path.join(models, model, name)
        const stored = JSON.parse(await fs.readFile(entry, 'utf8'))
        for (const contract of stored.contracts ?? []) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
        await fs.writeFile(entry, JSON.stringify(stored))
      }
    }
    expect((await runTiersPiped(folder, ['status'], '', env)).stdout).toContain('S-01 S-01: auto, 0/3 rejections')
    expect(await runTiersPiped(folder, ['ci'], '', env)).toEqual({
      code: 1,
      stdout: `MERGE HELD — 2 things wait for a person or a fix:\n  S-01: verify, never approved (${path.join(folder, file)}:3)\n  S-02: verify, never approved (${path.join(folder, file)}:10)\n\n${closing}\n`,
      stderr: ''
    })
  })

  it('on a feature branch: a changed contract needs a new approval; with --base, a slice the branch did not change is not its to approve', async () => {
    const folder = await repository()
    await approve(folder, 'S-02')
    await git(folder, 'checkout', '-q', '-b', 'feature')
    // A criterion added raises the bar: the approval is stale, and nothing was lowered.
    await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), contracts('The farewell reads well to a person\n- The farewell names the person'))
    await git(folder, 'commit', '-q', '-am', 'Add a criterion to the farewell')

    const all = await runTiersHere(folder, ['ci', '--json'])
    expect(all.code).toBe(1)
    expect(JSON.parse(all.stdout).holds.map((hold: {line: string}) => hold.line)).toEqual([
      `S-01: verify, never approved (${path.join(folder, file)}:3)`,
      `S-02: verify, approved for other contracts: they changed since (${path.join(folder, file)}:10)`
    ])
    const branch = await runTiersHere(folder, ['ci', '--base', 'main', '--json'])
    expect([branch.code, JSON.parse(branch.stdout)]).toEqual([
      1,
      {
        passed: false,
        holds: [
          {
            project: path.join(folder, '.greenlight'),
            slice: 'S-02',
            line: `S-02: verify, approved for other contracts: they changed since (${path.join(folder, file)}:10)`
          }
        ],
        approved: [],
        approvals: [],
        unchanged: ['S-01'],
        orphans: [],
        warnings: []
      }
    ])

    await approve(folder, 'S-02')
    const {at} = await approvalOf(folder, 'S-02')
    const ready = await runTiersHere(folder, ['ci', '--base', 'main', '--json'])
    expect(JSON.parse(ready.stdout).approvals).toEqual([
      {
        project: path.join(folder, '.greenlight'),
        slice: 'S-02',
        status: 'approved',
        at,
        by: {name: 'Tiers Test', email: 'tiers@example.com'},
        channel: 'terminal',
        line: `S-02: approved by Tiers Test <tiers@example.com>, at a terminal, ${at}`
      }
    ])
    expect(await runTiersHere(folder, ['ci', '--base', 'main'])).toMatchObject({
      code: 0,
      stdout: `MERGE READY — every verify slice is approved for its contracts as they are (1 approved; 1 unchanged since main)\n  S-02: approved by Tiers Test <tiers@example.com>, at a terminal, ${at}\n`
    })
  })

  it('refuses a --base that is no revision, naming it', async () => {
    const folder = await repository()
    const run = await runTiersHere(folder, ['ci', '--base', 'no-such-branch'])
    expect([run.code, run.stderr]).toEqual([1, `tiers: Unexpected --base "no-such-branch", expected a git revision of ${folder} (a branch, tag or commit)\n`])
  })
})
