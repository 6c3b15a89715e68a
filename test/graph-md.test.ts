/**
 * What `tiers` reads of a `GRAPH.md`: slice headings at any level with any
 * id (markup stripped, each slice once in any case), the contracts a
 * `Contracts:` line or list names (every known id in it, notes included; an
 * id of the project's shape that no contract has is a problem), a `Tier:`
 * with a human check or a retired one, a plain or bold `Verification:` tier,
 * and nothing inside code or HTML comments. Contract ids match whatever
 * leading zeros. Runs `tiers` (the cli's `main`) on a copy of
 * `test/fixtures/graph-md` (C-01 PlantStore and C-02 PlantSchema in slice
 * S-01, C-03 WateringReminder and C-04 ReminderSnooze in S-02; C-02 states
 * `verify`, C-04 `auto`).
 *
 * Run `npx tsc -b` first.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {fixtureCopy} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A copy of the fixture whose GRAPH.md is `graph`. */
async function project(graph: string): Promise<string> {
  const folder = await fixtureCopy(folders, 'graph-md')
  await fs.writeFile(path.join(folder, '.greenlight', 'GRAPH.md'), graph)
  return folder
}

const tiers = (cwd: string, ...args: string[]) => runTiers(cwd, args)

/** A one-line error of a broken GRAPH.md: exit 2, nothing on stdout. */
const broken = (message: string) => ({code: 2, stdout: '', stderr: `tiers: .greenlight/GRAPH.md:${message}\n`})

/** `tiers report` of a slice, as its lines. */
async function report(folder: string, slice: string): Promise<string> {
  const run = await tiers(folder, 'report', slice)
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return run.stdout
}

const storage = `TIER REPORT — Slice S-01: Storage

Effective tier: verify

Contracts:
  C-01 PlantStore: verify (default) — criteria: 0, steps: 0
  C-02 PlantSchema: verify — criteria: 1, steps: 0

Warnings:
  - C-01 PlantStore: verify tier with no acceptance criteria or steps
`

/** S-01 in `tiers status`: C-01 takes the default `verify` with nothing to check. */
const storageStatus =
  'S-01 Storage: verify, 0/3 rejections, undecided, never verified, next: verify; nothing to check in C-01 PlantStore (verify, no acceptance criteria or steps)'

const reminder = `TIER REPORT — Slice S-02: Watering Reminder

Effective tier: verify

Contracts:
  C-03 WateringReminder: verify (default) — criteria: 1, steps: 1
  C-04 ReminderSnooze: auto — criteria: 0, steps: 0
`

describe.concurrent('contract ids in GRAPH.md', () => {
  it('takes every contract id of a `Contracts:` line in the order written, a note’s too', async ({expect}) => {
    const folder = await project(`# Plant Log

## S-01: Storage

Contracts: C-01, C-02

## S-02: Watering Reminder

Contracts: C-03 C-04 (C-04 snoozes what the reminder says)
`)
    expect(await report(folder, 'S-02')).toBe(reminder)
    await fs.writeFile(
      path.join(folder, '.greenlight', 'GRAPH.md'),
      '## S-01: Storage\n\nContracts: C-02 (kept by C-01)\n\n## S-02: Watering Reminder\n\nContracts: C-03 C-04\n'
    )
    const contracts = JSON.parse((await tiers(folder, 'contracts', '--json')).stdout)
    expect(contracts.contracts.map((contract: {id: string; slices: string[]}) => [contract.id, contract.slices])).toEqual([
      ['C-01', ['S-01']],
      ['C-02', ['S-01']],
      ['C-03', ['S-02']],
      ['C-04', ['S-02']]
    ])
  })

  it('reads ids among words, and names an id of the project’s shape that no contract has, with its line', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C-01 through C-02\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-04 and C-07\n')
    expect(await report(folder, 'S-01')).toBe(storage)
    const status = await tiers(folder, 'status')
    expect(status.stdout).toContain(
      'S-02 Watering Reminder: GRAPH.md lists C-07, which no contract file defines\nproblem: .greenlight/GRAPH.md:7: Unexpected "C-07" in the contracts of slice S-02, expected the id or name of a contract in CONTRACTS.md or contracts/\n'
    )
    expect(await tiers(folder, 'report', 'S-02')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.md: slice S-02 lists C-07, which no contract file defines (CONTRACTS.md, contracts/*.md)\n'
    })
  })

  it('takes the ids of a list after `Contracts:`, with their notes', async ({expect}) => {
    const folder = await project(`## S-01: Storage

Contracts: C-01, C-02

## S-02: Watering Reminder

**Contracts:**

- \`C-03\` WateringReminder
  (reminds at nine)
- **C-04**: ReminderSnooze
  - holds the snooze times

Depends on: S-01
`)
    expect(await report(folder, 'S-02')).toBe(reminder)
    expect(await report(folder, 'S-01')).toBe(storage)
  })

  it('matches contract ids whatever their leading zeros, shows the contract’s own id and names a missing one as written', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C1, c-002\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-0004\n')
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(contracts, (await fs.readFile(contracts, 'utf8')).replace('### C-04: ReminderSnooze', '### C4. ReminderSnooze'))
    expect(await report(folder, 'S-01')).toBe(storage)
    expect(await report(folder, 'S-02')).toBe(reminder.replace('C-04 ReminderSnooze', 'C-4 ReminderSnooze'))
    await fs.writeFile(
      path.join(folder, '.greenlight', 'GRAPH.md'),
      '## S-01: Storage\n\nContracts: C-01, C-05, C-0002\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-04\n'
    )
    expect(await tiers(folder, 'report', 'S-01')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.md: slice S-01 lists C-05, which no contract file defines (CONTRACTS.md, contracts/*.md)\n'
    })
  })
})

describe.concurrent('slices under milestone headings', () => {
  const milestones = `# Plant Log graph

## M1. Keeping plants

The store first, then the reminders.

### p1a. storage
- Contracts: C1 and C2 (the store and its schema).
- Depends on: nothing.
- Verification: a plant added survives a restart.
- Tier: auto.

### p1b. reminders
- Contracts: C3, with snoozing from C4.
- Depends on: p1a.
- Verification: a dry plant gets one reminder a day.
- Tier: verify. Human check: leave a plant dry for a day and see the
  reminder at nine.

## M2. Later

### p2a. sharing
- Contracts: none yet; the design notes cover it.
- Depends on: p1b.
- Tier: was verify; the check is retired because sharing moved to the web app.
`

  it('reads each slice’s tier, human check and retired check, and shows them in status', async ({expect}) => {
    const folder = await project(milestones)
    const status = await tiers(folder, 'status', '--json')
    expect(status.stderr).toBe('')
    const slices = JSON.parse(status.stdout).slices
    expect(
      slices.map((slice: {slice: string; tier: string; contracts: number; humanCheck: string | null; retired: string | null}) => [
        slice.slice,
        slice.tier,
        slice.contracts,
        slice.humanCheck,
        slice.retired
      ])
    ).toEqual([
      ['p1a', 'verify', 2, null, null],
      ['p1b', 'verify', 2, 'leave a plant dry for a day and see the reminder at nine.', null],
      ['p2a', 'auto', 0, null, 'was verify; the check is retired because sharing moved to the web app.']
    ])
    expect(JSON.parse(status.stdout).problems).toEqual([])
    expect((await tiers(folder, 'checkpoint', 'p2a')).stdout).toBe(
      'Slice p2a: sharing is auto: its human check is retired (was verify; the check is retired because sharing moved to the web app.), so no checkpoint is needed.\n'
    )
  })

  it('asks the slice’s own human check in its checkpoint, beside its contracts’ criteria', async ({expect}) => {
    const folder = await project(milestones)
    expect((await tiers(folder, 'verify', 'p1b')).code).toBe(0)
    const checkpoint = await tiers(folder, 'checkpoint', 'p1b')
    expect(checkpoint.stderr).toBe('')
    expect(checkpoint.stdout.split('\n').slice(0, 16)).toEqual([
      'ALL TESTS PASSING — Slice p1b: reminders',
      '',
      'What the tests prove: a dry plant gets one reminder a day.',
      '',
      'Please verify the output matches your intent.',
      '',
      'Check by hand:',
      '  [ ] leave a plant dry for a day and see the reminder at nine.',
      '',
      'Acceptance criteria:',
      '  [ ] A plant not watered for its interval shows a reminder at 9:00',
      '',
      'Steps to verify:',
      '  1. Add a plant with `plants add fern --every 1d` and wait a day',
      '',
      'Does this match what you intended?'
    ])
  })
})

describe.concurrent('what GRAPH.md lines count', () => {
  it('skips indented code, HTML comments and fenced code, a fence closing only on its own characters alone', async ({expect}) => {
    const folder = await project(`# Plant Log

<!-- ## S-09: Drafted
Contracts: C-09 -->

## S-01: Storage

Contracts: C-01, C-02 <!-- C-03 too? -->
<!-- Contracts: C-04 -->

Written as:

    Contracts: C-04
    Verification: auto

<!--
## S-08: Later
Contracts: C-08
-->

## S-02: Watering Reminder

Contracts: C-03, C-04

\`\`\`
A slice in a GRAPH.md:
\`\`\`md
## S-07: Example
Contracts: C-07
\`\`\`
`)
    const status = await tiers(folder, 'status')
    expect(status).toEqual({
      code: 0,
      stdout: `${storageStatus}\nS-02 Watering Reminder: verify, 0/3 rejections, undecided, never verified, next: verify\n`,
      stderr: ''
    })
    expect(await report(folder, 'S-01')).toBe(storage)
  })

  it('reads slice headings with link, emphasis or code markup', async ({expect}) => {
    const folder = await project(`## [S-01: Storage](slices/S-01.md)

Contracts: C-01, C-02

## **S-02: Watering Reminder**

Contracts: C-03

## \`S-03\`: Snooze

Contracts: C-04
`)
    expect(await tiers(folder, 'status')).toEqual({
      code: 0,
      stdout: `${storageStatus}
S-02 Watering Reminder: verify, 0/3 rejections, undecided, never verified, next: verify
S-03 Snooze: auto, 0/3 rejections, undecided, never verified, next: verify
`,
      // C-04's own Slice field says S-02: true, and said.
      stderr:
        'tiers: warning: .greenlight/CONTRACTS.md:29: C-04 ReminderSnooze is in slice S-02, but GRAPH.md lists it under S-03 only; it is checked with S-03: list it under S-02 in GRAPH.md, or correct its slice\n'
    })
  })

  it('refuses a slice heading twice (any case), naming both', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C-01, C-02\n\n## s-01: Watering Reminder\n\nContracts: C-03, C-04\n')
    expect(await tiers(folder, 'status')).toEqual(
      broken('5: Unexpected second slice "s-01", the same id as "S-01" at line 1 in any case, expected slice ids that differ in more than case')
    )
  })

  it('takes the slice tier from a plain or bold `Verification:` line that starts with a tier, and other words as what the tests prove', async ({expect}) => {
    const folder = await project(`## S-01: Storage

Contracts: C-01, C-02

- Verification: the user sees the plant list after a restart

## S-02: Watering Reminder

**Verification:** auto
Contracts: C-03, C-04
`)
    expect(await report(folder, 'S-01')).toBe(storage)
    expect(await tiers(folder, 'status')).toEqual({
      code: 0,
      stdout: `${storageStatus}\nS-02 Watering Reminder: auto, 0/3 rejections, undecided, never verified, next: verify\n`,
      stderr: ''
    })
    // Other words after `Verification:` say what the tests prove; a `Tier:` must be a tier.
    await fs.writeFile(
      path.join(folder, '.greenlight', 'GRAPH.md'),
      '## S-01: Storage\n\n**Verification:** the user sees the list\n**Tier:** the user sees the list\nContracts: C-01\n'
    )
    expect(await tiers(folder, 'status')).toEqual(
      broken('4: Unexpected slice tier `the user sees the list` for S-01, expected `auto` or `verify`, then any words')
    )
  })
})
