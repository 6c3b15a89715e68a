/** The OpenSpec reader: active changes as slices, delta requirements as contracts, scenarios as criteria, open tasks, and every shape it cannot read as a problem. */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ProjectError} from '../lib/errors.js'
import {parseMarkdownText as parseMarkdown, readDeltaSpec} from '@verification-tiers/spec-tools'
import {openspec, readOpenSpec} from '../lib/tools/openspec.js'
import {readTasks, taskList} from '../lib/tools/read-tasks.js'
import type {ToolReading} from '../lib/tools/types.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const lending = path.join(fixtures, 'openspec-lending')
const broken = path.join(fixtures, 'openspec-problems')

/** Paths relative to the folder read, so the expectations read as the fixture's tree. */
const relative = (dir: string, file: string) => path.relative(dir, file).split(path.sep).join('/')

function delta(text: string) {
  return readDeltaSpec('spec.md', text, parseMarkdown(text))
}

let scratch: string
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'openspec-test-'))
})
afterAll(async () => {
  await rm(scratch, {recursive: true, force: true})
})

async function folderWith(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(scratch, name)
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await writeFile(path.join(dir, file), text)
  }
  await mkdir(dir, {recursive: true})
  return dir
}

describe('openspec.recognises', () => {
  it('knows an OpenSpec folder by its project.md, AGENTS.md, a change, or a capability spec of requirements', async () => {
    expect(openspec.name).toBe('openspec')
    expect(openspec.folder).toBe('openspec')
    expect(await openspec.recognises(lending)).toBe(true)
    expect(await openspec.recognises(broken)).toBe(true)
    expect(await openspec.recognises(await folderWith('capability-only', {'specs/search/spec.md': '### Requirement: Search\nIt SHALL find.\n'}))).toBe(true)
    expect(await openspec.recognises(await folderWith('change-only', {'changes/add-x/tasks.md': '- [ ] 1.1 Do x\n'}))).toBe(true)
  })

  it('does not take an empty folder, or spec-kit’s specs/ of user stories, for OpenSpec', async () => {
    expect(await openspec.recognises(await folderWith('empty', {}))).toBe(false)
    expect(await openspec.recognises(await folderWith('speckit-like', {'specs/001-search/spec.md': '### User Story 1 - Search (Priority: P1)\n'}))).toBe(false)
    expect(await openspec.recognises(await folderWith('only-readme', {'README.md': '# Requirement: not a folder of specs\n'}))).toBe(false)
  })
})

describe('openspec.read on a project of two active changes and an archive', () => {
  let reading: ToolReading
  beforeAll(async () => {
    reading = await openspec.read(lending, {defaultTier: 'verify', optionalTasks: 'show'})
  })

  it('makes each active change a slice named by its proposal, and reads no archived change', () => {
    expect(reading.slices.map((slice) => [slice.id, slice.name, slice.tier, slice.contracts.length])).toEqual([
      ['add-due-reminders', 'Remind members before a loan is due', null, 3],
      ['tidy-shelf-labels', 'Tidy shelf labels', 'auto', 1]
    ])
    expect(reading.contracts.some((loaded) => loaded.file.includes('archive'))).toBe(false)
    expect(reading.problems).toEqual([])
  })

  it('lists the unticked tasks, with or without ids, nested ones too, and none in a fence', () => {
    const [reminders, labels] = reading.slices
    expect(reminders!.openTasks.map((task) => [relative(lending, task.file), task.line, task.text])).toEqual([
      ['changes/add-due-reminders/tasks.md', 4, '1.2 Send a reminder two days before the due date'],
      ['changes/add-due-reminders/tasks.md', 5, "Write the reminder text with the tool's name"],
      ['changes/add-due-reminders/tasks.md', 7, 'in Japanese']
    ])
    expect(labels!.openTasks).toEqual([])
  })

  it('reads ADDED and MODIFIED requirements as contracts of the slice, each scenario one criterion, in any language', () => {
    const contracts = reading.slices[0]!.contracts.map(({contract, file}) => ({
      file: relative(lending, file),
      label: contract.label,
      id: contract.id,
      tier: contract.tier,
      effectiveTier: contract.effectiveTier,
      slice: contract.slice,
      lines: [contract.headingPosition.start.line, contract.position.end.line],
      criteria: contract.criteria.map((item) => [item.position.start.line, item.position.end.line, item.text])
    }))
    expect(contracts).toEqual([
      {
        file: 'changes/add-due-reminders/specs/loans/spec.md',
        label: 'loans: Borrowing a tool',
        id: null,
        tier: null,
        effectiveTier: 'verify',
        slice: 'add-due-reminders',
        lines: [5, 11],
        criteria: [
          [
            8,
            11,
            'Member borrows a drill: WHEN a member scans a drill at the desk; THEN the drill shows as lent to that member; AND the due date is seven days later'
          ]
        ]
      },
      {
        file: 'changes/add-due-reminders/specs/reminders/spec.md',
        label: 'reminders: Reminder before the due date',
        id: null,
        tier: null,
        effectiveTier: 'verify',
        slice: 'add-due-reminders',
        lines: [3, 18],
        criteria: [
          [
            6,
            12,
            'Loan due in two days: GIVEN a member holds a sander due on Friday; WHEN the nightly job runs on Wednesday; THEN the member receives one reminder, naming the sander, giving the due date; AND the loan records that a reminder went out'
          ],
          [
            14,
            18,
            'Member without a contact channel: WHEN the nightly job finds a loan due in two days; AND the member has no contact channel; THEN the desk lists the loan for a phone call; OR the desk prints a note for the next visit'
          ]
        ]
      },
      {
        file: 'changes/add-due-reminders/specs/reminders/spec.md',
        label: 'reminders: 延滞の通知',
        id: null,
        tier: 'auto',
        effectiveTier: 'auto',
        slice: 'add-due-reminders',
        lines: [20, 27],
        criteria: [[25, 27, '期限を一日過ぎた: WHEN 返却期限を一日過ぎた; THEN 会員に延滞の通知が一通届く']]
      }
    ])
  })

  it('keeps each contract’s markdown as written', () => {
    const [first] = reading.slices[0]!.contracts
    expect(first!.source).toBe(
      '### Requirement: Borrowing a tool\nThe desk SHALL record who holds each tool and when it is due back.\n\n#### Scenario: Member borrows a drill\n- **WHEN** a member scans a drill at the desk\n- **THEN** the drill shows as lent to that member\n- **AND** the due date is seven days later'
    )
  })

  it('shows REMOVED and RENAMED requirements as auto contracts in no slice, labelled as not verified', () => {
    const inSlices = new Set(reading.slices.flatMap((slice) => slice.contracts))
    const shown = reading.contracts.filter((loaded) => !inSlices.has(loaded))
    expect(
      shown.map(({contract}) => [
        contract.label,
        contract.tier,
        contract.effectiveTier,
        contract.slice,
        contract.headingPosition.start.line,
        contract.criteria.length
      ])
    ).toEqual([
      ['loans: Paper due slips (REMOVED by add-due-reminders: not verified)', 'auto', 'auto', null, 15, 0],
      ['loans: Return desk → Returning a tool (RENAMED by add-due-reminders: not verified)', 'auto', 'auto', null, 21, 0]
    ])
  })

  it('takes the change’s stated tier as the slice’s, and the configured default when a change states none', async () => {
    const defaulted = await openspec.read(lending, {defaultTier: 'auto', optionalTasks: 'show'})
    expect(defaulted.slices.map((slice) => [slice.id, slice.tier])).toEqual([
      ['add-due-reminders', 'auto'],
      ['tidy-shelf-labels', 'auto']
    ])
    // A tier the requirement states is its own, whatever the default.
    expect(defaulted.slices[0]!.contracts.map(({contract}) => contract.tier)).toEqual([null, null, 'auto'])
  })

  it('gives the figures of each change: requirements by section, scenarios, tasks', async () => {
    const {changes} = await readOpenSpec(lending, {defaultTier: 'verify', optionalTasks: 'show'})
    expect(
      changes.map((change) => [
        change.id,
        change.requirements.map((requirement) => `${requirement.section} ${requirement.name} (${requirement.scenarios.length})`),
        change.tasks.total,
        change.tasks.checked
      ])
    ).toEqual([
      [
        'add-due-reminders',
        [
          'MODIFIED Borrowing a tool (1)',
          'REMOVED Paper due slips (0)',
          'RENAMED Return desk → Returning a tool (0)',
          'ADDED Reminder before the due date (2)',
          'ADDED 延滞の通知 (1)'
        ],
        6,
        3
      ],
      ['tidy-shelf-labels', ['ADDED Shelf label shows the tool family (1)'], 2, 2]
    ])
  })
})

describe('openspec.archived', () => {
  it('is a change OpenSpec moved to changes/archive/, under its date or not', async () => {
    expect(await Promise.all(['add-loans', 'loans', 'add-due-reminders'].map((id) => openspec.archived!(lending, id)))).toEqual([true, false, false])
  })
})

describe('openspec.read on what it cannot read', () => {
  it('names each file and line, never skipping one in silence; a file beside the changes and a change of only a proposal are none', async () => {
    const reading = await openspec.read(broken, {defaultTier: 'verify', optionalTasks: 'show'})
    const fees = 'changes/fix-late-fees/specs/fees/spec.md'
    const sections = '`## ADDED Requirements`, `## MODIFIED Requirements`, `## REMOVED Requirements` or `## RENAMED Requirements`'
    expect(reading.problems.map((problem) => [relative(broken, problem.file), problem.line, problem.message])).toEqual([
      [fees, 1, `Unexpected requirement "Fee before any section" before any section, expected it under ${sections}`],
      [
        fees,
        6,
        'Unexpected ADDED requirement "Fee per day late" without a scenario (openspec validate: ADDED "Fee per day late" must include at least one scenario), expected at least one `#### Scenario: …` block with WHEN and THEN lines'
      ],
      [fees, 9, 'Unexpected tier "maybe" in requirement "Fee per day late", expected `auto` or `verify` (`manual` reads as `verify`)'],
      [fees, 20, 'Unexpected `### Scenario:` heading, expected `#### Scenario: Name` under a `### Requirement: Name`'],
      [
        fees,
        26,
        'Unexpected REMOVED requirement "Fee in coins" with a scenario, which is never verified, expected its **Reason** and **Migration** only, or the requirement under `## MODIFIED Requirements` to keep its scenarios'
      ],
      [
        'changes/fix-late-fees/specs/notes/spec.md',
        null,
        `Unexpected delta spec without a requirement, expected ${sections} with \`### Requirement: Name\` headings`
      ],
      [
        'changes/stop-hook',
        null,
        'Unexpected change folder name "stop-hook", expected a slice id such as `S-01`: 1 to 100 letters, digits, `_`, `-` or `.`, not starting with `-` or `.`, and not `verification-status` or `stop-hook`'
      ]
    ])
  })

  it('keeps an invalid tier as written, read as verify, and a change whose name is no slice id out of the slices but its contracts listed', async () => {
    const reading = await openspec.read(broken, {defaultTier: 'verify', optionalTasks: 'show'})
    expect(reading.slices.map((slice) => slice.id)).toEqual(['fix-late-fees', 'only-a-proposal'])
    expect(reading.contracts.map(({contract}) => [contract.label, contract.tier, contract.effectiveTier, contract.slice])).toEqual([
      ['fees: Fee per day late', 'maybe', 'verify', 'fix-late-fees'],
      ['fees: Fee waived for volunteers', null, 'verify', 'fix-late-fees'],
      ['fees: Fee in coins (REMOVED by fix-late-fees: not verified)', 'auto', 'auto', null],
      ['fees: Fee receipt', null, 'verify', null]
    ])
  })

  it('says when a change holds a requirement twice, as the gate knows a contract by its label', async () => {
    const spec =
      '## ADDED Requirements\n\n### Requirement: Twice\nIt SHALL x.\n\n#### Scenario: A\n- **WHEN** a\n- **THEN** b\n\n## MODIFIED Requirements\n\n### Requirement: Twice\nIt SHALL y.\n\n#### Scenario: B\n- **WHEN** c\n- **THEN** d\n'
    const dir = await folderWith('twice', {'changes/add-x/specs/x/spec.md': spec})
    const reading = await openspec.read(dir, {defaultTier: 'verify', optionalTasks: 'show'})
    const file = path.join(dir, 'changes/add-x/specs/x/spec.md')
    expect(reading.problems).toEqual([
      {
        file,
        line: 12,
        message: `Unexpected second requirement "Twice" of x in change add-x (the first at ${file}:3), expected each requirement once in a change`
      }
    ])
  })

  it('is a ProjectError on a folder with neither specs/ nor changes/', async () => {
    const dir = await folderWith('nothing', {'project.md': '# Context\n'})
    await expect(openspec.read(dir, {defaultTier: 'verify', optionalTasks: 'show'})).rejects.toThrow(ProjectError)
    await expect(openspec.read(dir, {defaultTier: 'verify', optionalTasks: 'show'})).rejects.toThrow(
      `${dir}: Unexpected OpenSpec folder without specs/ or changes/`
    )
  })

  it('says when two tiers of a requirement disagree, and reads it as verify', async () => {
    const spec =
      '## ADDED Requirements\n\n### Requirement: Two tiers\nIt SHALL x.\n\n**Verification:** auto\n\n- **Verification:** verify\n\n#### Scenario: S\n- **WHEN** a\n- **THEN** b\n'
    const dir = await folderWith('two-tiers', {'changes/add-x/specs/x/spec.md': spec, 'changes/add-x/proposal.md': '# Change: X\n\n**Verification:** manual\n'})
    const reading = await openspec.read(dir, {defaultTier: 'auto', optionalTasks: 'show'})
    expect(reading.problems.map((problem) => [relative(dir, problem.file), problem.line, problem.message])).toEqual([
      ['changes/add-x/specs/x/spec.md', 8, 'Unexpected second tier in requirement "Two tiers", expected one tier (it reads as `verify`)']
    ])
    expect(reading.contracts.map(({contract}) => [contract.tier, contract.effectiveTier])).toEqual([['verify', 'verify']])
    // `manual` in the proposal: the change's contracts that state no tier are verified by a person, whatever the default.
    expect(reading.slices.map((slice) => slice.tier)).toEqual(['verify'])
  })
})

describe('readDeltaSpec', () => {
  it('reads WHEN/THEN lines of one paragraph, a THEN the parser joined to the item above, bold keywords with colons, and a full-width colon', () => {
    const text = [
      '## ADDED Requirements',
      '',
      '### Requirement：全角のコロン',
      '系统 SHALL 记录。',
      '',
      '#### Scenario：段落のシナリオ',
      '**WHEN** 用户登录',
      '**THEN:** 系统记录时间',
      'and keeps a wrapped line',
      '',
      '#### Scenario: Lazy line',
      '- **WHEN:** a member pays',
      '**THEN** a receipt prints',
      ''
    ].join('\n')
    const spec = delta(text)
    expect(spec.problems).toEqual([])
    expect(
      spec.requirements.map((requirement) => [
        requirement.section,
        requirement.name,
        requirement.scenarios.map((item) => [item.position.start.line, item.text])
      ])
    ).toEqual([
      [
        'ADDED',
        '全角のコロン',
        [
          [6, '段落のシナリオ: WHEN 用户登录; THEN 系统记录时间 and keeps a wrapped line'],
          [11, 'Lazy line: WHEN a member pays; THEN a receipt prints']
        ]
      ]
    ])
  })

  it('reports a requirement under a heading that is no delta section, and a heading naming a requirement that does not read as one; a note is none', () => {
    const spec = delta(
      '# title\n\n## Requirements\n\n### Requirement: Misplaced\nIt SHALL x.\n\n## ADDED Requirements\n\n### Notes\n\n### Requirement Export\n'
    )
    expect(spec.problems.map((problem) => [problem.line, problem.message])).toEqual([
      [
        5,
        'Unexpected requirement "Misplaced" under `## Requirements`, expected it under `## ADDED Requirements`, `## MODIFIED Requirements`, `## REMOVED Requirements` or `## RENAMED Requirements`'
      ],
      [12, 'Unexpected heading "### Requirement Export" in the ADDED section, expected `### Requirement: Name`'],
      [
        null,
        'Unexpected delta spec without a requirement, expected `## ADDED Requirements`, `## MODIFIED Requirements`, `## REMOVED Requirements` or `## RENAMED Requirements` with `### Requirement: Name` headings'
      ]
    ])
  })

  it('reports a FROM without its TO in a RENAMED section', () => {
    const spec = delta('## RENAMED Requirements\n\n- FROM: `### Requirement: Old`\n- FROM: `### Requirement: Older`\n- TO: `### Requirement: New`\n')
    expect(spec.requirements.map((requirement) => requirement.name)).toEqual(['Older → New'])
    expect(spec.problems.map((problem) => [problem.line, problem.message])).toEqual([
      [3, 'Unexpected FROM without TO in the RENAMED section, expected a `- FROM: ### Requirement: Old` item followed by a `- TO: ### Requirement: New` item']
    ])
  })

  const styles = {
    bullet: (word: string, text: string) => `- **${word}** ${text}`,
    boldColon: (word: string, text: string) => `- **${word}:** ${text}`,
    plainBullet: (word: string, text: string) => `- ${word} ${text}`,
    paragraph: (word: string, text: string) => `**${word}** ${text}`,
    plainColon: (word: string, text: string) => `${word}: ${text}`
  } as const
  const style = fc.constantFrom(...(Object.keys(styles) as Array<keyof typeof styles>))
  const words = fc.constantFrom('the member pays', '会員が返却する', 'ユーザーがログインする', 'a drill is lent', '系统记录时间')
  const scenario = fc.record({
    given: fc.option(fc.tuple(style, words), {nil: null}),
    when: fc.tuple(style, words),
    ands: fc.array(fc.tuple(style, words), {maxLength: 2}),
    then: fc.tuple(style, words),
    nested: fc.array(words, {maxLength: 2}),
    blank: fc.boolean()
  })

  it('reads one criterion per scenario, with its WHEN before its THEN, whatever mix of styles', () => {
    fc.assert(
      fc.property(fc.array(fc.array(scenario, {minLength: 1, maxLength: 3}), {minLength: 1, maxLength: 3}), (requirements) => {
        const lines = ['## ADDED Requirements', '']
        const headingLines: number[][] = []
        requirements.forEach((scenarios, r) => {
          lines.push(`### Requirement: R${r}`, 'It SHALL hold.', '')
          headingLines.push([])
          scenarios.forEach((item, s) => {
            headingLines[r]!.push(lines.length + 1)
            lines.push(`#### Scenario: S${r}.${s}`)
            const clauses: Array<[keyof typeof styles, string, string]> = []
            if (item.given) clauses.push([item.given[0], 'GIVEN', item.given[1]])
            clauses.push([item.when[0], 'WHEN', item.when[1]], ...item.ands.map(([how, text]): [keyof typeof styles, string, string] => [how, 'AND', text]), [
              item.then[0],
              'THEN',
              item.then[1]
            ])
            for (const [how, word, text] of clauses) {
              lines.push(styles[how](word, text))
              // A blank line between clauses, or none: a paragraph line after an item then joins the item.
              if (item.blank) lines.push('')
            }
            if (item.then[0] === 'bullet' || item.then[0] === 'boldColon' || item.then[0] === 'plainBullet') {
              if (!item.blank) for (const text of item.nested) lines.push(`  - ${text}`)
            }
            lines.push('')
          })
        })
        const spec = delta(lines.join('\n'))
        expect(spec.problems).toEqual([])
        expect(spec.requirements.map((requirement) => requirement.scenarios.map((item) => item.position.start.line))).toEqual(headingLines)
        for (const [r, requirement] of spec.requirements.entries()) {
          for (const [s, item] of requirement.scenarios.entries()) {
            expect(item.text.startsWith(`S${r}.${s}: `)).toBe(true)
            const when = item.text.indexOf('WHEN ')
            expect(when).toBeGreaterThan(0)
            expect(item.text.indexOf('THEN ')).toBeGreaterThan(when)
            expect(item.text).not.toContain('**')
          }
        }
      })
    )
  })

  it('expects a THEN of each scenario at its heading, whatever the style of its other lines, for the lint alone', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(style, words, fc.boolean()), {minLength: 1, maxLength: 4}), (scenarios) => {
        const lines = ['## MODIFIED Requirements', '', '### Requirement: R', 'It SHALL hold.', '']
        const expected: Array<[number, string]> = []
        scenarios.forEach(([how, text, hasThen], index) => {
          if (!hasThen) expected.push([lines.length + 1, `Unexpected scenario "S${index}" without THEN, expected \`- **WHEN** …\` and \`- **THEN** …\` lines`])
          lines.push(`#### Scenario: S${index}`, styles[how]('WHEN', text), '')
          if (hasThen) lines.push(styles[how]('THEN', text), '')
        })
        const spec = delta(lines.join('\n'))
        expect(spec.expectations.map((expectation) => [expectation.place.start.line, expectation.message])).toEqual(expected)
        // OpenSpec's validator asks nothing of a scenario's lines: the gate holds nothing for them.
        expect(spec.problems).toEqual([])
      })
    )
  })
})

describe('readDeltaSpec as OpenSpec reads a delta', () => {
  it('reads any fourth-level heading under a requirement as a scenario, GIVEN as a condition, and REMOVED items as removed requirements', () => {
    const spec = delta(
      [
        '## ADDED Requirements', // 1
        '',
        '### Requirement: Fees',
        'The system SHALL charge a fee.',
        '', // 5
        '**Verification:**',
        '- run the fee report',
        '',
        '#### Edge case: a free day',
        '- **GIVEN** a holiday', // 10
        '- **THEN** no fee is charged',
        '',
        '## REMOVED Requirements',
        '',
        '- `### Requirement: Paper slips`' // 15
      ].join('\n')
    )
    expect(
      spec.requirements.map((requirement) => [
        requirement.section,
        requirement.name,
        requirement.headingPosition.start.line,
        requirement.scenarios.map((item) => item.text),
        requirement.tiers
      ])
    ).toEqual([
      ['ADDED', 'Fees', 3, ['Edge case: a free day: GIVEN a holiday; THEN no fee is charged'], []],
      ['REMOVED', 'Paper slips', 15, [], []]
    ])
    expect([spec.problems, spec.expectations]).toEqual([[], []])
  })
})

describe('readTasks', () => {
  it('counts checkbox items at any depth, in bullet and ordered lists, and lists the open ones as written', () => {
    const text = [
      '# Tasks',
      '',
      '- [x] 1.1 Done',
      '- [ ] 1.2 Open with `code`',
      '  and a second line',
      '  - [ ] nested open',
      '  - [X] nested done',
      '',
      '1. [ ] Ordered open',
      '',
      '- not a task',
      '- [] not a box',
      '',
      '```',
      '- [ ] fenced',
      '```',
      ''
    ].join('\n')
    const tasks = taskList(readTasks('tasks.md', text))
    expect([tasks.total, tasks.checked]).toEqual([5, 2])
    expect(tasks.open).toEqual([
      {text: '1.2 Open with `code` and a second line', file: 'tasks.md', line: 4},
      {text: 'nested open', file: 'tasks.md', line: 6},
      {text: 'Ordered open', file: 'tasks.md', line: 9}
    ])
  })
})
