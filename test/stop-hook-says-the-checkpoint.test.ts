/**
 * The stop hook says what `tiers checkpoint` says, through the cli (its `main`, in the test process): a
 * slice verified and then its contract edited is stale, in the checkpoint’s
 * own words (why, and when it ran), with the criteria that remain for a
 * person listed; open tasks alone hold under their own heading.
 *
 * The project is of the shape a person writes in a Greenlight repository: an
 * index table, then each contract as a fenced block of `Field:` lines with an
 * indented criteria list, slices in `GRAPH.json`, and `STATE.md` calling the
 * slices complete: the workflow’s word, which the hook names and never takes
 * for a run or an approval.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, git, root} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const contracts = `# Contracts of the till

## Contract index

| ID | Contract | Slice |
| --- | --- | --- |
| C-31 | ReceiptLayout | S-07 |
| C-32 | ReceiptRefunds | S-08 |

### C-31: ReceiptLayout

\`\`\`
Contract: ReceiptLayout
Boundary: till -> printed receipt
Slice: S-07 (Receipt Printing)

The till prints one receipt per sale, laid out for an 80 mm roll.

Verification: verify
Acceptance Criteria:
  - The receipt lists every item with its price
  - The total is printed last, in bold
  - A refund prints as a negative line
  - The shop's address heads the receipt
\`\`\`

### C-32: ReceiptRefunds

\`\`\`
Contract: ReceiptRefunds
Boundary: till -> refund slip
Slice: S-08 (Refunds)

Verification: verify
Acceptance Criteria:
  - A refund slip names the original sale
\`\`\`
`

const files: Record<string, string> = {
  '.greenlight/CONTRACTS.md': contracts,
  '.greenlight/GRAPH.json': JSON.stringify({slices: {'S-07': {name: 'Receipt Printing', contracts: ['C-31']}, 'S-08': {name: 'Refunds', contracts: ['C-32']}}}),
  '.greenlight/STATE.md': '# State\n\n| Slice | Name | Status |\n| --- | --- | --- |\n| S-07 | Receipt Printing | complete |\n| S-08 | Refunds | complete |\n',
  '.greenlight/config.json': JSON.stringify({test: {command: 'true'}}),
  'src/till.txt': 'till\n'
}

/** A committed scratch copy of the till project. */
async function till(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-till-')))
  folders.push(folder)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), {recursive: true})
    await fs.writeFile(path.join(folder, file), text)
  }
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'Till')
  return folder
}

/** The hook’s answer, parsed, after checking it exited 0 with nothing on stderr. */
async function hook(folder: string, expect: typeof import('vitest').expect): Promise<Record<string, string>> {
  const run = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 'till', cwd: folder, hook_event_name: 'Stop'}))
  expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
  return JSON.parse(run.stdout) as Record<string, string>
}

const forPerson = [
  '  - C-31.1 (for a person at the checkpoint): The receipt lists every item with its price',
  '  - C-31.2 (for a person at the checkpoint): The total is printed last, in bold',
  '  - C-31.3 (for a person at the checkpoint): A refund prints as a negative line',
  "  - C-31.4 (for a person at the checkpoint): The shop's address heads the receipt"
].join('\n')

describe.concurrent('the stop hook says what the checkpoint says', () => {
  it('a passing run, then an edit of the contract: stale, why and since when, and the four criteria for a person', async ({expect}) => {
    const folder = await till()
    const state = path.join(folder, '.greenlight', 'STATE.md')
    const word = 'that is the workflow’s word, not evidence'
    const runAll =
      'Run tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.'
    const refunds = '  - C-32.1 (for a person at the checkpoint): A refund slip names the original sale'
    expect((await runTiers(folder, ['verify', 'S-07'])).code).toBe(0)
    // STATE.md calls S-08 complete: it was never verified, so it holds, and the hook says where the claim is.
    expect(await hook(folder, expect)).toEqual({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\nVERIFICATION MISSING — Slice S-08: Refunds\n\nNo verification run is recorded for this slice: the checkpoint opens only\non a passing run.\n\n${state}:6 calls S-08 complete; ${word}: it has no passing run and no person’s approval\n\n${runAll}\nCriteria remaining:\n${refunds}`
    })
    expect((await runTiers(folder, ['verify', 'S-08'])).code).toBe(0)
    const runAt = (
      JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8')) as {
        slices: Record<string, {verification_run: {timestamp: string}}>
      }
    ).slices['S-07']!.verification_run.timestamp
    expect(await hook(folder, expect)).toEqual({
      systemMessage: `All automated criteria pass. For a human to check:\n${forPerson.replaceAll(' (for a person at the checkpoint)', '')}\n${refunds.replace(' (for a person at the checkpoint)', '')}`
    })

    const file = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(file, contracts.replace('for an 80 mm roll.', 'for an 80 mm or a 58 mm roll.'))
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-07'])
    const stale = `VERIFICATION STALE — Slice S-07: Receipt Printing\n\nThe latest run (${runAt}) passed, but since then the contracts changed and uncommitted changes differ (.greenlight/CONTRACTS.md edited).`
    expect(checkpoint).toEqual({code: 1, stdout: `${stale}\n\nRun \`tiers verify S-07\`, then \`tiers checkpoint S-07\` again.\n`, stderr: ''})
    const {reason} = await hook(folder, expect)
    const head = `HOLD: Cannot stop - verification stale.\n\n${stale}\n\nVERIFICATION STALE — Slice S-08: Refunds\n`
    expect(reason?.slice(0, head.length)).toBe(head)
    expect(reason).toContain(
      `\n\n${state}:5 calls S-07 complete; ${word}: its passing run is stale and no person’s approval\n${state}:6 calls S-08 complete; ${word}: its passing run is stale and no person’s approval\n\n`
    )
    const tail = `\nCriteria remaining:\n${forPerson}\n${refunds}`
    expect(reason?.slice(-tail.length)).toBe(tail)
    // Never “not run”, never “none found”.
    expect(reason).not.toContain('not run')
    expect(reason).not.toContain('none found')
  })

  it('open tasks alone hold under “tasks open”, not “cannot be checked”', async ({expect}) => {
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-garden-')))
    folders.push(folder)
    await fs.cp(path.join(root, 'packages', 'project', 'test', 'fixtures', 'speckit-garden'), folder, {recursive: true})
    const answer = await hook(folder, expect)
    const tasks = path.join(folder, 'specs', '002-watering-reminders', 'tasks.md')
    expect(answer.decision).toBe('block')
    expect(answer.reason).toMatch(/^HOLD: Cannot stop - tasks open\.\n/)
    expect(answer.reason).toContain(`\n${tasks}:4: T002 [US1] Schedule the morning check (open task of slice 002-watering-reminders)\n`)
    expect(answer.reason).toMatch(
      /\nFinish them \(or remove the ones no longer planned\), then run tiers verify --all to verify all acceptance criteria before completing\.$/
    )
    expect(answer.reason).not.toContain('cannot be checked')
  })
})
