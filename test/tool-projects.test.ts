/**
 * OpenSpec, Kiro, GSD and BMAD projects through the cli (its `main`, in the test process), as on Greenlight: the
 * Stop hook holds until every slice is verified (and names open tasks), the
 * checkpoint lists the criteria for a person, an approval is taken.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {git, root} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers, runTiersPiped} from './helpers/tiers-here.js'

const folders: string[] = []
const fixtures = path.join(root, 'packages', 'project', 'test', 'fixtures')

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/**
 * A committed project holding a copy of `fixture` as its tool folder
 * (`openspec`, `.kiro`), a passing test command in its `tiers.json` (in
 * `settingsIn`, the tool folder unless given), and an empty `src/` to work
 * in; `keep` filters what of the fixture is copied.
 */
async function toolProject(fixture: string, folder: string, keep: (file: string) => boolean = () => true, settingsIn: string = folder): Promise<string> {
  const project = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `verification-tiers-${fixture}-`)))
  folders.push(project)
  await fs.cp(path.join(fixtures, fixture), path.join(project, folder), {recursive: true, filter: keep})
  await fs.writeFile(path.join(project, settingsIn, 'tiers.json'), '{"test": {"command": "true"}}\n')
  await fs.mkdir(path.join(project, 'src'))
  await fs.writeFile(path.join(project, 'src', 'index.ts'), 'export {}\n')
  await git(project, 'init', '-q')
  await git(project, 'add', '-A')
  await git(project, 'commit', '-q', '-m', 'Project')
  return project
}

/** The Stop hook's answer, asked from `src/` as a coding agent would. */
async function stopHook(project: string): Promise<{decision?: string; reason?: string; systemMessage?: string}> {
  const cwd = path.join(project, 'src')
  const run = await runTiers(cwd, ['stop-hook'], JSON.stringify({session_id: 'agent-1', cwd}))
  return JSON.parse(run.stdout) as {decision?: string; reason?: string; systemMessage?: string}
}

describe('tiers on an OpenSpec project', () => {
  it('holds the agent on open tasks and unverified changes, then checks a change with its scenarios and takes its approval', async ({expect}) => {
    const project = await toolProject('openspec-lending', 'openspec')
    const tasks = path.join(project, 'openspec', 'changes', 'add-due-reminders', 'tasks.md')
    const held = await stopHook(project)
    expect(held.decision).toBe('block')
    expect(held.reason).toContain(`${tasks}:4: 1.2 Send a reminder two days before the due date (open task of slice add-due-reminders)`)
    expect(held.reason).toContain('(open task of slice add-due-reminders)')

    // Every task done: the change is ready for its run and checkpoint. A checked task closes that task, never the slice’s run.
    await fs.writeFile(tasks, (await fs.readFile(tasks, 'utf8')).replaceAll('- [ ]', '- [x]'))
    const ticked = (await stopHook(project)).reason
    expect(ticked).toContain('\nVERIFICATION MISSING — Slice tidy-shelf-labels: ')
    expect(ticked).toContain('\nVERIFICATION MISSING — Slice add-due-reminders: ')
    expect(ticked).not.toContain('open task')
    expect((await runTiers(project, ['verify', '--all'])).code).toBe(0)
    const checkpoint = await runTiers(project, ['checkpoint', 'add-due-reminders'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain('ALL TESTS PASSING — Slice add-due-reminders: Remind members before a loan is due\n')
    expect(checkpoint.stdout).toContain(
      '  [ ] Loan due in two days: GIVEN a member holds a sander due on Friday; WHEN the nightly job runs on Wednesday; THEN the member receives one reminder, naming the sander, giving the due date; AND the loan records that a reminder went out\n'
    )
    const respond = await runTiers(project, ['respond', 'add-due-reminders', 'approved'])
    expect(respond.code).toBe(0)
    expect(respond.stdout).toContain('APPROVED — Slice add-due-reminders: Remind members before a loan is due')
    expect(await stopHook(project)).toEqual({})
  })
})

describe('tiers on a Kiro project', () => {
  it('checks a feature with its acceptance criteria in any language, and lets the agent stop once it is verified', async ({expect}) => {
    const project = await toolProject('kiro-garden', '.kiro', (file) => !/(README\.md|empty-idea|garden-watering|notes-draft)$/.test(file))
    expect((await stopHook(project)).reason).toContain('\nVERIFICATION MISSING — Slice recipe-sharing: ')
    expect((await runTiers(project, ['verify', 'recipe-sharing'])).code).toBe(0)
    const checkpoint = await runTiers(project, ['checkpoint', 'recipe-sharing'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain('  [ ] 当用户点击分享时，系统应当生成一个链接\n')
    expect(checkpoint.stdout).toContain('  [ ] ユーザーが材料を入力したとき、システムは一致するレシピを表示しなければならない\n')
    expect((await runTiers(project, ['respond', 'recipe-sharing', 'approved'])).code).toBe(0)
    expect(await stopHook(project)).toEqual({})
  })

  it('names a feature folder not in Kiro’s format, and holds the agent until it is resolved', async ({expect}) => {
    const project = await toolProject('kiro-garden', '.kiro', (file) => !/(README\.md|garden-watering|notes-draft)$/.test(file))
    const contracts = await runTiers(project, ['contracts'])
    expect(contracts.stdout).toContain(
      '  .kiro/specs/empty-idea: Unexpected feature folder without requirements.md, expected `requirements.md` with `### Requirement 1` headings, each with its `#### Acceptance Criteria` list (or `bugfix.md` for a bugfix spec); the folder is not read\n'
    )
    expect((await runTiers(project, ['verify', '--all'])).code).toBe(1)
    const held = await stopHook(project)
    expect(held.decision).toBe('block')
    expect(held.reason).toContain(`${path.join(project, '.kiro', 'specs', 'empty-idea')}: Unexpected feature folder without requirements.md`)
  })
})

describe('tiers on a GSD project', () => {
  it('holds a phase whose human checks have no person’s answer, whatever its UAT file and roadmap say, until a person approves it', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    const phase = path.join(project, '.planning', 'phases', '01-seat-map')
    // A plan without its summary was not executed: the phase is not ready for its checkpoint.
    const status = await runTiers(project, ['status', '01-seat-map'])
    const record = 'GSD’s UAT record (01-HUMAN-UAT.md, the agent’s transcript, not your answer)'
    expect(status.stdout).toBe(
      `01-seat-map Phase 1: Seat Map: verify, 0/3 rejections, undecided, never verified, next: verify; 1 open task; ${record}: 2 pending (status partial)\n`
    )
    expect((await stopHook(project)).reason).toContain(
      `${path.join(phase, '01-02-PLAN.md')}:1: Plan 01-02 has no 01-02-SUMMARY.md: not executed (open task of slice 01-seat-map)`
    )

    await fs.writeFile(path.join(phase, '01-02-SUMMARY.md'), '# Plan 01-02 Summary\n')
    await fs.writeFile(path.join(project, '.planning', 'phases', '02.1-late-return-fix', '02.1-01-SUMMARY.md'), '# Plan 02.1-01 Summary\n')
    // The UAT file says every check passed, as the agent writes a chat reply down: no person answered the gate.
    const uat = path.join(phase, '01-HUMAN-UAT.md')
    await fs.writeFile(uat, (await fs.readFile(uat, 'utf8')).replaceAll('result: [pending]', 'result: pass').replace('status: partial', 'status: complete'))
    await git(project, 'add', '-A')
    await git(project, 'commit', '-q', '-m', 'Plans executed')
    expect((await stopHook(project)).reason).toContain('\nVERIFICATION MISSING — Slice 01-seat-map: ')
    expect((await runTiers(project, ['verify', '--all'])).code).toBe(0)
    // Shown where a person looks, as the workflow's record: the slice still waits for the person's own answer.
    const passed = await runTiers(project, ['status', '01-seat-map', '--json'])
    expect(JSON.parse(passed.stdout).slices[0]).toMatchObject({
      next: 'checkpoint',
      decision: null,
      records: [{file: path.join('.planning', 'phases', '01-seat-map', '01-HUMAN-UAT.md'), line: 2, text: `${record}: 2 pass (status complete)`}]
    })
    expect((await runTiers(project, ['status', '01-seat-map'])).stdout).toBe(
      `01-seat-map Phase 1: Seat Map: verify, 0/3 rejections, undecided, run passes, next: checkpoint; ${record}: 2 pass (status complete)\n`
    )
    const checkpoint = await runTiers(project, ['checkpoint', '01-seat-map'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain(
      `ALL TESTS PASSING — Slice 01-seat-map: Phase 1: Seat Map\n\n${record}: 2 pass (status complete)\n\nPlease verify the output matches your intent.\n`
    )
    expect(JSON.parse((await runTiers(project, ['checkpoint', '01-seat-map', '--json'])).stdout).records).toEqual(JSON.parse(passed.stdout).slices[0].records)
    expect(checkpoint.stdout).toContain('  [ ] A free seat and a taken seat look different at a glance, even for a reader who cannot tell red from green\n')
    expect(checkpoint.stdout).toContain(
      'Steps to verify:\n  1. Open the map on two screens and take a seat on one — expected: The other screen shows the seat as taken within a minute\n  2. Look at the map with a colour-blindness simulator turned on — expected: Free and taken seats are still told apart by their pattern\n  3. Take a seat on a phone while the map is open on a laptop — expected: The laptop shows the seat as taken within a minute\n'
    )
    // The agent may stop to hand the phase to a person; the hook says it waits for their answer.
    expect(await stopHook(project)).toEqual({
      systemMessage:
        'All automated criteria pass. 3 slices wait for a person’s answer at their checkpoints, 15 criteria to check (tiers checkpoint <slice> shows a slice’s): 01-seat-map (Phase 1: Seat Map), 02-booking (Phase 2: Booking), 02.1-late-return-fix (Phase 2.1: Late Return Fix (INSERTED))'
    })
    const ci = await runTiersPiped(project, ['ci'])
    expect(ci.code).toBe(1)
    expect(ci.stdout).toContain(
      `  01-seat-map Phase 1: Seat Map: verify, never approved (${path.join(project, '.planning', 'ROADMAP.md')}:12, ${path.join(phase, '01-01-PLAN.md')}:9, ${path.join(phase, '01-02-PLAN.md')}:9, ${path.join(phase, '01-VERIFICATION.md')}:6)\n`
    )
    expect((await runTiers(project, ['respond', '01-seat-map', 'approved'])).stdout).toContain('APPROVED — Slice 01-seat-map: Phase 1: Seat Map')
    const after = await runTiersPiped(project, ['ci'])
    expect(after.stdout).toContain('MERGE HELD — 2 things wait for a person or a fix:\n  02-booking Phase 2: Booking: verify, never approved')
    expect(after.stdout).toContain('Approved:\n  01-seat-map Phase 1: Seat Map: approved by Tiers Test <tiers@example.com>, at a terminal, ')
  })

  it('holds the gate on a verification marked passed while it lists a human check', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    const verification = path.join(project, '.planning', 'phases', '02-booking', '02-VERIFICATION.md')
    await fs.writeFile(
      verification,
      '---\nphase: 02-booking\nstatus: passed\nhuman_verification:\n  - test: "Book a seat on a phone"\n    expected: "The seat shows as yours"\n---\n'
    )
    const problem = `.planning/phases/02-booking/02-VERIFICATION.md:3: Unexpected \`status: passed\` with 1 human check listed in human_verification, expected \`status: human_needed\`: a phase passes only when no check is left to a person`
    expect((await runTiers(project, ['status'])).stdout).toContain(`problem: ${problem}\n`)
    expect((await stopHook(project)).reason).toContain(`${project}/${problem}`)
    const ci = await runTiersPiped(project, ['ci'])
    expect([ci.code, ci.stdout]).toEqual([1, expect.stringContaining(problem)])
  })
})

describe('tiers on an auto slice with open tasks', () => {
  it('holds the agent on the open tasks of an auto slice its passing run made done', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    await fs.writeFile(path.join(project, '.planning', 'tiers.json'), '{"test": {"command": "true"}, "verification": {"default": "auto"}}\n')
    expect((await runTiers(project, ['verify', '--all'])).code).toBe(0)
    expect((await runTiers(project, ['status', '02.1-late-return-fix'])).stdout).toContain(': auto, ')
    const held = await stopHook(project)
    expect([held.decision, held.reason]).toEqual([
      'block',
      expect.stringContaining(
        `${path.join(project, '.planning', 'phases', '02.1-late-return-fix', '02.1-01-PLAN.md')}:1: Plan 02.1-01 has no 02.1-01-SUMMARY.md: not executed (open task of slice 02.1-late-return-fix)`
      )
    ])
    // Its tasks done, the auto slice is done: the agent may stop.
    await fs.writeFile(path.join(project, '.planning', 'phases', '02.1-late-return-fix', '02.1-01-SUMMARY.md'), '# Summary\n')
    expect((await runTiers(project, ['verify', '--all'])).code).toBe(0)
    expect((await stopHook(project)).reason ?? '').not.toContain('02.1-late-return-fix')
  })
})

describe('tiers ci --base on a tool project', () => {
  it('holds a GSD phase planned before the branch and executed on it; the branch did its work', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    await git(project, 'branch', '-M', 'main')
    await git(project, 'checkout', '-q', '-b', 'gsd/phase-02')
    // The plans were committed on main; the branch writes what executing them writes.
    await fs.writeFile(path.join(project, '.planning', 'phases', '02-booking', '02-01-SUMMARY.md'), '# Plan 02-01 Summary\n')
    await git(project, 'add', '-A')
    await git(project, 'commit', '-q', '-m', 'Execute phase 2')
    const ci = await runTiersPiped(project, ['ci', '--base', 'main'])
    expect([ci.code, ci.stdout]).toEqual([1, expect.stringContaining('  02-booking Phase 2: Booking: verify, never approved (')])
    expect(ci.stdout).not.toContain('  01-seat-map')
  })

  it('holds GSD phases the branch archived with their milestone, never approved, as they last were', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    await git(project, 'branch', '-M', 'main')
    await git(project, 'checkout', '-q', '-b', 'complete-milestone')
    await fs.mkdir(path.join(project, '.planning', 'milestones'))
    await git(project, 'mv', '.planning/phases', '.planning/milestones/v1.0-phases')
    await git(project, 'commit', '-q', '-m', 'Complete milestone v1.0')
    const ci = await runTiersPiped(project, ['ci', '--base', 'main', '--json'])
    const holds = (JSON.parse(ci.stdout) as {holds: Array<{slice: string; line: string}>}).holds
    expect([ci.code, holds.map(({slice}) => slice)]).toEqual([1, ['01-seat-map', '02-booking', '02.1-late-return-fix']])
    const places = [
      '.planning/ROADMAP.md:12',
      ...['01-01-PLAN.md:9', '01-02-PLAN.md:9', '01-VERIFICATION.md:6'].map((file) => `.planning/phases/01-seat-map/${file}`)
    ]
    expect(holds[0]!.line).toBe(
      `01-seat-map Phase 1: Seat Map: verify, gone since main (archived, moved or deleted), not approved by a person as it last was, at main (${places.join(', ')})`
    )
  })

  it('names a BMAD v4 default lowered to auto on the branch, its stories being outside `.bmad-core`', async ({expect}) => {
    const project = await toolProject('bmad-v4-bakery', '.', () => true, '.bmad-core')
    await git(project, 'branch', '-M', 'main')
    await git(project, 'checkout', '-q', '-b', 'lower')
    await fs.writeFile(path.join(project, '.bmad-core', 'tiers.json'), '{"test": {"command": "true"}, "verification": {"default": "auto"}}\n')
    await git(project, 'commit', '-q', '-am', 'Lower the default')
    const ci = await runTiersPiped(project, ['ci', '--base', 'main'])
    expect([ci.code, ci.stdout]).toEqual([1, expect.stringContaining('changed since main, where it was verify')])
  })
})

describe('tiers on a tool folder whose units vanished', () => {
  it('holds while the gate keeps the state of slices no unit is left for: phases/ renamed', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    expect((await runTiers(project, ['verify', '01-seat-map'])).code).toBe(0)
    // A person's feedback: the gate now keeps the phase's state.
    expect((await runTiers(project, ['respond', '01-seat-map', 'The legend is missing'])).code).toBe(0)
    await fs.rename(path.join(project, '.planning', 'phases'), path.join(project, '.planning', 'phases-old'))
    const problem = `.planning: Unexpected gsd folder without a slice while the gate keeps the state of 1 (01-seat-map), expected their units where gsd writes them: moved, deleted or pointed away from, they are not done`
    expect((await runTiers(project, ['status'])).stdout).toContain(`problem: ${problem}\n`)
    expect((await stopHook(project)).decision).toBe('block')
    const ci = await runTiersPiped(project, ['ci'])
    expect([ci.code, ci.stdout]).toEqual([1, expect.stringContaining('Unexpected gsd folder without a slice')])
  })

  it('takes phases GSD archived with their milestone for gone, not vanished', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning')
    expect((await runTiers(project, ['verify', '01-seat-map'])).code).toBe(0)
    expect((await runTiers(project, ['respond', '01-seat-map', 'The legend is missing'])).code).toBe(0)
    await fs.mkdir(path.join(project, '.planning', 'milestones'))
    await fs.rename(path.join(project, '.planning', 'phases'), path.join(project, '.planning', 'milestones', 'v1.0-phases'))
    const status = await runTiers(project, ['status'])
    expect([status.code, status.stdout]).toEqual([0, expect.not.stringContaining('Unexpected gsd folder without a slice')])
    expect(status.stdout).toContain('which no slice has')
  })
})

describe('tiers on a GSD project whose phases are all archived', () => {
  it('is GSD’s, holding no slice: status says so, the hook and ci pass', async ({expect}) => {
    const project = await toolProject('gsd-reading-room', '.planning', (file) => !file.includes(`${path.sep}phases`) && !file.endsWith('ROADMAP.md'))
    const archived = path.join(project, '.planning', 'milestones', 'v1.0-phases', '01-seat-map')
    await fs.mkdir(archived, {recursive: true})
    await fs.writeFile(path.join(archived, '01-01-PLAN.md'), '---\nphase: 01-seat-map\nmust_haves:\n  truths:\n    - "The map shows every seat"\n---\n')
    await fs.writeFile(path.join(archived, '01-01-SUMMARY.md'), '# Plan 01-01 Summary\n')
    await git(project, 'add', '-A')
    await git(project, 'commit', '-q', '-m', 'Archive the milestone')
    expect(await runTiers(project, ['status'])).toEqual({
      code: 0,
      stdout: 'note: .planning holds no slice: nothing waits for a check or a person\n',
      stderr: ''
    })
    expect((await stopHook(project)).decision).toBeUndefined()
    expect((await runTiersPiped(project, ['ci'])).code).toBe(0)
  })
})

describe('tiers on a BMAD project', () => {
  it('holds a story whose status says done while a review finding is open, and takes a person’s approval of a story in review', async ({expect}) => {
    const project = await toolProject('bmad-bike-shop', '_bmad-output')
    const story = path.join(project, '_bmad-output', 'implementation-artifacts', '1-1-book-a-repair.md')
    // `Status: done` is the workflow's word: the open subtask and review finding hold the story.
    expect((await runTiers(project, ['status', '1-1-book-a-repair'])).stdout).toBe(
      '1-1-book-a-repair Story 1.1: Book a repair: verify, 0/3 rejections, undecided, never verified, next: verify; 2 open tasks\n'
    )
    expect((await stopHook(project)).reason).toContain(
      `${story}:35: [Review][Patch] The price is shown without tax [booking.ts:40] (open task of slice 1-1-book-a-repair)`
    )
    expect((await runTiers(project, ['verify', '1-2-track-a-repair'])).code).toBe(0)
    const checkpoint = await runTiers(project, ['checkpoint', '1-2-track-a-repair'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain(
      'Acceptance criteria:\n  [ ] AC1 — Status page Given a booked repair When the cyclist opens its link Then the page shows where the repair stands\n  [ ] AC2 — Ready message Given a repair marked ready When the mechanic saves it Then the cyclist gets one message saying so the message names the bike\n'
    )
    const held = await runTiersPiped(project, ['ci'])
    expect([held.code, held.stdout]).toEqual([
      1,
      expect.stringContaining(
        `  1-2-track-a-repair Story 1.2: Track a repair: verify, never approved (${path.join(project, '_bmad-output', 'implementation-artifacts', '1-2-track-a-repair.md')}:1)\n`
      )
    ])
    expect((await runTiers(project, ['respond', '1-2-track-a-repair', 'approved'])).stdout).toContain(
      'APPROVED — Slice 1-2-track-a-repair: Story 1.2: Track a repair'
    )
    expect((await runTiersPiped(project, ['ci'])).stdout).toContain(
      'Approved:\n  1-2-track-a-repair Story 1.2: Track a repair: approved by Tiers Test <tiers@example.com>, at a terminal, '
    )
  })
})

describe('tiers on a BMAD v4 project', () => {
  it('finds `.bmad-core`, holds a story on its open subtask whatever its status says, and takes a person’s approval of a story in review', async ({expect}) => {
    const project = await toolProject('bmad-v4-bakery', '.', () => true, '.bmad-core')
    const stories = path.join(project, 'docs', 'stories')
    expect((await runTiers(project, ['status', '1.1.order-a-cake.story'])).stdout).toBe(
      '1.1.order-a-cake.story Story 1.1: Order a cake: verify, 0/3 rejections, undecided, never verified, next: verify; 1 open task\n'
    )
    expect((await stopHook(project)).reason).toContain(
      `${path.join(stories, '1.1.order-a-cake.story.md')}:24: Show the price beside each cake (open task of slice 1.1.order-a-cake.story)`
    )
    expect((await runTiers(project, ['verify', '1.2.story'])).code).toBe(0)
    const checkpoint = await runTiers(project, ['checkpoint', '1.2.story'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain('ALL TESTS PASSING — Slice 1.2.story: Story 1.2: Pay a deposit\n')
    expect(checkpoint.stdout).toContain(
      'Acceptance criteria:\n  [ ] AC1: Deposit The customer pays a fifth of the price when ordering: by card; by bank transfer; in the shop\n  [ ] AC2: Receipt A receipt names the deposit and what is left to pay.\n'
    )
    const held = await runTiersPiped(project, ['ci'])
    expect([held.code, held.stdout]).toEqual([
      1,
      expect.stringContaining(`  1.2.story Story 1.2: Pay a deposit: verify, never approved (${path.join(stories, '1.2.story.md')}:1)\n`)
    ])
    expect((await runTiers(project, ['respond', '1.2.story', 'approved'])).stdout).toContain('APPROVED — Slice 1.2.story: Story 1.2: Pay a deposit')
    expect((await runTiersPiped(project, ['ci'])).stdout).toContain(
      'Approved:\n  1.2.story Story 1.2: Pay a deposit: approved by Tiers Test <tiers@example.com>, at a terminal, '
    )
    expect(await fs.readdir(path.join(project, '.bmad-core', 'tiers'))).toContain('1.2.story.json')
    const init = await runTiers(project, ['init', '--ci', 'github'])
    expect([init.code, init.stdout.split('\n')[0]]).toEqual([0, 'note: found a bmad-v4 project in .bmad-core: tiers reads its files as they are'])
  })
})
