import {describe, expect, it} from 'vitest'
import {cover, field, fieldWithItems, itemSummary, read, span, unreadSummary} from './helpers.js'

const fenced = [
  '## S-01: Blocks', // 1
  '', // 2
  '### C-20: Fenced', // 3
  '', // 4
  '```text', // 5
  'Verification: auto', // 6
  'Acceptance Criteria:', // 7
  '  - one -- verified by: `make one`', // 8
  '  -', // 9
  '    text of a bare marker, on the next line', // 10
  '  * two', // 11
  '  3. three', // 12
  'Boundary: free text', // 13 (a known field: it ends the list; an unknown label here would wrap the item)
  'Random line with no colon', // 14
  '  - orphan item after a non-field line', // 15
  'Steps:', // 16
  '  - s1', // 17
  'Acceptance Criteria:', // 18
  '  - four', // 19
  '```', // 20
  '', // 21
  '```typescript', // 22
  'interface Props {', // 23
  '  verification: string', // 24
  '}', // 25
  '```', // 26
  ''
].join('\n')

describe('fenced `Field: value` blocks', () => {
  it('reads only unindented lines as fields, `- ` lines under them as items', () => {
    const [contract, ...rest] = read(fenced)
    expect(rest).toEqual([])
    expect(contract!.dialect).toBe('fenced')
    expect(contract!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'auto',
        dialect: 'fenced',
        position: '6:1-6:19',
        labelPosition: '6:1-6:13',
        valuePosition: '6:15-6:19',
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '7:1-12:11',
        labelPosition: '7:1-7:20',
        valuePosition: null,
        items: ['one', 'text of a bare marker, on the next line', 'two', 'three'],
        hasList: true
      },
      {
        key: 'boundary',
        label: 'Boundary',
        expectedLabel: 'Boundary',
        value: 'free text',
        dialect: 'fenced',
        position: '13:1-13:20',
        labelPosition: '13:1-13:9',
        valuePosition: '13:11-13:20',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '16:1-17:7',
        labelPosition: '16:1-16:6',
        valuePosition: null,
        items: ['s1'],
        hasList: true
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '18:1-19:9',
        labelPosition: '18:1-18:20',
        valuePosition: null,
        items: ['four'],
        hasList: true
      }
    ])
  })

  it('aggregates criteria of duplicate fields, with exact item positions and checks', () => {
    const contract = read(fenced)[0]!
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'one', position: '8:5-8:35', check: {method: 'bash', command: 'make one', timeout: null}},
      {text: 'text of a bare marker, on the next line', position: '10:5-10:44', check: null},
      {text: 'two', position: '11:5-11:8', check: null},
      {text: 'three', position: '12:6-12:11', check: null},
      {text: 'four', position: '19:5-19:9', check: null}
    ])
    expect(cover(fenced, contract.criteria[0]!.position)).toBe('one -- verified by: `make one`')
    expect(cover(fenced, contract.criteria[3]!.position)).toBe('three')
    expect(contract.steps.map(itemSummary)).toEqual([{text: 's1', position: '17:5-17:7', check: null}])
    expect(contract.tier).toBe('auto')
    expect(contract.effectiveTier).toBe('auto')
  })

  it('is not a contract block without a known field (a TypeScript interface)', () => {
    const contract = read(fenced)[0]!
    // The interface's `verification: string` is indented, and `interface Props {` names no field.
    expect(contract.fields.some((one) => one.label === 'verification')).toBe(false)
    expect(span(contract.position)).toBe('3:1-26:4')
    const unknownOnly = read(['### C-21: Yaml', '', '```yaml', 'name: build', 'runs-on: ubuntu', '```', ''].join('\n'))[0]!
    expect(unknownOnly.fields).toEqual([])
    // A near miss alone does not make a block a contract block either.
    const nearMissOnly = read(['### C-22: Near', '', '```', 'Acceptence Criteria:', '  - a', '```', ''].join('\n'))[0]!
    expect(nearMissOnly.fields).toEqual([])
  })

  it('reads a block that names a known field among unknown ones, near misses resolved', () => {
    const value = ['### C-23: Mixed', '', '~~~', 'Owner: ops', 'Verfication: verify', 'Slice: S-04', '~~~', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: null,
        label: 'Owner',
        expectedLabel: null,
        value: 'ops',
        dialect: 'fenced',
        position: '4:1-4:11',
        labelPosition: '4:1-4:6',
        valuePosition: '4:8-4:11',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verfication',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '5:1-5:20',
        labelPosition: '5:1-5:12',
        valuePosition: '5:14-5:20',
        items: [],
        hasList: false
      },
      {
        key: 'slice',
        label: 'Slice',
        expectedLabel: 'Slice',
        value: 'S-04',
        dialect: 'fenced',
        position: '6:1-6:12',
        labelPosition: '6:1-6:6',
        valuePosition: '6:8-6:12',
        items: [],
        hasList: false
      }
    ])
    expect(contract.tier).toBe('verify')
    expect(contract.slice).toBe('S-04')
  })

  it('leaves indented code alone', () => {
    const value = ['### C-24: Indented', '', '    Verification: auto', '    Steps:', '      - x', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields).toEqual([])
    expect(contract.tier).toBeNull()
  })

  it('reads a fenced block inside a list item with exact columns', () => {
    const value = [
      '### C-25: InList', // 1
      '', // 2
      '- The contract, in a list:', // 3
      '', // 4
      '  ```', // 5
      '  Verification: verify', // 6
      '  Steps:', // 7
      '    - open it', // 8
      '  ```', // 9
      '', // 10
      '> ```', // 11
      '> Slice: S-05', // 12
      '> ```', // 13
      ''
    ].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '6:3-6:23',
        labelPosition: '6:3-6:15',
        valuePosition: '6:17-6:23',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '7:3-8:14',
        labelPosition: '7:3-7:8',
        valuePosition: null,
        items: ['open it'],
        hasList: true
      },
      {
        key: 'slice',
        label: 'Slice',
        expectedLabel: 'Slice',
        value: 'S-05',
        dialect: 'fenced',
        position: '12:3-12:14',
        labelPosition: '12:3-12:8',
        valuePosition: '12:10-12:14',
        items: [],
        hasList: false
      }
    ])
    expect(cover(value, contract.fields[0]!.labelPosition)).toBe('Verification')
    expect(cover(value, contract.steps[0]!.position)).toBe('open it')
    expect(span(contract.steps[0]!.position)).toBe('8:7-8:14')
    expect(cover(value, contract.fields[2]!.valuePosition!)).toBe('S-05')
    expect(contract.slice).toBe('S-05')
    expect(span(contract.position)).toBe('1:1-13:6')
  })

  it('reads a one-line criteria or steps value as one item, unless it says nothing', () => {
    const value = [
      '### C-27: OneLine', // 1
      '', // 2
      '```', // 3
      'Verification: verify', // 4
      'Acceptance Criteria: A grey badge -- verified by: `npm test -- badge`', // 5
      'Steps: Open /campaigns', // 6
      'Steps: N/A', // 7
      'Acceptance Criteria: see below', // 8
      '  - listed', // 9
      '```', // 10
      ''
    ].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldWithItems).slice(1)).toEqual([
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: 'A grey badge -- verified by: `npm test -- badge`',
        dialect: 'fenced',
        position: '5:1-5:70',
        labelPosition: '5:1-5:20',
        valuePosition: '5:22-5:70',
        items: ['A grey badge'],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: 'Open /campaigns',
        dialect: 'fenced',
        position: '6:1-6:23',
        labelPosition: '6:1-6:6',
        valuePosition: '6:8-6:23',
        items: ['Open /campaigns'],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: 'N/A',
        dialect: 'fenced',
        position: '7:1-7:11',
        labelPosition: '7:1-7:6',
        valuePosition: '7:8-7:11',
        items: [],
        hasList: false
      },
      {
        // A value with items under it: the items, not the value.
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: 'see below',
        dialect: 'fenced',
        position: '8:1-9:11',
        labelPosition: '8:1-8:20',
        valuePosition: '8:22-8:31',
        items: ['listed'],
        hasList: true
      }
    ])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'A grey badge', position: '5:22-5:70', check: {method: 'bash', command: 'npm test -- badge', timeout: null}},
      {text: 'listed', position: '9:5-9:11', check: null}
    ])
    expect(cover(value, contract.criteria[0]!.position)).toBe('A grey badge -- verified by: `npm test -- badge`')
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'Open /campaigns', position: '6:8-6:23', check: null}])
    expect(cover(value, contract.steps[0]!.position)).toBe('Open /campaigns')
  })

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r']
  ])('reads a fenced block in a %s document with exact columns', (_, eol) => {
    const value = ['### C-26: Crlf', '', '```', 'Verification: `verify`', 'Steps:', '  - s1', '```', ''].join(eol)
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: '`verify`',
        dialect: 'fenced',
        position: '4:1-4:23',
        labelPosition: '4:1-4:13',
        valuePosition: '4:15-4:23',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '5:1-6:7',
        labelPosition: '5:1-5:6',
        valuePosition: null,
        items: ['s1'],
        hasList: true
      }
    ])
    expect(contract.tier).toBe('verify')
    expect(cover(value, contract.steps[0]!.position)).toBe('s1')
  })

  it('keeps text under an empty criteria or steps label as unread paragraphs, split at blank lines and ended by the next label', () => {
    const value = [
      '### C-28: Unread', // 1
      '', // 2
      '```', // 3
      'Verification: verify', // 4
      'Acceptance Criteria:', // 5
      'A paused campaign', // 6
      'shows a grey badge', // 7
      '', // 8
      'It says Paused', // 9
      'Steps:', // 10
      'Acceptance Criteria:', // 11
      '  - A grey badge', // 12
      '```', // 13
      ''
    ].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map((one) => [one.label, one.unread.map(unreadSummary)])).toEqual([
      ['Verification', []],
      [
        'Acceptance Criteria',
        [
          {kind: 'paragraph', text: 'A paused campaign shows a grey badge', position: '6:1-7:19'},
          {kind: 'paragraph', text: 'It says Paused', position: '9:1-9:15'}
        ]
      ],
      // An empty label right before the next one has no text under it.
      ['Steps', []],
      ['Acceptance Criteria', []]
    ])
    expect(field(contract, 'Steps').items).toEqual([])
    expect(contract.criteria.map((item) => item.text)).toEqual(['A grey badge'])
  })
})

describe('`// ` comment blocks', () => {
  const comment = [
    '### C-30: Comment', // 1
    '', // 2
    '```go', // 3
    '// Contract: FormatSpend', // 4
    '// Verification: auto', // 5
    '//Acceptance Criteria:', // 6
    '//   - c1 -- verified by: `go test ./...`', // 7
    '// acceptance criteria:', // 8
    '//   1. c2', // 9
    '//     wrapped onto the next line', // 10
    '```', // 11
    ''
  ].join('\n')

  it('reads fields behind `// `, with columns after the prefix', () => {
    const contract = read(comment)[0]!
    expect(contract.dialect).toBe('comment')
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'contract',
        label: 'Contract',
        expectedLabel: 'Contract',
        value: 'FormatSpend',
        dialect: 'comment',
        position: '4:4-4:25',
        labelPosition: '4:4-4:12',
        valuePosition: '4:14-4:25',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'auto',
        dialect: 'comment',
        position: '5:4-5:22',
        labelPosition: '5:4-5:16',
        valuePosition: '5:18-5:22',
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'comment',
        position: '6:3-7:42',
        labelPosition: '6:3-6:22',
        valuePosition: null,
        items: ['c1'],
        hasList: true
      },
      {
        key: 'acceptanceCriteria',
        label: 'acceptance criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'comment',
        position: '8:4-10:34',
        labelPosition: '8:4-8:23',
        valuePosition: null,
        items: ['c2 wrapped onto the next line'],
        hasList: true
      }
    ])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'c1', position: '7:8-7:42', check: {method: 'bash', command: 'go test ./...', timeout: null}},
      {text: 'c2 wrapped onto the next line', position: '9:9-10:34', check: null}
    ])
    expect(cover(comment, contract.criteria[0]!.position)).toBe('c1 -- verified by: `go test ./...`')
    expect(contract.tier).toBe('auto')
    expect(contract.name).toBe('Comment')
  })

  it('reads a one-line value behind `// ` as one item, unless it says nothing', () => {
    const value = ['### C-32: OneLine', '', '```go', '// Verification: verify', '// Steps: Format 12.5 EUR', '// Acceptance Criteria: TBD.', '```', ''].join(
      '\n'
    )
    const contract = read(value)[0]!
    expect(contract.fields.map((one) => [one.label, one.value, one.items.length, span(one.valuePosition)])).toEqual([
      ['Verification', 'verify', 0, '4:18-4:24'],
      ['Steps', 'Format 12.5 EUR', 1, '5:11-5:26'],
      ['Acceptance Criteria', 'TBD.', 0, '6:25-6:29']
    ])
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'Format 12.5 EUR', position: '5:11-5:26', check: null}])
    expect(cover(value, contract.steps[0]!.position)).toBe('Format 12.5 EUR')
    expect(contract.criteria).toEqual([])
  })

  it('is the fenced dialect when one line is not a comment', () => {
    const value = ['### C-31: Mixed', '', '```', '// Verification: auto', 'Verification: verify', '```', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '5:1-5:21',
        labelPosition: '5:1-5:13',
        valuePosition: '5:15-5:21',
        items: [],
        hasList: false
      }
    ])
  })
})
