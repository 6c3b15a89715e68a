/** The Kiro reader: feature folders of `.kiro/specs` as slices, requirements as contracts, the open tasks of `tasks.md`. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {ProjectError} from '../lib/errors.js'
import {readBugfix, readRequirements} from '@verification-tiers/spec-tools'
import {kiro} from '../lib/tools/kiro.js'
import {readTasks} from '../lib/tools/read-tasks.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const garden = path.join(fixtures, 'kiro-garden')
const specs = path.join(garden, 'specs')
const verify = {defaultTier: 'verify', optionalTasks: 'show'} as const

describe('kiro', () => {
  it('is the `.kiro` folder, recognised by a feature folder holding requirements.md', async () => {
    expect([kiro.name, kiro.folder]).toEqual(['kiro', '.kiro'])
    expect(await kiro.recognises(garden)).toBe(true)
    expect(await kiro.recognises(path.join(fixtures, 'kiro-unread'))).toBe(true)
    expect(await kiro.recognises(path.join(fixtures, 'md-milestones'))).toBe(false)
    expect(await kiro.recognises(path.join(fixtures, 'no-such-folder'))).toBe(false)
  })

  it('reads each feature folder in the format as a slice, its requirements as contracts', async () => {
    const reading = await kiro.read(garden, verify)
    expect(
      reading.slices.map((slice) => [
        slice.id,
        slice.name,
        slice.tier,
        slice.contracts.map(({contract}) => [contract.id, contract.label, contract.name, contract.tier, contract.effectiveTier, contract.criteria.length])
      ])
    ).toEqual([
      [
        'garden-watering',
        'garden-watering',
        null,
        [
          ['R-1', 'Requirement 1', 'Requirement 1', null, 'verify', 3],
          ['R-2', 'Requirement 2: Manual override', 'Manual override', 'auto', 'auto', 2],
          ['R-3', 'Requirement 3 – Water usage report', 'Water usage report', 'verify', 'verify', 1],
          ['R-4', 'Requirement 4 — Frost guard', 'Frost guard', null, 'verify', 0]
        ]
      ],
      [
        'recipe-sharing',
        'recipe-sharing',
        null,
        [
          ['R-1', '需求 1：分享菜谱', '分享菜谱', null, 'verify', 2],
          ['R-2', '要件 2: レシピの検索', 'レシピの検索', null, 'verify', 1]
        ]
      ]
    ])
    expect(reading.contracts).toEqual(reading.slices.flatMap((slice) => slice.contracts))
    expect(reading.contracts.every(({contract}) => contract.slice !== null && contract.steps.length === 0)).toBe(true)
  })

  it('reports every folder and requirement it could not read, with its file and line', async () => {
    const {problems} = await kiro.read(garden, verify)
    expect(problems.map((problem) => [path.relative(specs, problem.file), problem.line, problem.message])).toEqual([
      // A requirement in the README of specs/ is in no feature; the one in its fenced example is none.
      ['README.md', 11, 'Unexpected requirement in a file of specs/ itself, expected it in specs/<feature>/requirements.md, a feature folder of its own'],
      [
        'empty-idea',
        null,
        'Unexpected feature folder without requirements.md, expected `requirements.md` with `### Requirement 1` headings, each with its `#### Acceptance Criteria` list (or `bugfix.md` for a bugfix spec); the folder is not read'
      ],
      [
        'garden-watering/requirements.md',
        38,
        'Unexpected paragraph under the acceptance criteria of Requirement 3 – Water usage report, expected list items, one criterion each'
      ],
      [
        'garden-watering/requirements.md',
        40,
        'Unexpected requirement without acceptance criteria (Requirement 4 — Frost guard), expected an `#### Acceptance Criteria` list under it, one item per criterion (`1. WHEN … THEN the system SHALL …`)'
      ],
      [
        'notes-draft/requirements.md',
        null,
        'Unexpected requirements.md without a requirement, expected `requirements.md` with `### Requirement 1` headings, each with its `#### Acceptance Criteria` list (or `bugfix.md` for a bugfix spec); the folder is not read'
      ]
    ])
  })

  it('reads each acceptance criterion as written, at its place, nested THEN parts with it', async () => {
    const {contracts} = await kiro.read(garden, verify)
    const criteria = (index: number) => contracts[index]!.contract.criteria.map((item) => [item.position.start.line, item.position.start.column, item.text])
    expect(criteria(0)).toEqual([
      [15, 4, 'WHEN the clock reaches the scheduled hour THEN the controller SHALL open the valve of each bed for its set minutes'],
      [16, 4, 'IF the rain sensor reports more than 5 mm in the last day THEN the controller SHALL skip the run and log why'],
      [17, 4, 'WHILE a valve is open THE controller SHALL keep every other valve closed']
    ])
    expect(criteria(1)).toEqual([
      [25, 3, 'WHEN the override button of a bed is pressed THEN the controller SHALL water that bed for two minutes'],
      [26, 3, 'WHEN `stop` is sent THEN the controller SHALL close all valves: within one second and report the bed it stopped']
    ])
    expect(criteria(4)).toEqual([
      [11, 4, '当用户点击分享时，系统应当生成一个链接'],
      [12, 4, '如果链接过期，系统应当提示重新生成']
    ])
    expect(criteria(5)).toEqual([[18, 4, 'ユーザーが材料を入力したとき、システムは一致するレシピを表示しなければならない']])
  })

  it('keeps each requirement’s markdown as written, from its heading to the end of its section', async () => {
    const {contracts} = await kiro.read(garden, verify)
    const frost = contracts[3]!
    expect(frost.file).toBe(path.join(specs, 'garden-watering', 'requirements.md'))
    expect(frost.source).toBe('### Requirement 4 — Frost guard\n\n**User Story:** As a gardener, I want no watering below freezing.')
    expect([frost.contract.position.start, frost.contract.position.end]).toEqual([
      {line: 40, column: 1, offset: frost.contract.headingPosition.start.offset},
      {line: 42, column: 66, offset: (frost.contract.headingPosition.start.offset ?? 0) + frost.source.length}
    ])
    expect(contracts[1]!.source.split('\n')[0]).toBe('### Requirement 2: Manual override')
    expect(contracts[1]!.source.endsWith('  - and report the bed it stopped')).toBe(true)
  })

  it('places the Verification line’s label and tier', async () => {
    const {contracts} = await kiro.read(garden, verify)
    const field = contracts[1]!.contract.fields.find((one) => one.key === 'verification')!
    expect([field.label, field.value, field.labelPosition.start, field.valuePosition?.start, field.valuePosition?.end.column]).toEqual([
      'Verification',
      'auto',
      {line: 21, column: 3, offset: field.labelPosition.start.offset},
      {line: 21, column: 19, offset: field.valuePosition?.start.offset},
      23
    ])
    const criteria = contracts[1]!.contract.fields.find((one) => one.key === 'acceptanceCriteria')!
    expect([criteria.label, criteria.labelPosition.start.line, criteria.items.length, criteria.hasList]).toEqual(['Acceptance Criteria', 23, 2, true])
  })

  it('lists the unticked and in-progress tasks of tasks.md, nested ones and acceptance checks included', async () => {
    const {slices} = await kiro.read(garden, verify)
    const tasksFile = path.join(specs, 'garden-watering', 'tasks.md')
    expect(slices[0]!.openTasks).toEqual([
      {text: '2. Write the scheduler', file: tasksFile, line: 7},
      {text: '2.2 Open and close valves on time', file: tasksFile, line: 9},
      {text: '2.3 Skip a run after rain', file: tasksFile, line: 10},
      {text: 'Pressing the button waters the bed', file: tasksFile, line: 15},
      {text: 'Field test for one week', file: tasksFile, line: 18},
      // Boxes markdown made no list item are tasks all the same; the one in a fenced example is none.
      {text: 'Label every bed', file: tasksFile, line: 23},
      {text: 'Paint the valve box', file: tasksFile, line: 24}
    ])
    // A feature without tasks.md has none open; the tasks of a folder not read are not counted.
    expect(slices.map((slice) => slice.openTasks.length)).toEqual([7, 0])
  })

  it('lists open optional tasks (`- [ ]*`) apart, holding the slice only when the settings say `hold`', async () => {
    const tasks = [
      '# Implementation Plan',
      '',
      '- [x] 1. Build the valve driver',
      '- [ ]* 1.1 Write property tests for the driver',
      '- [x]* 1.2 Write unit tests',
      '- [ ] 2. Wire the schedule',
      '  - [ ]* 2.1 Test the schedule',
      ''
    ].join('\n')
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-kiro-optional-'))
    try {
      await fs.cp(garden, folder, {recursive: true})
      const file = path.join(folder, 'specs', 'garden-watering', 'tasks.md')
      await fs.writeFile(file, tasks)
      const shown = (await kiro.read(folder, verify)).slices.find((slice) => slice.id === 'garden-watering')!
      expect([shown.openTasks, shown.optionalTasks]).toEqual([
        [{text: '2. Wire the schedule', file, line: 6}],
        [
          {text: '1.1 Write property tests for the driver', file, line: 4},
          {text: '2.1 Test the schedule', file, line: 7}
        ]
      ])
      const held = (await kiro.read(folder, {defaultTier: 'verify', optionalTasks: 'hold'})).slices.find((slice) => slice.id === 'garden-watering')!
      expect([held.openTasks.map((task) => task.line), held.optionalTasks]).toEqual([[4, 6, 7], []])
    } finally {
      await fs.rm(folder, {recursive: true, force: true})
    }
  })

  it('reads no feature in `_archived/`, and no problem', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-kiro-archived-'))
    try {
      await fs.cp(garden, folder, {recursive: true})
      await fs.cp(path.join(folder, 'specs', 'garden-watering'), path.join(folder, 'specs', '_archived', 'old-watering'), {recursive: true})
      const before = await kiro.read(garden, verify)
      const after = await kiro.read(folder, verify)
      expect([after.slices.map((slice) => slice.id), after.problems.length]).toEqual([before.slices.map((slice) => slice.id), before.problems.length])
    } finally {
      await fs.rm(folder, {recursive: true, force: true})
    }
  })

  it('gives contracts without a tier the tier the project sets, and the slice that tier', async () => {
    const {slices} = await kiro.read(garden, {defaultTier: 'auto', optionalTasks: 'show'})
    expect(slices[0]!.tier).toBe('auto')
    expect(slices[0]!.contracts.map(({contract}) => [contract.tier, contract.effectiveTier])).toEqual([
      [null, 'auto'],
      ['auto', 'auto'],
      ['verify', 'verify'],
      [null, 'auto']
    ])
  })

  it('throws a ProjectError naming the specs folder when no feature can be read', async () => {
    const unread = path.join(fixtures, 'kiro-unread')
    const error = await kiro.read(unread, verify).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ProjectError)
    expect((error as Error).message).toBe(
      `${path.join(unread, 'specs')}: Unexpected Kiro specs folder with 1 feature folder not in its format (loose-notes), expected specs/<feature>/\`requirements.md\` with \`### Requirement 1\` headings, each with its \`#### Acceptance Criteria\` list (or \`bugfix.md\` for a bugfix spec)`
    )
    const none = await kiro.read(path.join(fixtures, 'md-milestones'), verify).catch((caught: unknown) => caught)
    expect((none as Error).message).toContain('Unexpected Kiro specs folder with no feature folder, expected')
  })
})

describe('readRequirements', () => {
  const read = (text: string) => readRequirements('requirements.md', text, {slice: 'f', defaultTier: 'verify'})

  it('reads criteria after a bold Acceptance Criteria line, and a requirement shown only by its criteria', () => {
    const {contracts, problems} = read(
      ['# Spec', '', '## Login screen', '', '**Acceptance Criteria:**', '', '1. WHEN a user signs in THEN the system SHALL greet them', ''].join('\n')
    )
    expect(contracts.map(({contract}) => [contract.id, contract.label, contract.criteria.map((item) => item.text)])).toEqual([
      [null, 'Login screen', ['WHEN a user signs in THEN the system SHALL greet them']]
    ])
    expect(problems).toEqual([])
    const deeper = read(
      ['# Spec', '', '#### Password reset', '', '##### Acceptance Criteria', '', '- WHEN a link is used twice THEN the system SHALL refuse it', ''].join('\n')
    )
    const named = read(
      [
        '## Requirement 3: Acceptance criteria for exports',
        '',
        'Acceptance criteria are listed below.',
        '',
        '### Acceptance Criteria',
        '',
        '- THE system SHALL export CSV',
        ''
      ].join('\n')
    )
    expect(named.contracts.map(({contract}) => [contract.label, contract.criteria.length])).toEqual([['Requirement 3: Acceptance criteria for exports', 1]])
    expect(deeper.contracts.map(({contract}) => [contract.label, contract.criteria.length])).toEqual([['Password reset', 1]])
  })

  it('reads `REQ-N` requirements with their criteria in a table, one per row, and a note after a list as prose', () => {
    const text = [
      '# Requirements Document', // 1
      '',
      '### REQ-1: Upload files',
      '',
      '#### Acceptance Criteria', // 5
      '',
      '| ID | Criterion |',
      '|----|-----------|',
      '| AC-1.1 | WHEN a file is chosen THE system SHALL upload it |',
      '| AC-1.2 | IF the file is too large THEN THE system SHALL refuse it |', // 10
      '',
      '### REQ-2: Delete files',
      '',
      '#### Acceptance Criteria',
      '', // 15
      '1. WHEN the user deletes a file THE system SHALL remove it',
      '',
      '**Note:** Deleted files stay in the bin for 30 days.',
      '',
      'WHEN the bin is emptied THE system SHALL delete the files for good', // 20
      ''
    ].join('\n')
    const {contracts, problems} = read(text)
    expect(contracts.map(({contract}) => [contract.id, contract.name, contract.criteria.map((item) => [item.text, item.position.start.line])])).toEqual([
      [
        'R-1',
        'Upload files',
        [
          ['WHEN a file is chosen THE system SHALL upload it', 9],
          ['IF the file is too large THEN THE system SHALL refuse it', 10]
        ]
      ],
      ['R-2', 'Delete files', [['WHEN the user deletes a file THE system SHALL remove it', 16]]]
    ])
    // The note is prose; a criterion written as a paragraph is named, never dropped.
    expect(problems).toEqual([
      {
        file: 'requirements.md',
        line: 20,
        message: 'Unexpected paragraph under the acceptance criteria of REQ-2: Delete files, expected list items, one criterion each'
      }
    ])
  })

  it('reads criteria grouped under headings inside a requirement as its own, ends a bold-titled list at the next bold label, and names a lowercase EARS paragraph', () => {
    const text = [
      '# Requirements Document', // 1
      '',
      '### 要件29: パスワードリセット',
      '',
      '#### Request screen', // 5
      '',
      '##### Acceptance Criteria',
      '',
      '1. When a user asks, the system shall send a link',
      '', // 10
      '#### Reset screen',
      '',
      '##### Acceptance Criteria',
      '',
      '1. When the link is opened, the system shall ask for a password', // 15
      '',
      '### Requirement 30: Events',
      '',
      '**Acceptance Criteria:**',
      '', // 20
      '1. WHEN an event is saved THEN the system SHALL list it',
      '',
      '**Event Attributes:**',
      '',
      '- a name', // 25
      '',
      'When an event is full, the system shall close its sign-up'
    ].join('\n')
    const {contracts, problems} = read(text)
    expect(contracts.map(({contract}) => [contract.id, contract.criteria.map((item) => item.position.start.line)])).toEqual([
      ['R-29', [9, 15]],
      ['R-30', [21]]
    ])
    expect(problems).toEqual([])
    const named = read(
      [
        '### Requirement 4: Search',
        '',
        '#### Acceptance Criteria',
        '',
        '1. When a word is typed, the system shall list matches',
        '',
        'When nothing matches, the system shall say so',
        ''
      ].join('\n')
    )
    expect(named.problems).toEqual([
      {
        file: 'requirements.md',
        line: 7,
        message: 'Unexpected paragraph under the acceptance criteria of Requirement 4: Search, expected list items, one criterion each'
      }
    ])
  })

  it('reads requirements in a language it has no words for by the template’s structure, learning the criteria title', () => {
    const text = [
      '# Tài liệu yêu cầu',
      '',
      '## Yêu cầu',
      '',
      '### Yêu cầu 1: Đăng nhập',
      '',
      '**Câu chuyện:** Là người dùng, tôi muốn đăng nhập.',
      '',
      '#### Tiêu chí chấp nhận',
      '',
      '1. KHI người dùng nhập mật khẩu đúng THÌ hệ thống PHẢI cho vào',
      '2. NẾU sai THÌ hệ thống PHẢI báo lỗi',
      '',
      '### Yêu cầu 2',
      '',
      '#### Tiêu chí chấp nhận',
      '',
      '- KHI hết phiên THÌ hệ thống PHẢI đăng xuất',
      ''
    ].join('\n')
    const {contracts, problems} = read(text)
    expect(contracts.map(({contract}) => [contract.id, contract.name, contract.criteria.map((item) => item.position.start.line)])).toEqual([
      ['R-1', 'Đăng nhập', [11, 12]],
      ['R-2', 'Yêu cầu 2', [18]]
    ])
    expect(problems).toEqual([])
    // Numbered headings without a sub-heading and a list make no requirement: tasks and phases are not.
    expect(read(['# Kế hoạch', '', '## Giai đoạn 1', '', '- làm việc A', ''].join('\n')).contracts).toEqual([])
  })

  it('reports criteria under no requirement, and a second requirement of one number', () => {
    const text = [
      '# Spec',
      '',
      '#### Acceptance Criteria',
      '',
      '- stray',
      '',
      '## Requirement 1',
      '',
      '### Acceptance Criteria',
      '',
      '- one',
      '',
      '## Requirement 1: Again',
      '',
      '### Acceptance Criteria',
      '',
      '- two',
      ''
    ].join('\n')
    expect(read(text).problems).toEqual([
      {file: 'requirements.md', line: 3, message: 'Unexpected acceptance criteria outside a requirement, expected them under a `### Requirement N` heading'},
      {
        file: 'requirements.md',
        line: 13,
        message: 'Unexpected second requirement numbered 1 (Requirement 1: Again), the number of the requirement at line 7; expected a number of its own'
      }
    ])
  })

  it('reports a requirement heading markdown hid, and skips one in a fenced example', () => {
    const text = [
      '# Spec',
      '',
      '- ### Requirement 1: In a list',
      '',
      '> ## Requirement 2',
      '',
      '###Requirement 3',
      '',
      '```markdown',
      '### Requirement 4',
      '```',
      '',
      '    ### Requirement 5',
      ''
    ].join('\n')
    expect(read(text)).toEqual({
      contracts: [],
      problems: [
        {
          file: 'requirements.md',
          line: 3,
          message:
            'Unexpected requirement heading `### Requirement 1: In a list` inside a list item, expected a heading the reader sees: move the heading out of the list (no list marker)'
        },
        {
          file: 'requirements.md',
          line: 5,
          message:
            'Unexpected requirement heading `## Requirement 2` inside a block quote, expected a heading the reader sees: move the heading out of the quote (no `>`)'
        },
        {
          file: 'requirements.md',
          line: 7,
          message:
            'Unexpected requirement heading `###Requirement 3` without a space after the `#`, expected a heading the reader sees: add a space after the `#`'
        },
        {
          file: 'requirements.md',
          line: 13,
          message: 'Unexpected requirement heading `### Requirement 5` in indented code, expected a heading the reader sees: remove the indentation'
        }
      ]
    })
  })

  it('reports a requirement heading behind any prefix that keeps it from being a heading, never reading it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('- ', '* ', '1. ', '> ', '    ', '\t', '<div>', '> - '),
        fc.integer({min: 1, max: 6}),
        fc.integer({min: 1, max: 99}),
        (prefix, level, number) => {
          const {contracts, problems} = read(
            ['# Spec', '', `${prefix}${'#'.repeat(level)} Requirement ${number}`, '', '#### Acceptance Criteria', ''].join('\n')
          )
          expect(contracts).toEqual([])
          expect(problems.map((problem) => [problem.line, problem.message.startsWith('Unexpected requirement heading')])).toEqual([[3, true]])
        }
      )
    )
  })

  it('reads every criteria section of a requirement, headings inside one as titles, and a level-1 Requirement heading', () => {
    const text = [
      '# Requirement 9',
      '',
      '## Acceptance Criteria',
      '',
      '### On success',
      '',
      '- THE system SHALL save',
      '',
      '## Acceptance Criteria (continued)',
      '',
      '- THE system SHALL log',
      ''
    ].join('\n')
    const {contracts, problems} = read(text)
    expect(
      contracts.map(({contract}) => [
        contract.id,
        contract.criteria.map((item) => [item.position.start.line, item.text]),
        contract.fields.map((field) => field.label)
      ])
    ).toEqual([
      [
        'R-9',
        [
          [7, 'THE system SHALL save'],
          [11, 'THE system SHALL log']
        ],
        ['Acceptance Criteria', 'Acceptance Criteria (continued)']
      ]
    ])
    expect(problems).toEqual([])
  })

  it('keeps a tier that is not valid as written, read as verify', () => {
    const {contracts} = read(
      ['## Requirement 7', '', '**Verification:** sometimes', '', '### Acceptance Criteria', '', '- THE system SHALL log', ''].join('\n')
    )
    expect([contracts[0]!.contract.tier, contracts[0]!.contract.effectiveTier]).toEqual(['sometimes', 'verify'])
    const tierOf = (line: string) =>
      read(['## Requirement 1', '', line, '', '### Acceptance Criteria', '', '- THE system SHALL log', ''].join('\n')).contracts[0]!.contract.tier
    expect(['**Verification**: auto', '__Verification:__ `manual`', 'Verification: verify', '**Verification:** Manual'].map(tierOf)).toEqual([
      'auto',
      'verify',
      'verify',
      'verify'
    ])
  })

  it('reads a requirement heading at any level, with any separator and title, and each of its criteria', () => {
    const separators = [':', ' :', ' –', ' —', ' -', '.', ' ']
    fc.assert(
      fc.property(
        fc.integer({min: 2, max: 5}),
        fc.integer({min: 1, max: 999}),
        fc.constantFrom(...separators),
        fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}[a-z]$/), {nil: null}),
        fc.constantFrom('Requirement', 'requirement', 'REQUIREMENT'),
        fc.array(fc.stringMatching(/^[A-Za-z][a-z ]{0,30}[a-z]$/), {minLength: 1, maxLength: 6}),
        fc.constantFrom('1.', '-', '*', '+', '1)'),
        (level, number, separator, title, word, criteria, bullet) => {
          const heading = title === null ? `${word} ${number}` : `${word} ${number}${separator} ${title}`
          const lines = [
            '# Requirements Document',
            '',
            `${'#'.repeat(level)} ${heading}`,
            '',
            `${'#'.repeat(level + 1)} Acceptance Criteria`,
            '',
            ...criteria.map((text) => `${bullet} WHEN ${text} THEN the system SHALL act`)
          ]
          const {contracts, problems} = read(lines.join('\n') + '\n')
          expect(problems).toEqual([])
          expect(contracts.map(({contract}) => [contract.id, contract.label, contract.name, contract.headingPosition.start.line])).toEqual([
            [`R-${number}`, heading.replace(/\s+/g, ' '), title === null ? heading : title.trim().replace(/\s+/g, ' '), 3]
          ])
          expect(contracts[0]!.contract.criteria.map((item) => [item.text, item.position.start.line])).toEqual(
            criteria.map((text, index) => [`WHEN ${text.trim().replace(/\s+/g, ' ')} THEN the system SHALL act`, 7 + index])
          )
        }
      )
    )
  })
})

describe('readBugfix', () => {
  it('reads a bugfix spec: the expected and the unchanged behavior as contracts, each numbered statement a criterion at its line; the defect none', () => {
    const text = [
      '# Bugfix Requirements Document', // 1
      '',
      '## Bug Analysis',
      '',
      '### Current Behavior (Defect)', // 5
      '',
      '1.1 WHEN a tray is saved THEN the system loses its label',
      '',
      '### Expected Behavior (Correct)',
      '', // 10
      '2.1 WHEN a tray is saved THEN the system SHALL keep its label',
      '2.2 WHEN a tray is renamed THEN the system SHALL show the new label',
      '  on every list',
      '',
      '### Unchanged Behavior (Regression Prevention)', // 15
      '',
      '3.1 WHEN a tray is deleted THEN the system SHALL CONTINUE TO remove it',
      ''
    ].join('\n')
    const {contracts, problems} = readBugfix('bugfix.md', text, {slice: 'tray-label-fix', defaultTier: 'verify'})
    expect(problems).toEqual([])
    expect(
      contracts.map(({contract}) => [
        contract.label,
        contract.headingPosition.start.line,
        contract.slice,
        contract.effectiveTier,
        contract.criteria.map((item) => [item.text, item.position.start.line])
      ])
    ).toEqual([
      [
        'Expected behavior',
        9,
        'tray-label-fix',
        'verify',
        [
          ['WHEN a tray is saved THEN the system SHALL keep its label', 11],
          ['WHEN a tray is renamed THEN the system SHALL show the new label on every list', 12]
        ]
      ],
      ['Unchanged behavior', 15, 'tray-label-fix', 'verify', [['WHEN a tray is deleted THEN the system SHALL CONTINUE TO remove it', 17]]]
    ])
    expect(
      readBugfix('bugfix.md', '# Bugfix Requirements Document\n\n## Introduction\n\nTrays lose labels.\n', {slice: 'f', defaultTier: 'verify'}).problems
    ).toEqual([
      {
        file: 'bugfix.md',
        line: null,
        message:
          'Unexpected bugfix.md without expected behavior, expected `### Expected Behavior (Correct)` with numbered statements such as `2.1 WHEN … THEN the system SHALL …`'
      }
    ])
  })

  it('reads a bugfix spec folder as a slice, beside feature folders', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-kiro-bugfix-'))
    try {
      await fs.cp(garden, folder, {recursive: true})
      await fs.mkdir(path.join(folder, 'specs', 'tray-label-fix'))
      await fs.writeFile(
        path.join(folder, 'specs', 'tray-label-fix', 'bugfix.md'),
        '# Bugfix Requirements Document\n\n### Expected Behavior (Correct)\n\n2.1 WHEN a tray is saved THEN the system SHALL keep its label\n'
      )
      await fs.writeFile(path.join(folder, 'specs', 'tray-label-fix', 'tasks.md'), '- [ ] 1. Keep the label\n')
      const {slices} = await kiro.read(folder, verify)
      const fix = slices.find((slice) => slice.id === 'tray-label-fix')!
      expect([fix.contracts.map(({contract}) => contract.label), fix.openTasks.map((task) => task.line)]).toEqual([['Expected behavior'], [1]])
    } finally {
      await fs.rm(folder, {recursive: true, force: true})
    }
  })
})

describe('readTasks', () => {
  it('ends a task’s text where a line with a box of its own starts, and reads that line as a task', () => {
    const tasks = readTasks('tasks.md', ['- [x] Order spare', '  valves for winter', '[ ] Label every bed', '', '- [a] option a is text', ''].join('\n'))
    expect(tasks.map((task) => [task.line, task.mark, task.text])).toEqual([
      [1, 'x', 'Order spare valves for winter'],
      [3, ' ', 'Label every bed']
    ])
  })

  it('reads a checkbox of any mark, bullet and depth as one task, done only when ticked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            mark: fc.constantFrom(' ', 'x', 'X', '-', '~'),
            optional: fc.boolean(),
            bullet: fc.constantFrom('-', '*', '+', '1.'),
            depth: fc.integer({min: 0, max: 2}),
            id: fc.option(fc.stringMatching(/^\d{1,2}(\.\d)?$/), {nil: null})
          }),
          {minLength: 1, maxLength: 8}
        ),
        (tasks) => {
          // Each task nests at most one level below the one before it, as lists nest.
          let depth = 0
          const shaped = tasks.map((task, index) => {
            depth = index === 0 ? 0 : Math.min(task.depth, depth + 1)
            return {...task, depth}
          })
          // Kiro's optional task has a `*` right after its box.
          const lines = shaped.map(
            (task, index) =>
              `${'    '.repeat(task.depth)}${task.bullet} [${task.mark}]${task.optional ? '*' : ''} ${task.id === null ? '' : task.id + ' '}Task number ${index}`
          )
          const read = readTasks('tasks.md', ['# Plan', '', ...lines].join('\n'))
          expect(read.map((task) => [task.line, task.mark, task.done, task.optional, task.text])).toEqual(
            shaped.map((task, index) => [
              index + 3,
              task.mark,
              task.mark === 'x' || task.mark === 'X',
              task.optional,
              `${task.id === null ? '' : task.id + ' '}Task number ${index}`
            ])
          )
        }
      )
    )
  })
})

describe('kiro.archived', () => {
  it('is a feature moved into a folder of specs/ named with a leading `_`', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-kiro-archived-'))
    try {
      await fs.mkdir(path.join(dir, 'specs', '_archived', 'old-watering'), {recursive: true})
      await fs.mkdir(path.join(dir, 'specs', 'garden-watering'), {recursive: true})
      expect(await Promise.all(['old-watering', 'garden-watering'].map((id) => kiro.archived!(dir, id)))).toEqual([true, false])
    } finally {
      await fs.rm(dir, {recursive: true, force: true})
    }
  })
})
