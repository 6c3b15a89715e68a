import type {ContractItem, ContractProblem} from '@verification-tiers/contracts'
import {describe, expect, it} from 'vitest'
import {analyze, cover, fieldSummary, itemSummary, span} from './helpers.js'

function problemSummary(problem: ContractProblem) {
  return {
    kind: problem.kind,
    subject: problem.subject,
    part: problem.part,
    actual: problem.actual,
    expected: problem.expected,
    place: span(problem.place)
  }
}

const exportCsv = [
  '---', // 1
  'id: C-06', // 2
  'contract: ExportCsv', // 3
  'slice: S-02', // 4
  'verification: verify', // 5
  'acceptance-criteria:', // 6
  '  - \'Clicking "Export" downloads campaigns.csv -- verified by: `npm run e2e -- export`\'', // 7
  '  - text: Amounts use the account currency', // 8
  '    verify:', // 9
  '      method: bash', // 10
  '      command: npm test -- currency', // 11
  '      timeout: 30', // 12
  '  - text: The file opens in a spreadsheet', // 13
  '    verify: {method: manual}', // 14
  '  - ""', // 15
  'steps:', // 16
  '  - Open /campaigns and click "Export"', // 17
  '---', // 18
  '', // 19
  '# C-06: ExportCsv', // 20
  '', // 21
  '**Boundary:** Export button -> CSV download', // 22
  ''
]

describe.each([
  ['LF', '\n'],
  ['CRLF', '\r\n']
])('YAML frontmatter (%s)', (_, eol) => {
  const source = exportCsv.join(eol)

  it('reads one contract, merging the body heading into it', () => {
    const {contracts, problems} = analyze(source)
    expect(problems).toEqual([])
    expect(contracts.length).toBe(1)
    const [contract] = contracts
    expect(contract).toMatchObject({
      id: 'C-06',
      name: 'ExportCsv',
      label: 'C-06 ExportCsv',
      dialect: 'frontmatter',
      tier: 'verify',
      effectiveTier: 'verify',
      slice: 'S-02',
      sliceHeading: null
    })
    expect(span(contract!.position)).toBe('1:1-22:44')
    // The `contract` entry starts it.
    expect(span(contract!.headingPosition)).toBe('3:1-3:20')
    expect(cover(source, contract!.headingPosition)).toBe('contract: ExportCsv')
  })

  it('maps field positions into the YAML, offset by the frontmatter node', () => {
    const [contract] = analyze(source).contracts
    expect(contract!.fields.map(fieldSummary)).toEqual([
      {
        key: 'id',
        label: 'id',
        expectedLabel: 'id',
        value: 'C-06',
        dialect: 'frontmatter',
        position: '2:1-2:9',
        labelPosition: '2:1-2:3',
        valuePosition: '2:5-2:9',
        items: 0,
        hasList: false
      },
      {
        key: 'contract',
        label: 'contract',
        expectedLabel: 'contract',
        value: 'ExportCsv',
        dialect: 'frontmatter',
        position: '3:1-3:20',
        labelPosition: '3:1-3:9',
        valuePosition: '3:11-3:20',
        items: 0,
        hasList: false
      },
      {
        key: 'slice',
        label: 'slice',
        expectedLabel: 'slice',
        value: 'S-02',
        dialect: 'frontmatter',
        position: '4:1-4:12',
        labelPosition: '4:1-4:6',
        valuePosition: '4:8-4:12',
        items: 0,
        hasList: false
      },
      {
        key: 'verification',
        label: 'verification',
        expectedLabel: 'verification',
        value: 'verify',
        dialect: 'frontmatter',
        position: '5:1-5:21',
        labelPosition: '5:1-5:13',
        valuePosition: '5:15-5:21',
        items: 0,
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'acceptance-criteria',
        expectedLabel: 'acceptance_criteria',
        value: '',
        dialect: 'frontmatter',
        position: '6:1-15:7',
        labelPosition: '6:1-6:20',
        valuePosition: null,
        items: 3,
        hasList: true
      },
      {
        key: 'steps',
        label: 'steps',
        expectedLabel: 'steps',
        value: '',
        dialect: 'frontmatter',
        position: '16:1-17:39',
        labelPosition: '16:1-16:6',
        valuePosition: null,
        items: 1,
        hasList: true
      },
      {
        key: 'boundary',
        label: 'Boundary',
        expectedLabel: 'Boundary',
        value: 'Export button -> CSV download',
        dialect: 'bold',
        position: '22:1-22:44',
        labelPosition: '22:3-22:11',
        valuePosition: '22:15-22:44',
        items: 0,
        hasList: false
      }
    ])
    const [id, , slice, verification] = contract!.fields
    expect(cover(source, id!.labelPosition)).toBe('id')
    expect(cover(source, id!.valuePosition!)).toBe('C-06')
    expect(cover(source, slice!.valuePosition!)).toBe('S-02')
    expect(cover(source, verification!.position)).toBe('verification: verify')
  })

  it('reads items as strings and as `{text, verify: {method, command, timeout}}`, dropping empty ones', () => {
    const [contract] = analyze(source).contracts
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {
        text: 'Clicking "Export" downloads campaigns.csv',
        position: '7:5-7:88',
        check: {method: 'bash', command: 'npm run e2e -- export', timeout: null}
      },
      {
        text: 'Amounts use the account currency',
        position: '8:5-12:18',
        check: {method: 'bash', command: 'npm test -- currency', timeout: 30}
      },
      {
        text: 'The file opens in a spreadsheet',
        position: '13:5-14:29',
        check: {method: 'manual', command: null, timeout: null}
      }
    ])
    expect(cover(source, contract!.criteria[0]!.position)).toBe('\'Clicking "Export" downloads campaigns.csv -- verified by: `npm run e2e -- export`\'')
    expect(cover(source, contract!.criteria[2]!.position)).toBe(['text: The file opens in a spreadsheet', '    verify: {method: manual}'].join(eol))
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'Open /campaigns and click "Export"', position: '17:5-17:39', check: null}])
    expect(cover(source, contract!.steps[0]!.position)).toBe('Open /campaigns and click "Export"')
  })
})

describe('YAML frontmatter', () => {
  it('merges a `Contract: Name` body heading into a frontmatter contract without id', () => {
    const source = ['---', 'contract: Importer', 'verification: auto', '---', '', '# Contract: Importer', '', '## Contract: Other', ''].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems).toEqual([])
    expect(
      contracts.map((contract) => ({
        id: contract.id,
        name: contract.name,
        label: contract.label,
        dialect: contract.dialect,
        tier: contract.tier,
        position: span(contract.position),
        headingPosition: span(contract.headingPosition),
        fields: contract.fields.length
      }))
    ).toEqual([
      {
        id: null,
        name: 'Importer',
        label: 'Importer',
        dialect: 'frontmatter',
        tier: 'auto',
        position: '1:1-6:21',
        headingPosition: '2:1-2:19',
        fields: 2
      },
      {
        id: null,
        name: 'Other',
        label: 'Other',
        dialect: 'bold',
        tier: null,
        position: '8:1-8:19',
        headingPosition: '8:1-8:19',
        fields: 0
      }
    ])
  })

  it('keeps a different body contract apart, after the frontmatter one', () => {
    const source = [
      '---', // 1
      'id: C-41', // 2
      'verification: auto', // 3
      '---', // 4
      '', // 5
      'Intro paragraph.', // 6
      '', // 7
      '## C-42: Second', // 8
      '**Verification:** verify', // 9
      '**Steps:**', // 10
      '- go', // 11
      ''
    ].join('\n')
    const {contracts} = analyze(source)
    expect(
      contracts.map((contract) => [
        contract.label,
        contract.dialect,
        contract.tier,
        span(contract.position),
        span(contract.headingPosition),
        contract.steps.length
      ])
    ).toEqual([
      ['C-41', 'frontmatter', 'auto', '1:1-6:17', '2:1-2:9', 0],
      ['C-42 Second', 'bold', 'verify', '8:1-11:5', '8:1-8:16', 1]
    ])
  })

  it('ignores frontmatter that is no contract, and reads the body', () => {
    const source = ['---', 'title: Dashboard', 'tags: [a, b]', '---', '', '### C-40: Body', '**Verification:** auto', ''].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems).toEqual([])
    expect(contracts.map((contract) => [contract.label, contract.dialect, contract.tier, span(contract.position)])).toEqual([
      ['C-40 Body', 'bold', 'auto', '6:1-7:23']
    ])
  })

  it('reports fields of the wrong shape and still reads what it can', () => {
    const source = [
      '---', // 1
      'id: C-43', // 2
      'contract: Shapes', // 3
      'verification: [auto]', // 4
      "steps: 'Open the page -- verified by: manual'", // 5
      'acceptance_criteria:', // 6
      '  - [nested, list]', // 7
      "  - text: ''", // 8
      '  - ok', // 9
      'dependencies: [C-01, C-02]', // 10
      '---', // 11
      ''
    ].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems.map(problemSummary)).toEqual([
      {kind: 'field-shape', subject: 'verification', part: 'field', actual: 'a list', expected: 'text', place: '4:1-4:21'},
      {kind: 'field-shape', subject: 'steps', part: 'field', actual: 'text', expected: 'a list', place: '5:8-5:46'},
      {
        kind: 'field-shape',
        subject: 'acceptance_criteria',
        part: 'item',
        actual: 'a list',
        expected: 'a string or `text:`',
        place: '7:5-7:19'
      },
      {
        kind: 'field-shape',
        subject: 'acceptance_criteria',
        part: 'item',
        actual: 'a mapping without `text`',
        expected: 'a string or `text:`',
        place: '8:5-8:13'
      }
    ])
    const [contract] = contracts
    // A present but empty tier is the empty text, not `null`; it counts as `verify`.
    expect(contract!.tier).toBe('')
    expect(contract!.effectiveTier).toBe('verify')
    // A lone string is read as one step, so the contract is not also empty.
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'Open the page', position: '5:8-5:46', check: {method: 'manual', command: null, timeout: null}}])
    expect(contract!.criteria.map(itemSummary)).toEqual([{text: 'ok', position: '9:5-9:7', check: null}])
    const dependencies = contract!.fields.find((field) => field.key === 'dependencies')!
    expect(dependencies.hasList).toBe(true)
    expect(dependencies.items.map((item) => item.text)).toEqual(['C-01', 'C-02'])
    expect(span(contract!.position)).toBe('1:1-11:4')
  })

  it('reads `verify:` checks defensively', () => {
    const source = [
      '---',
      'id: C-45',
      'steps:',
      '  - text: a',
      '    verify: {command: "  "}',
      '  - text: b',
      '    verify: {method: bash, command: make b, timeout: -5}',
      '  - text: c',
      '    verify: {method: manual, timeout: "10"}',
      '  - text: d',
      '    verify: make d',
      '---',
      ''
    ].join('\n')
    const {contracts, problems} = analyze(source)
    const [contract] = contracts
    const check = (item: ContractItem) =>
      item.check && {
        ...item.check,
        invalidTimeout: item.check.invalidTimeout && {text: item.check.invalidTimeout.text, place: span(item.check.invalidTimeout.place)}
      }
    // A timeout that is no number of seconds above 0 and at most a day is kept as written, never dropped for the default.
    expect(contract!.steps.map((item) => [item.text, check(item)])).toEqual([
      ['a', {method: 'bash', command: null, timeout: null}],
      ['b', {method: 'bash', command: 'make b', timeout: null, invalidTimeout: {text: '-5', place: '7:54-7:56'}}],
      ['c', {method: 'manual', command: null, timeout: null, invalidTimeout: {text: '"10"', place: '9:39-9:43'}}],
      ['d', null]
    ])
    const expected = 'a number of seconds above 0 and at most 86400'
    expect(problems.map(problemSummary)).toEqual([
      {kind: 'field-shape', subject: 'timeout', part: 'field', actual: '`-5`', expected, place: '7:54-7:56'},
      {kind: 'field-shape', subject: 'timeout', part: 'field', actual: '`"10"`', expected, place: '9:39-9:43'}
    ])
    expect(contract!.tier).toBeNull()
    expect(contract!.name).toBe('')
    expect(contract!.label).toBe('C-45')
  })

  it('places fields after a lone CR in a YAML string on the lines markdown counts', () => {
    // YAML keeps a lone CR in a quoted string; markdown (and editors) start a new line there.
    const source = ['---', 'id: C-46', 'contract: "Two\rlines"', 'verification: auto', '---', ''].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems).toEqual([])
    const [contract] = contracts
    expect(contract!.fields.map((field) => [field.label, field.value, span(field.labelPosition), span(field.valuePosition)])).toEqual([
      ['id', 'C-46', '2:1-2:3', '2:5-2:9'],
      ['contract', 'Two\rlines', '3:1-3:9', '3:11-4:7'],
      ['verification', 'auto', '5:1-5:13', '5:15-5:19']
    ])
    expect(cover(source, contract!.fields[2]!.valuePosition!)).toBe('auto')
    expect(span(contract!.position)).toBe('1:1-6:4')
  })

  it('reads a lone string as one item whatever it says, with a shape problem; the body’s one-line values are items too', () => {
    const source = [
      '---', // 1
      'id: C-47', // 2
      'verification: verify', // 3
      'steps: None', // 4
      'acceptance_criteria: TBD', // 5
      '---', // 6
      '', // 7
      '# C-47: Lines', // 8
      '', // 9
      '**Steps:** Open the export -- verified by: `npm run e2e`', // 10
      '**Acceptance Criteria:** None', // 11
      ''
    ].join('\n')
    const {contracts, problems} = analyze(source)
    // Frontmatter keeps its own rule: a string where a list belongs is read, and reported.
    expect(problems.map(problemSummary)).toEqual([
      {kind: 'field-shape', subject: 'steps', part: 'field', actual: 'text', expected: 'a list', place: '4:8-4:12'},
      {kind: 'field-shape', subject: 'acceptance_criteria', part: 'field', actual: 'text', expected: 'a list', place: '5:22-5:25'}
    ])
    const [contract, ...rest] = contracts
    expect(rest).toEqual([])
    expect(contract!.steps.map(itemSummary)).toEqual([
      {text: 'None', position: '4:8-4:12', check: null},
      {text: 'Open the export', position: '10:12-10:57', check: {method: 'bash', command: 'npm run e2e', timeout: null}}
    ])
    expect(cover(source, contract!.steps[1]!.position)).toBe('Open the export -- verified by: `npm run e2e`')
    // In the body, `None` says there is nothing.
    expect(contract!.criteria.map(itemSummary)).toEqual([{text: 'TBD', position: '5:22-5:25', check: null}])
    expect(contract!.fields.map((field) => [field.label, field.dialect, field.items.length])).toEqual([
      ['id', 'frontmatter', 0],
      ['verification', 'frontmatter', 0],
      ['steps', 'frontmatter', 1],
      ['acceptance_criteria', 'frontmatter', 1],
      ['Steps', 'bold', 1],
      ['Acceptance Criteria', 'bold', 0]
    ])
  })

  it('places a contract without a `contract` key at its `id` entry', () => {
    const source = ['---', 'slice: S-02', 'id: C-06', '---', ''].join('\n')
    const [contract] = analyze(source).contracts
    expect(span(contract!.headingPosition)).toBe('3:1-3:9')
    expect(cover(source, contract!.headingPosition)).toBe('id: C-06')
  })

  it('reads an empty `verification:` as the empty tier, placed on its key', () => {
    const source = ['---', 'id: C-06', 'contract: ExportCsv', 'verification:', '---', ''].join('\n')
    const [contract] = analyze(source).contracts
    expect([contract!.tier, contract!.effectiveTier]).toEqual(['', 'verify'])
    const verification = contract!.fields.find((one) => one.key === 'verification')!
    expect([verification.value, span(verification.labelPosition), verification.valuePosition]).toEqual(['', '4:1-4:13', null])
  })

  it('does not take a short key (`it`, `in`, `if`) for `id`', () => {
    const source = ['---', 'it: yes', 'in: S-09', 'if: C-99', 'id: C-48', 'verification: auto', '---', ''].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems).toEqual([])
    const [contract] = contracts
    expect([contract!.id, contract!.label]).toEqual(['C-48', 'C-48'])
    expect(contract!.fields.map((field) => [field.label, field.key, field.expectedLabel])).toEqual([
      ['it', null, null],
      ['in', null, null],
      ['if', null, null],
      ['id', 'id', 'id'],
      ['verification', 'verification', 'verification']
    ])
  })

  it('reports YAML that does not parse, at its place, and reads the body alone', () => {
    const source = ['---', 'id: C-44', 'contract: [Broken', 'verification: verify', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\n')
    const {contracts, problems} = analyze(source)
    expect(problems.map(problemSummary)).toEqual([
      {
        kind: 'yaml-syntax',
        subject: 'frontmatter',
        part: 'field',
        actual: 'Flow sequence in block collection must be sufficiently indented and end with a ]',
        expected: 'valid YAML',
        place: '4:1-4:2'
      }
    ])
    expect(cover(source, problems[0]!.place)).toBe('v')
    expect(contracts.map((contract) => [contract.label, contract.dialect, contract.tier, span(contract.position)])).toEqual([
      ['C-44 Broken', 'bold', 'auto', '7:1-9:23']
    ])
  })
})
