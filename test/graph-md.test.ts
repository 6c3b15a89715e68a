/**
 * What `tiers` reads of a `GRAPH.md`: slice headings (markup stripped, each
 * slice once), the contract ids a `Contracts:` line or list gives (notes
 * left out, anything else refused), a plain or bold `Verification:` line,
 * and nothing inside code or HTML comments. Contract ids match whatever
 * leading zeros. Runs the real `tiers` bin on a copy of
 * `test/fixtures/graph-md` (C-01 PlantStore and C-02 PlantSchema in slice
 * S-01, C-03 WateringReminder and C-04 ReminderSnooze in S-02; C-02 states
 * `verify`, C-04 `auto`).
 *
 * Run `npx tsc -b` first.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {fixtureCopy, runTiers} from './helpers/tiers-bin.js'

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
const storageStatus = 'S-01 Storage: verify, 0/3 rejections, undecided, next: checkpoint; nothing to check in C-01 PlantStore (verify, no acceptance criteria or steps)'

const reminder = `TIER REPORT — Slice S-02: Watering Reminder

Effective tier: verify

Contracts:
  C-03 WateringReminder: verify (default) — criteria: 1, steps: 1
  C-04 ReminderSnooze: auto — criteria: 0, steps: 0
`

describe.concurrent('contract ids in GRAPH.md', () => {
  it('takes only the listed ids of a `Contracts:` line: a parenthesised note adds none', async ({expect}) => {
    const folder = await project(`# Plant Log

## S-01: Storage

Contracts: C-01, C-02

## S-02: Watering Reminder

Contracts: C-03 C-04 (C-04 snoozes what C-01 stores)
`)
    expect(await report(folder, 'S-02')).toBe(reminder)
  })

  it('refuses a word among the ids, naming file, line and slice, instead of losing the ids it stands for', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C-01 through C-02\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-04\n')
    expect(await tiers(folder, 'status')).toEqual(broken('3: Unexpected `through` in the contracts of S-01, expected contract ids separated by commas'))
    await fs.writeFile(path.join(folder, '.greenlight', 'GRAPH.md'), '## S-01: Storage\n\nContracts: C-01, C-02 and C-03\n')
    expect(await tiers(folder, 'status')).toEqual(broken('3: Unexpected `and` in the contracts of S-01, expected contract ids separated by commas'))
  })

  it('takes an item’s first token as the id in a list after `Contracts:`: the rest of the item is a note', async ({expect}) => {
    const folder = await project(`## S-01: Storage

Contracts: C-01, C-02

## S-02: Watering Reminder

**Contracts:**

- \`C-03\` WateringReminder
  (reminds about the plants C-01 keeps)
- **C-04**: ReminderSnooze
  - C-02 holds the snooze times

Depends on: S-01
`)
    expect(await report(folder, 'S-02')).toBe(reminder)
    expect(await report(folder, 'S-01')).toBe(storage)
  })

  it('refuses an item of the contracts list that does not start with a contract id', async ({expect}) => {
    const folder = await project('## S-02: Watering Reminder\n\nContracts:\n- C-03 WateringReminder\n- see the design notes\n- C-04 ReminderSnooze\n')
    expect(await tiers(folder, 'status')).toEqual(
      broken('5: Unexpected `see` in the contracts of S-02, expected a contract id at the start of each list item')
    )
  })

  it('matches contract ids whatever their leading zeros, shows the contract’s own id and names a missing one as written', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C1, c-002\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-0004\n')
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(contracts, (await fs.readFile(contracts, 'utf8')).replace('### C-04: ReminderSnooze', '### C4. ReminderSnooze'))
    expect(await report(folder, 'S-01')).toBe(storage)
    expect(await report(folder, 'S-02')).toBe(reminder.replace('C-04 ReminderSnooze', 'C-4 ReminderSnooze'))
    await fs.writeFile(path.join(folder, '.greenlight', 'GRAPH.md'), '## S-01: Storage\n\nContracts: C-01, C-05, C-0002\n\n## S-02: Watering Reminder\n\nContracts: C-03, C-04\n')
    expect(await tiers(folder, 'report', 'S-01')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.md: slice S-01 lists C-05, which no contract file defines (CONTRACTS.md, contracts/*.md)\n'
    })
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
      stdout: `${storageStatus}\nS-02 Watering Reminder: verify, 0/3 rejections, undecided, next: checkpoint\n`,
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
S-02 Watering Reminder: verify, 0/3 rejections, undecided, next: checkpoint
S-03 Snooze: auto, 0/3 rejections, undecided, next: nothing
`,
      stderr: ''
    })
  })

  it('refuses a slice heading twice (any case), naming the second', async ({expect}) => {
    const folder = await project('## S-01: Storage\n\nContracts: C-01, C-02\n\n## s-01: Watering Reminder\n\nContracts: C-03, C-04\n')
    expect(await tiers(folder, 'status')).toEqual(
      broken('5: Unexpected second heading for slice S-01 (the first is at line 1), expected one heading per slice')
    )
  })

  it('takes the slice tier from a plain or bold `Verification:` line, not from a list item', async ({expect}) => {
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
      stdout: `${storageStatus}\nS-02 Watering Reminder: auto, 0/3 rejections, undecided, next: nothing\n`,
      stderr: ''
    })
    await fs.writeFile(path.join(folder, '.greenlight', 'GRAPH.md'), '## S-01: Storage\n\n**Verification:** the user sees the list\nContracts: C-01\n')
    expect(await tiers(folder, 'status')).toEqual(broken('3: Unexpected slice tier `the user sees the list` for S-01, expected `auto` or `verify`'))
  })
})
