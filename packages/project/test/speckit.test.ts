/**
 * The spec-kit reader through `loadProject`: feature folders as slices, user
 * stories as contracts with the lines the user wrote, open tasks, the
 * settings of `tiers.json`, and `findProjectFolder` walking up to `specs/`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import fc from 'fast-check'
import {findProjectFolder, loadProject} from '@verification-tiers/project'
import {FileReadError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const garden = path.join(fixtures, 'speckit-garden', 'specs')
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary folder holding `files` (path → text). */
async function project(files: Record<string, string>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-speckit-unit-')))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), text)
  }
  return folder
}

const story = (heading: string, body = '') =>
  `### ${heading}\n\n${body}**Acceptance Scenarios**:\n\n1. **Given** a bed, **When** it is watered, **Then** it is wet.\n`

describe('the spec-kit reader', () => {
  it('reads feature folders as slices and user stories as contracts, each item at its line', async () => {
    const loaded = await loadProject(garden)
    expect([loaded.tool, loaded.slicesFrom, loaded.problems]).toEqual(['spec-kit', 'spec-kit', []])
    expect(loaded.slices.map((slice) => [slice.id, slice.name, slice.contracts.map(({contract}) => contract.label)])).toEqual([
      ['001-plant-log', 'Plant Log', ['User Story 1 - Record a planting', 'User Story 2 — Export the log']],
      ['002-watering-reminders', 'Watering Reminders', ['User Story 1 – Remind before a dry day']],
      ['003-harvest-notes', '收获记录', ['用户故事 1 - 记录收获']]
    ])
    const [first, second] = loaded.slices[0]!.contracts
    expect(first!.file).toBe(path.join(garden, '001-plant-log', 'spec.md'))
    expect(first!.contract.criteria.map((item) => item.position.start.line)).toEqual([18, 19])
    expect(first!.contract.steps.map((item) => [item.text, item.position.start.line])).toEqual([
      ['Add one planting through the form and find it in the list with its bed and date.', 14]
    ])
    // The independent test's text on the line after its label.
    expect(second!.contract.steps.map((item) => [item.text, item.position.start.line])).toEqual([
      ['Run the export on a log of three plantings and open the file.', 30]
    ])
    expect([first!.contract.tier, second!.contract.tier]).toEqual([null, 'auto'])
    expect(first!.source.startsWith('### User Story 1 - Record a planting (Priority: P1)')).toBe(true)
  })

  it('lists the unticked tasks of tasks.md, nested ones too, and no ticked one', async () => {
    const loaded = await loadProject(garden)
    const tasks = path.join(garden, '002-watering-reminders', 'tasks.md')
    expect(loaded.slices.map((slice) => slice.openTasks)).toEqual([
      [],
      [
        {text: 'T002 [US1] Schedule the morning check', file: tasks, line: 4},
        {text: 'Name the bed in the reminder', file: tasks, line: 6}
      ],
      []
    ])
  })

  it('reads the first template: a Primary User Story with its Acceptance Scenarios under a heading of their own', async () => {
    const spec = [
      '# Feature Specification: Compost',
      '',
      '## User Scenarios & Testing *(mandatory)*',
      '',
      '### Primary User Story',
      'A gardener logs what goes into the compost bin.',
      '',
      '### Acceptance Scenarios',
      '1. **Given** an empty bin, **When** peelings are logged, **Then** the bin shows `1 entry`.',
      '2. **Given** a full bin, **When** it is turned, **Then** the turn date is kept -- verified by: `npm test -- turn`',
      '',
      '### Edge Cases',
      '- A bin logged twice on one day.'
    ].join('\n')
    const folder = await project({'specs/004-compost/spec.md': spec})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([])
    const [story] = loaded.slices[0]!.contracts
    expect([story!.contract.label, story!.contract.headingPosition.start.line]).toEqual(['Primary User Story', 5])
    expect(story!.contract.criteria.map((item) => [item.text, item.position.start.line, item.check?.command ?? null])).toEqual([
      ['Given an empty bin, When peelings are logged, Then the bin shows `1 entry`.', 9, null],
      ['Given a full bin, When it is turned, Then the turn date is kept', 10, 'npm test -- turn']
    ])
    expect(story!.source).toBe(spec.split('\n').slice(4, 10).join('\n'))
  })

  it('reads stories only where the template makes them: a Clarifications session, Edge Cases or a numbered heading of another section is none, and no problem', async () => {
    const spec = [
      '# Feature Specification: Seeds', // 1
      '',
      '## Clarifications',
      '',
      '### Session 2025-01-04', // 5
      '',
      '- Q: Which beds? → A: All of them.',
      '',
      '## User Scenarios & Testing *(mandatory)*',
      '', // 10
      '### User Story 1 - Sow (Priority: P1)',
      '',
      '**Independent Test**: Sow one tray.',
      '',
      '**Acceptance Scenarios**:', // 15
      '',
      '1. **Given** a tray, **When** seeds are sown, **Then** the tray is logged.',
      '',
      '### Edge Cases',
      '', // 20
      '- What happens when a tray is sown twice?',
      '',
      '## Requirements *(mandatory)*',
      '',
      '### FR-002: Trays are numbered', // 25
      '',
      '### Stage 1: Seed the store',
      '',
      '### Sesión 2025-02-01'
    ].join('\n')
    const folder = await project({'specs/001-seeds/spec.md': spec})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([])
    expect(
      loaded.contracts.map(({contract}) => [contract.label, contract.headingPosition.start.line, contract.criteria.length, contract.steps.length])
    ).toEqual([['User Story 1 - Sow', 11, 1, 1]])
  })

  it('reads a story heading with no title, at another level or with its number as a word; a fenced example sets no tier', async () => {
    const spec = [
      '# Feature Specification: Seeds', // 1
      '',
      '## User Scenarios & Testing',
      '',
      '### User Story 2 (Priority: P2)', // 5
      '',
      '**Acceptance Scenarios**:',
      '',
      '1. **Given** a tray, **When** it is watered, **Then** it is logged.',
      '', // 10
      '```yaml',
      'verification: auto',
      '```',
      '',
      '#### User Story Three - Label (Priority: P3)', // 15
      '',
      '**Acceptance Scenarios**:',
      '',
      '1. **Given** a tray, **When** it is labelled, **Then** the label prints.',
      '', // 20
      '## 用户故事 4 - 导出（优先级：P2）',
      '',
      '**验收场景**：',
      '',
      '1. **假设** 一个托盘，**当** 导出时，**那么** 文件存在。' // 25
    ].join('\n')
    const folder = await project({'specs/001-seeds/spec.md': spec})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([])
    expect(
      loaded.contracts.map(({contract}) => [
        contract.label,
        contract.headingPosition.start.line,
        contract.effectiveTier,
        contract.criteria.map((item) => item.position.start.line)
      ])
    ).toEqual([
      ['User Story 2', 5, 'verify', [9]],
      ['User Story Three - Label', 15, 'verify', [19]],
      ['用户故事 4 - 导出', 21, 'verify', [25]]
    ])
  })

  it('names each story heading that markdown hides, with its line, and a story without scenarios', async () => {
    const spec = [
      '# Feature Specification: Seeds', // 1
      '',
      '## User Scenarios & Testing',
      '',
      '- ### User Story 1 - In a list (Priority: P1)', // 5
      '',
      '> ### 用户故事 2 - 引用（优先级：P2）',
      '',
      '### User Story 3 - Nothing to check (Priority: P3)',
      '', // 10
      'Some text.',
      '',
      '<!--',
      '### User Story 4 - Commented out (Priority: P1)'
    ].join('\n')
    const folder = await project({'specs/001-seeds/spec.md': spec})
    const file = path.join(folder, 'specs', '001-seeds', 'spec.md')
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([
      {
        file,
        line: 5,
        message:
          'Unexpected contract heading `### User Story 1 - In a list (Priority: P1)` inside a list item, expected a heading the reader sees: move the heading out of the list (no list marker)'
      },
      {
        file,
        line: 7,
        message:
          'Unexpected contract heading `### 用户故事 2 - 引用（优先级：P2）` inside a block quote, expected a heading the reader sees: move the heading out of the quote (no `>`)'
      },
      {
        file,
        line: 14,
        message:
          'Unexpected contract heading `### User Story 4 - Commented out (Priority: P1)` inside an unclosed HTML comment, expected a heading the reader sees: close the comment with `-->` above it'
      },
      {
        file,
        line: 9,
        message:
          'Unexpected user story User Story 3 - Nothing to check without acceptance scenarios, expected **Acceptance Scenarios**: with numbered Given/When/Then items'
      }
    ])
  })

  it('reads every scenario of the first template: after a note, under group headings, in a fence; no other list of the story', async () => {
    const spec = [
      '# Feature Specification: Compost', // 1
      '',
      '## User Scenarios & Testing *(mandatory)*',
      '',
      '### Primary User Story', // 5
      'A gardener logs what goes into the compost bin.',
      '',
      '**Context**:',
      '- The bin is in the yard.',
      '', // 10
      '### Acceptance Scenarios',
      '',
      '**Note**: each scenario starts from an empty bin.',
      '',
      '#### Scenario 1: Peelings', // 15
      '1. **Given** an empty bin, **When** peelings are logged, **Then** the bin shows one entry.',
      '',
      '#### Scenario 2: Turning',
      '```',
      'Given: a full bin', // 20
      'When: it is turned',
      'Then: the turn date is kept',
      '```',
      '',
      '### Edge Cases', // 25
      '- A bin logged twice on one day.'
    ].join('\n')
    const folder = await project({'specs/004-compost/spec.md': spec})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([])
    const [story] = loaded.contracts
    expect([loaded.contracts.length, story!.contract.label, story!.contract.steps]).toEqual([1, 'Primary User Story', []])
    expect(story!.contract.criteria.map((item) => [item.text, item.position.start.line])).toEqual([
      ['Given an empty bin, When peelings are logged, Then the bin shows one entry.', 16],
      ['Given: a full bin; When: it is turned; Then: the turn date is kept', 19]
    ])
  })

  it('reads a story label over a paragraph as its test, never as its scenarios', async () => {
    const spec =
      '# Feature Specification: Tides\n\n## User Scenarios & Testing\n\n### User Story 1 (Priority: P1)\n\n**Independent test / acceptance**: Given a station, when the page opens, the next tide shows.\n'
    const folder = await project({'specs/005-tides/spec.md': spec, 'specs/roadmap.md': '# Roadmap\n\n### User Story 9 - Later\n'})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(
      loaded.contracts.map(({contract}) => [contract.label, contract.criteria.length, contract.steps.map((step) => [step.text, step.position.start.line])])
    ).toEqual([['User Story 1', 0, [['Given a station, when the page opens, the next tide shows.', 7]]]])
    // The story has no scenarios, which is said; the roadmap beside the feature folders is no feature, and no problem.
    expect(loaded.problems.map((problem) => [path.relative(folder, problem.file), problem.line])).toEqual([['specs/005-tides/spec.md', 5]])
  })

  it('names two feature folders whose names differ only in case: one state would hold both', async () => {
    const spec = `# Feature Specification: Beds\n\n${story('User Story 1 - Dig (Priority: P1)')}`
    const folder = await project({'specs/001-beds/spec.md': spec, 'specs/001-Beds/spec.md': spec})
    const loaded = await loadProject(path.join(folder, 'specs'))
    expect(loaded.problems).toEqual([
      {
        file: path.join(folder, 'specs'),
        line: null,
        message:
          'Unexpected slices 001-Beds and 001-beds, whose names differ only in case, expected names that differ otherwise: tiers keeps one state and one answer for both'
      }
    ])
  })

  it('takes the default tier from tiers.json; `manual` reads as verify', async () => {
    const spec = `# Feature Specification: Beds\n\n## User Scenarios\n\n${story('User Story 1 - Dig (Priority: P1)')}\n${story('User Story 2 - Rake (Priority: P2)', '**Verification:** manual\n\n')}`
    const auto = await project({'specs/001-beds/spec.md': spec, 'specs/tiers.json': '{"verification": {"default": "auto"}}'})
    const loaded = await loadProject(path.join(auto, 'specs'))
    expect(loaded.slices[0]!.tier).toBe('auto')
    expect(loaded.slices[0]!.contracts.map(({contract}) => [contract.tier, contract.effectiveTier])).toEqual([
      [null, 'verify'],
      ['verify', 'verify']
    ])
    const verify = await project({'specs/001-beds/spec.md': spec})
    expect((await loadProject(path.join(verify, 'specs'))).slices[0]!.tier).toBeNull()
  })

  it('names a misspelt or invalid setting of tiers.json', async () => {
    const spec = `# Feature Specification: Beds\n\n${story('User Story 1 - Dig (Priority: P1)')}`
    const misspelt = await project({'specs/001-beds/spec.md': spec, 'specs/tiers.json': '{"verification": {"defualt": "auto"}}'})
    await expect(loadProject(path.join(misspelt, 'specs'))).rejects.toThrow(
      new FileReadError(
        path.join(misspelt, 'specs', 'tiers.json'),
        'Unexpected key `verification.defualt`, expected `verification.default` (did you mean `default`?)',
        {line: 1, column: 30}
      )
    )
    const invalid = await project({'specs/001-beds/spec.md': spec, 'specs/tiers.json': '{"verification": {"default": "sometimes"}}'})
    await expect(loadProject(path.join(invalid, 'specs'))).rejects.toThrow(
      new FileReadError(
        path.join(invalid, 'specs', 'tiers.json'),
        'Unexpected `verification.default` string `"sometimes"`, expected `"auto"` or `"verify"` (`"manual"` reads as `"verify"`)',
        {line: 1, column: 30}
      )
    )
  })

  it('finds specs/ from a folder below, and .greenlight first when both are in one folder', async () => {
    const spec = `# Feature Specification: Beds\n\n${story('User Story 1 - Dig (Priority: P1)')}`
    const root = await project({'specs/001-beds/spec.md': spec, 'src/deep/a.ts': '', 'other/specs/notes.md': 'not spec-kit'})
    expect(await findProjectFolder(path.join(root, 'src', 'deep'))).toBe(path.join(root, 'specs'))
    // A specs folder of another kind is passed by, to the one above.
    expect(await findProjectFolder(path.join(root, 'other'))).toBe(path.join(root, 'specs'))
    await fs.mkdir(path.join(root, '.greenlight'))
    await fs.writeFile(path.join(root, '.greenlight', 'CONTRACTS.md'), '')
    expect(await findProjectFolder(path.join(root, 'src'))).toBe(path.join(root, '.greenlight'))
  })

  it('property: a story heading with any dash, number, priority and title reads as one contract with each scenario', async () => {
    const dash = fc.constantFrom('-', '–', '—', ':')
    const title = fc.constantFrom('Water the beds', 'Export CSV', '记录收获', '収穫を記録する', 'Bed 2 check')
    const priority = fc.constantFrom('', ' (Priority: P1)', ' (Priority: P3)', '（优先级：P2）')
    const word = fc.constantFrom('User Story', '用户故事', 'ユーザーストーリー', 'Story')
    const spread = fc.constantFrom('\n', '\n\n')
    const heading = fc.record({word, number: fc.integer({min: 1, max: 120}), dash, title, priority})
    const scenarios = fc.integer({min: 1, max: 6})
    const stories = fc.array(fc.record({heading, scenarios, spread}), {minLength: 1, maxLength: 4})
    const folder = await project({})
    let run = 0
    await fc.assert(
      fc.asyncProperty(stories, async (drawn) => {
        const dir = path.join(folder, `case-${run++}`, 'specs')
        const text = [
          '# Feature Specification: Garden',
          '',
          '## User Scenarios & Testing',
          '',
          ...drawn.map(({heading: {word, number, dash, title, priority}, scenarios, spread}) =>
            [
              `### ${word} ${number} ${dash} ${title}${priority}`,
              '',
              '**Independent Test**: Open the app.',
              '',
              '**Acceptance Scenarios**:',
              '',
              Array.from({length: scenarios}, (_, index) => `${index + 1}. **Given** bed ${index}, **When** watered, **Then** wet.`).join(spread),
              ''
            ].join('\n')
          )
        ].join('\n')
        await fs.mkdir(path.join(dir, '001-garden'), {recursive: true})
        await fs.writeFile(path.join(dir, '001-garden', 'spec.md'), text)
        const loaded = await loadProject(dir)
        expect(loaded.problems).toEqual([])
        const contracts = loaded.slices[0]!.contracts.map(({contract}) => contract)
        expect(contracts.map((contract) => contract.label)).toEqual(drawn.map(({heading: {word, number, dash, title}}) => `${word} ${number} ${dash} ${title}`))
        expect(contracts.map((contract) => contract.criteria.length)).toEqual(drawn.map(({scenarios}) => scenarios))
        const lines = text.split('\n')
        for (const contract of contracts) {
          for (const [index, item] of contract.criteria.entries())
            expect(lines[item.position.start.line - 1]).toBe(`${index + 1}. **Given** bed ${index}, **When** watered, **Then** wet.`)
        }
      }),
      {numRuns: 40}
    )
  })

  it('property: the open tasks are the unticked items, at their lines, whatever their ids and nesting', async () => {
    const task = fc.record({
      ticked: fc.constantFrom(' ', 'x', 'X'),
      id: fc.constantFrom('', 'T001 ', '[P] ', 'T12 [US1] '),
      depth: fc.constantFrom(0, 1),
      words: fc.constantFrom('Dig', 'Rake the bed', '播种')
    })
    const spec = `# Feature Specification: Beds\n\n${story('User Story 1 - Dig (Priority: P1)')}`
    const folder = await project({})
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(task, {maxLength: 12}), async (tasks) => {
        const dir = path.join(folder, `case-${run++}`, 'specs')
        await fs.mkdir(path.join(dir, '001-beds'), {recursive: true})
        await fs.writeFile(path.join(dir, '001-beds', 'spec.md'), spec)
        // A nested task only under a task: the first is never indented.
        const lines = ['# Tasks', '', ...tasks.map(({ticked, id, depth, words}, index) => `${index > 0 && depth ? '  ' : ''}- [${ticked}] ${id}${words}`)]
        await fs.writeFile(path.join(dir, '001-beds', 'tasks.md'), lines.join('\n') + '\n')
        const open = (await loadProject(dir)).slices[0]!.openTasks
        const expected = tasks.flatMap(({ticked, id, words}, index) => (ticked === ' ' ? [{text: `${id}${words}`, line: index + 3}] : []))
        expect(open.map(({text, line}) => ({text, line}))).toEqual(expected)
      }),
      {numRuns: 40}
    )
  })
})
