/**
 * A spec-kit project through the cli (its `main`, in the test process): `specs/NNN-feature/` folders are
 * slices, user stories contracts (their acceptance scenarios the criteria,
 * their independent test the steps), open tasks hold the checkpoint, and
 * `tiers` finds `specs/` from any folder below the project, as git finds `.git`.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, git, root} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []
const fixtures = path.join(root, 'packages', 'project', 'test', 'fixtures')

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A committed copy of a spec-kit fixture (its real path), with an empty `src/deep` to work in. */
async function specKitProject(name: string): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `verification-tiers-${name}-`)))
  folders.push(folder)
  await fs.cp(path.join(fixtures, name), folder, {recursive: true})
  await fs.mkdir(path.join(folder, 'src', 'deep'), {recursive: true})
  await fs.writeFile(path.join(folder, 'src', 'deep', 'garden.ts'), 'export const beds = 3\n')
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'Garden')
  return folder
}

describe('tiers on a spec-kit project', () => {
  it('reads feature folders as slices, user stories as contracts, with their open tasks', async () => {
    const folder = await specKitProject('speckit-garden')
    const status = await runTiers(folder, ['status', '--json'])
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
    const slices = (JSON.parse(status.stdout) as {slices: Array<{slice: string; contracts: number; criteria: number; steps: number; openTasks: number}>}).slices
    expect(slices.map(({slice, contracts, criteria, steps, openTasks}) => [slice, contracts, criteria, steps, openTasks])).toEqual([
      ['001-plant-log', 2, 2, 1, 0],
      ['002-watering-reminders', 1, 3, 1, 2],
      ['003-harvest-notes', 1, 2, 1, 0]
    ])
    const text = await runTiers(folder, ['status'])
    expect(text.stdout).toContain('002-watering-reminders Watering Reminders: verify, 0/3 rejections, undecided, never verified, next: verify; 2 open tasks\n')

    const contracts = await runTiers(path.join(folder, 'src'), ['contracts', '--json'])
    const read = JSON.parse(contracts.stdout) as {
      summary: {contracts: number; criteria: number; steps: number; auto: number}
      problems: unknown[]
      contracts: Array<{label: string; line: number; tierInSlice: string; criteria: Array<{text: string; line: number}>}>
    }
    expect(read.summary).toMatchObject({contracts: 4, criteria: 7, steps: 3, auto: 1})
    expect(read.problems).toEqual([])
    expect(read.contracts.map((contract) => [contract.label, contract.line, contract.tierInSlice])).toEqual([
      ['User Story 1 - Record a planting', 8, 'verify'],
      ['User Story 2 — Export the log', 23, 'auto'],
      ['User Story 1 – Remind before a dry day', 5, 'verify'],
      ['用户故事 1 - 记录收获', 5, 'verify']
    ])
    // Scenarios separated by blank lines are one list; each keeps its own line.
    expect(read.contracts[2]!.criteria.map((criterion) => criterion.line)).toEqual([14, 16, 18])
    expect(read.contracts[3]!.criteria[1]!.text).toBe('假设 重量为负数，当 园丁保存，那么 表单拒绝保存。')
  })

  it('verifies, shows the checkpoint with the scenarios and the independent test, and takes an approval', async () => {
    const folder = await specKitProject('speckit-garden')
    const verify = await runTiers(folder, ['verify', '001-plant-log'])
    expect(verify.code).toBe(0)
    const checkpoint = await runTiers(folder, ['checkpoint', '001-plant-log'])
    expect(checkpoint.stderr).toBe('')
    expect(checkpoint.code).toBe(0)
    expect(checkpoint.stdout).toContain('Slice 001-plant-log: Plant Log')
    expect(checkpoint.stdout).toContain(
      "Given an empty log, When the gardener saves a planting of basil in bed 2, Then the list shows basil in bed 2 with today's date."
    )
    expect(checkpoint.stdout).toContain('Add one planting through the form and find it in the list with its bed and date.')
    // The auto story is not for a person.
    expect(checkpoint.stdout).not.toContain('the CSV file has a header')
    const respond = await runTiers(folder, ['respond', '001-plant-log', 'approved'])
    expect(respond.stdout).toContain('APPROVED — Slice 001-plant-log: Plant Log')
    expect(respond.code).toBe(0)
  })

  it('refuses the checkpoint and the approval of a slice with open tasks, naming each', async () => {
    const folder = await specKitProject('speckit-garden')
    expect((await runTiers(folder, ['verify', '002-watering-reminders'])).code).toBe(0)
    // Paths as the command shows them: relative to where it runs.
    const tasks = path.join('specs', '002-watering-reminders', 'tasks.md')
    const checkpoint = await runTiers(folder, ['checkpoint', '002-watering-reminders'])
    expect(checkpoint.code).toBe(1)
    expect(checkpoint.stdout).toBe(
      [
        'TASKS OPEN — Slice 002-watering-reminders: Watering Reminders',
        '',
        'A slice with open tasks is not ready for its checkpoint. Open in its tasks:',
        `  ${tasks}:4: T002 [US1] Schedule the morning check`,
        `  ${tasks}:6: Name the bed in the reminder`,
        '',
        'Finish them (or remove the ones no longer planned), then run `tiers verify 002-watering-reminders` and `tiers checkpoint 002-watering-reminders` again.',
        ''
      ].join('\n')
    )
    const respond = await runTiers(folder, ['respond', '002-watering-reminders', 'approved'])
    expect(respond.code).toBe(1)
    expect(respond.stderr).toContain(
      `Unexpected approval of slice 002-watering-reminders with 2 open tasks (${tasks}:4: T002 [US1] Schedule the morning check; ${tasks}:6: Name the bed in the reminder)`
    )
  })

  it('the stop hook finds specs/ from a folder below and names the open tasks', async () => {
    const folder = await specKitProject('speckit-garden')
    const cwd = path.join(folder, 'src', 'deep')
    const hook = await runTiers(cwd, ['stop-hook'], JSON.stringify({session_id: 'garden-1', cwd, hook_event_name: 'Stop'}))
    expect(hook.code).toBe(0)
    const answer = JSON.parse(hook.stdout) as {decision?: string; reason?: string}
    expect(answer.decision).toBe('block')
    expect(answer.reason).toContain(
      `${path.join(folder, 'specs', '002-watering-reminders', 'tasks.md')}:4: T002 [US1] Schedule the morning check (open task of slice 002-watering-reminders)`
    )
  })

  it('the stop hook judges a .greenlight beside specs/ and specs/ too: neither hides the other', async () => {
    const folder = await specKitProject('speckit-garden')
    await fs.mkdir(path.join(folder, '.greenlight'))
    await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '### C-01: Seed\n\n**Verification:** auto\n\n- ### C-02: Hidden seed\n')
    const hook = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 'garden-2', cwd: folder, hook_event_name: 'Stop'}))
    const answer = JSON.parse(hook.stdout) as {decision?: string; reason?: string}
    expect([hook.code, answer.decision]).toEqual([0, 'block'])
    expect(answer.reason).toContain('(open task of slice 002-watering-reminders)')
    expect(answer.reason).toContain(
      `${path.join(folder, '.greenlight', 'CONTRACTS.md')}:5: Unexpected contract heading \`### C-02: Hidden seed\` inside a list item`
    )
  })

  it('tiers init sets up the remark configuration, the Stop hook and a workflow that lints specs/', async () => {
    const folder = await specKitProject('speckit-garden')
    const init = await runTiers(folder, ['init', '--ci', 'github'])
    expect(init.code).toBe(0)
    expect({stderr: init.stderr, first: init.stdout.split('\n')[0]}).toEqual({
      stderr: '',
      first: 'note: found a spec-kit project in specs: tiers reads its files as they are'
    })
    expect(await fs.readFile(path.join(folder, '.github', 'workflows', 'verification-tiers.yml'), 'utf8')).toContain(
      '      - run: npx tiers lint --frail specs\n'
    )
    expect(await fs.readFile(path.join(folder, '.claude', 'settings.json'), 'utf8')).toContain('npx tiers stop-hook')
    expect(await fs.readFile(path.join(folder, '.remarkrc.json'), 'utf8')).toContain('remark-preset-lint-verification-tiers')
  })

  it('says what it saw and did not read: a folder without spec.md, a story without scenarios, a folder of another shape', async () => {
    const folder = await specKitProject('speckit-broken')
    const specs = path.join(folder, 'specs')
    const status = await runTiers(folder, ['status', '--dir', 'specs'])
    expect(status.stdout.split('\n').filter((line) => line.startsWith('problem: '))).toEqual([
      `problem: specs/001-no-spec: Unexpected feature folder without spec.md, expected \`001-no-spec/spec.md\` with user stories`,
      'problem: specs/002-no-scenarios/spec.md:5: Unexpected user story User Story 1 - Offer seeds without acceptance scenarios, expected **Acceptance Scenarios**: with numbered Given/When/Then items',
      'problem: specs/notes: Unexpected folder, expected a feature folder named `NNN-name` holding spec.md; tiers does not read it'
    ])
    const checkpoint = await runTiers(folder, ['checkpoint', '002-no-scenarios', '--dir', specs])
    expect(checkpoint.code).toBe(1)
    expect(checkpoint.stdout).toContain('VERIFICATION UNCHECKED — Slice 002-no-scenarios: Seed Swap')
  })
})
