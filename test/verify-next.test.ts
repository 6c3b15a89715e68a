/**
 * What `tiers verify` says comes next after a passing run, through the cli's
 * `main`: the slice’s checkpoint only while one waits for it. An auto slice, and
 * a verify slice approved for its contracts as they are, are done; an
 * approval for contracts that changed since leaves the checkpoint to show
 * again. `verify --all` says it of each slice.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, git} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers, runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const contracts = `## S-01: Receipts

### C-01: Receipt

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- The receipt is printed -- verified by: \`true\`
- The receipt reads well

## S-02: Totals

### C-02: Total

**Slice:** S-02
**Verification:** auto
**Acceptance Criteria:**
- The total adds up -- verified by: \`true\`
`

/** A committed project: S-01 verify (one criterion for a person), S-02 auto, a passing test command. */
async function project(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-verify-next-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight'))
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), contracts)
  await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), '{"test": {"command": "true"}}\n')
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'Till')
  return folder
}

/** The line after each slice’s totals in a report: what comes next for it, by slice. */
function nextLines(stdout: string): Record<string, string> {
  const lines: Record<string, string> = {}
  for (const match of stdout.matchAll(/^Verification Results — Slice (\S+): [\s\S]*?\nSummary: [^\n]*\n\n([^\n]*)/gm)) lines[match[1]!] = match[2]!
  return lines
}

const autoDone = 'Done: slice S-02 is auto (every contract is auto): no checkpoint waits for it.'

describe.concurrent('what tiers verify says comes next', () => {
  it('an auto slice: done, no checkpoint; a verify slice: its checkpoint', async ({expect}) => {
    const folder = await project()
    const auto = await runTiers(folder, ['verify', 'S-02'])
    expect({code: auto.code, stderr: auto.stderr, next: nextLines(auto.stdout)}).toEqual({code: 0, stderr: '', next: {'S-02': autoDone}})
    expect(auto.stdout).not.toContain('tiers checkpoint')
    const verify = await runTiers(folder, ['verify', 'S-01'])
    expect({code: verify.code, next: nextLines(verify.stdout)}).toEqual({code: 0, next: {'S-01': 'Next: tiers checkpoint S-01'}})
  })

  it('verify --all points at no approved slice; an approval for contracts that changed since leaves the checkpoint again', async ({expect}) => {
    const folder = await project()
    expect((await runTiers(folder, ['verify', '--all'])).code).toBe(0)
    // The person approves S-01 at their terminal.
    const approved = await runTiersHere(folder, ['respond', 'S-01', 'yes'])
    expect({code: approved.code, head: approved.stdout.split('\n')[0]}).toEqual({code: 0, head: 'APPROVED — Slice S-01: Receipts'})
    const at = (JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'S-01.json'), 'utf8')) as {decision: {at: string}}).decision.at

    const all = await runTiers(folder, ['verify', '--all'])
    expect({code: all.code, next: nextLines(all.stdout)}).toEqual({
      code: 0,
      next: {'S-01': `Done: slice S-01 was approved ${at} for its contracts as they are: no checkpoint waits for it.`, 'S-02': autoDone}
    })
    expect(all.stdout).not.toContain('tiers checkpoint')
    // `tiers status` says the same: both done, none in progress.
    expect((await runTiers(folder, ['status'])).stdout).toBe(
      `S-01 Receipts: verify, 0/3 rejections, approved ${at}, run passes, next: done\nS-02 Totals: auto, 0/3 rejections, undecided, run passes, next: done\n`
    )

    const file = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(file, contracts.replace('- The receipt reads well', '- The receipt reads well on a small roll'))
    const changed = await runTiers(folder, ['verify', '--all'])
    expect({code: changed.code, next: nextLines(changed.stdout)}).toEqual({code: 0, next: {'S-01': 'Next: tiers checkpoint S-01', 'S-02': autoDone}})
  })

  it('a plain rejection is recorded as feedback, with no advice about approving', async ({expect}) => {
    const folder = await project()
    expect((await runTiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const rejected = await runTiersHere(folder, ['respond', 'S-01', 'the receipt is too wide'])
    expect(rejected.code).toBe(0)
    expect(rejected.stdout).toMatch(/^Recorded as feedback: "the receipt is too wide"\n\n/)
    expect(rejected.stdout).not.toContain('approval')
  })
})
