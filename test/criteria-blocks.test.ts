/**
 * No criterion dropped in silence, through `tiers` (issue 38): under an
 * Acceptance Criteria label, a second list (another bullet, numbered) and the
 * list under a `#### Edge cases` sub-heading are criteria the checkpoint
 * shows a person; a table and a quote there are named by `tiers contracts`
 * as not read as items, and fail `tiers lint --frail`.
 *
 * Run `npx tsc -b` first: `tiers` is the built cli, run in this process.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const contracts = `## S-01: Checkout

### C-01: CartTotal

**Verification:** verify
**Acceptance Criteria:**
- The total adds up every line

* A coupon lowers the total

1. The tax is shown apart

#### Edge cases
- An empty cart totals 0

### C-02: Receipt

**Verification:** verify
**Acceptance Criteria:**
- The receipt names the shop

| Criterion | Check |
| --- | --- |
| The receipt shows the date | manual |

> The receipt fits on one page

**Note:** the printer is not ours.

**Steps:**
1. Pay for a cart
`

/** A project of these contracts whose test command passes, in a folder of its own. */
async function project(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-criteria-blocks-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight'))
  await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), '{"test": {"command": "true"}}\n')
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), contracts)
  return folder
}

const tiers = (folder: string, ...args: string[]) => runTiers(folder, args, '', {XDG_CACHE_HOME: path.join(folder, 'user-cache')})

describe.concurrent('blocks under an Acceptance Criteria label', () => {
  it('`tiers contracts` shows every list as criteria, and names the table and the quote as not read as items', async ({expect}) => {
    const run = await tiers(await project(), 'contracts')
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    expect(run.stdout).toBe(`C-01 CartTotal — .greenlight/CONTRACTS.md:3
  dialect: bold; slice: S-01; tier: verify (written verify)
  acceptance criteria (4):
    7: The total adds up every line
    9: A coupon lowers the total
    11: The tax is shown apart
    14: An empty cart totals 0

C-02 Receipt — .greenlight/CONTRACTS.md:16
  dialect: bold; slice: S-01; tier: verify (written verify)
  acceptance criteria (1):
    20: The receipt names the shop
  steps (1):
    31: Pay for a cart
  not read as items:
    22: table under \`Acceptance Criteria\`: Criterion | Check; The receipt shows the date | manual
    26: quote under \`Acceptance Criteria\`: The receipt fits on one page

2 contracts in 1 file: 2 verify, 0 auto
tiers as written: 2 verify, 0 auto, 0 none (verify by default)
verify contracts: 5 acceptance criteria, 1 step; 0 with nothing to check
slices: 1, from the contracts’ Slice fields
2 blocks under criteria or steps labels not read as items (see “not read as items” above)
`)
  })

  it('`tiers lint --frail` fails on the table and the quote, and on nothing else', async ({expect}) => {
    const run = await tiers(await project(), 'lint', '--frail', '--no-color')
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`.greenlight/CONTRACTS.md
22:1-24:40 warning Unexpected table under \`Acceptance Criteria\` in C-02 Receipt, expected a list of acceptance criteria contract-item-list remark-lint
26:1-26:31 warning Unexpected quote under \`Acceptance Criteria\` in C-02 Receipt, expected a list of acceptance criteria contract-item-list remark-lint

⚠ 2 warnings
`)
  })

  it('the checkpoint asks the person about every criterion of every list', async ({expect}) => {
    const folder = await project()
    const verify = await tiers(folder, 'verify', 'S-01')
    expect({code: verify.code, stderr: verify.stderr}).toEqual({code: 0, stderr: ''})
    const checkpoint = await tiers(folder, 'checkpoint', 'S-01')
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain(`Acceptance criteria:
  [ ] The total adds up every line
  [ ] A coupon lowers the total
  [ ] The tax is shown apart
  [ ] An empty cart totals 0
  [ ] The receipt names the shop
`)
  })
})
