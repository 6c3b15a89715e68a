/**
 * `tiers status` and the stop hook judge progress alike, through the cli's
 * `main`: the slices status counts in progress are those the hook holds on (or,
 * passing, says wait for a person), and on a project of more than three
 * slices the hold groups them by state, counts them and names the first
 * few; an edit after `verify --all` names the file that changed once, not a
 * paragraph per slice.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, git} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const names = ['Till', 'Drawer', 'Scale', 'Printer', 'Receipt']

/** Four auto slices whose checks pass, then S-05, verify, with one criterion for a person. */
const contracts = names
  .map((name, index) => {
    const id = `0${index + 1}`
    const verify = index === 4
    return `## S-${id}: ${name}\n\n### C-${id}: ${name}\n\n**Slice:** S-${id}\n**Verification:** ${verify ? 'verify' : 'auto'}\n**Acceptance Criteria:**\n- The ${name.toLowerCase()} works -- verified by: \`test -f src/a.txt\`\n${verify ? '- The receipt reads well\n' : ''}`
  })
  .join('\n')

async function project(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-progress-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight'))
  await fs.mkdir(path.join(folder, 'src'))
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), contracts)
  await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), '{"test": {"command": "true"}}\n')
  await fs.writeFile(path.join(folder, 'src', 'a.txt'), 'one\n')
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'Shop')
  return folder
}

/** The hook’s answer, after checking it exited 0 with nothing on stderr. */
async function hook(folder: string, expect: typeof import('vitest').expect): Promise<Record<string, string>> {
  const run = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 'shop', cwd: folder}))
  expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
  return JSON.parse(run.stdout) as Record<string, string>
}

/** Each slice’s progress and next step by `tiers status --json`, and those it counts in progress. */
async function status(folder: string, expect: typeof import('vitest').expect): Promise<{slices: Record<string, string>; inProgress: string[]}> {
  const run = await runTiers(folder, ['status', '--json'])
  expect(run.code).toBe(0)
  const data = JSON.parse(run.stdout) as {slices: Array<{slice: string; progress: string; next: string; inProgress: boolean}>}
  return {
    slices: Object.fromEntries(data.slices.map((slice) => [slice.slice, `${slice.progress}, next: ${slice.next}`])),
    inProgress: data.slices.filter((slice) => slice.inProgress).map((slice) => slice.slice)
  }
}

const ids = ['S-01', 'S-02', 'S-03', 'S-04', 'S-05']
const named = 'S-01 (Till), S-02 (Drawer), S-03 (Scale), S-04 (Printer), S-05 (Receipt)'
const runAll =
  'Run tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.'
const remaining = 'Criteria remaining: 6, 1 for a person at the checkpoint, 5 checked by their commands (tiers contracts --slice <slice> lists a slice’s)'

describe('tiers status and the stop hook agree on which slices are in progress', () => {
  it('never verified, then verified, then an edit: the same slices in progress, grouped and counted, the file named once', async ({expect}) => {
    const folder = await project()
    expect(await hook(folder, expect)).toEqual({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\nNever verified, 5 slices: ${named}\n\n${runAll}\n${remaining}`
    })
    expect(await status(folder, expect)).toEqual({slices: Object.fromEntries(ids.map((id) => [id, 'not-run, next: verify'])), inProgress: ids})

    expect((await runTiers(folder, ['verify', '--all'])).code).toBe(0)
    // Only S-05 is in progress: its checkpoint waits for a person, who the hook lets the agent stop for.
    expect(await hook(folder, expect)).toEqual({systemMessage: 'All automated criteria pass. For a human to check:\n  - C-05.2: The receipt reads well'})
    expect(await status(folder, expect)).toEqual({
      slices: {
        'S-01': 'done, next: done',
        'S-02': 'done, next: done',
        'S-03': 'done, next: done',
        'S-04': 'done, next: done',
        'S-05': 'passed, next: checkpoint'
      },
      inProgress: ['S-05']
    })

    await fs.appendFile(path.join(folder, 'src', 'a.txt'), 'two\n')
    const {reason} = await hook(folder, expect)
    expect(reason).toBe(
      `HOLD: Cannot stop - verification stale.\n\nStale, 5 slices, since their latest runs uncommitted changes differ (src/a.txt edited): ${named}\n\n${runAll}\n${remaining}`
    )
    expect(reason?.split('src/a.txt')).toHaveLength(2)
    expect(await status(folder, expect)).toEqual({slices: Object.fromEntries(ids.map((id) => [id, 'stale, next: verify'])), inProgress: ids})
    const table = await runTiers(folder, ['status'])
    expect(table.stdout.split('\n')[0]).toBe('S-01 Till: auto, 0/3 rejections, undecided, run stale, next: verify')
  })
})
