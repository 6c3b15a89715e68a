import {describe, expect, it} from 'vitest'
import {cover, field, fieldSummary, itemSummary, read, span} from './helpers.js'

const reports = [
  '# Contracts', // 1
  '', // 2
  '## S-03: Reports', // 3
  '', // 4
  '### C-10: ReportList', // 5
  '', // 6
  '**Boundary**: ReportList -> table', // 7
  '**Verification:** `verify`', // 8
  '**Input:** a list of reports, wrapped', // 9
  'over two lines with `code` kept', // 10
  '**Acceptance Criteria:**', // 11
  '1. First criterion -- verified by: `npm test -- reports`', // 12
  '2. Second criterion — verified by: manual', // 13
  '3. Third criterion -- verified by: read the handler and trace it', // 14
  '4.', // 15
  '', // 16
  '**Dependencies:** C-02', // 17
  ''
].join('\n')

describe('bold labels', () => {
  it('reads several labels of one paragraph across soft line breaks', () => {
    const [contract, ...rest] = read(reports)
    expect(rest).toEqual([])
    expect(contract!.fields.map((one) => one.label)).toEqual(['Boundary', 'Verification', 'Input', 'Acceptance Criteria', 'Dependencies'])
    expect(contract!.fields.every((one) => one.dialect === 'bold')).toBe(true)
    expect(contract!.dialect).toBe('bold')
    expect(span(contract!.position)).toBe('5:1-17:23')
    expect(span(contract!.headingPosition)).toBe('5:1-5:21')
  })

  it('reads `**Label**:` with the colon outside the bold', () => {
    const contract = read(reports)[0]!
    expect(fieldSummary(field(contract, 'Boundary'))).toEqual({
      key: 'boundary',
      label: 'Boundary',
      expectedLabel: 'Boundary',
      value: 'ReportList -> table',
      dialect: 'bold',
      position: '7:1-7:34',
      labelPosition: '7:3-7:11',
      valuePosition: '7:15-7:34',
      items: 0,
      hasList: false
    })
    const boundary = field(contract, 'Boundary')
    expect(cover(reports, boundary.labelPosition)).toBe('Boundary')
    expect(cover(reports, boundary.valuePosition!)).toBe('ReportList -> table')
    expect(cover(reports, boundary.position)).toBe('**Boundary**: ReportList -> table')
  })

  it('keeps inline code with its backticks in values and reads `` `verify` `` as verify', () => {
    const contract = read(reports)[0]!
    const verification = field(contract, 'Verification')
    expect(verification.value).toBe('`verify`')
    expect(span(verification.valuePosition)).toBe('8:19-8:27')
    expect(cover(reports, verification.valuePosition!)).toBe('`verify`')
    expect(contract.tier).toBe('verify')
    expect(contract.effectiveTier).toBe('verify')
  })

  it('continues a wrapped value on the next line', () => {
    const input = field(read(reports)[0]!, 'Input')
    expect(fieldSummary(input)).toEqual({
      key: 'input',
      label: 'Input',
      expectedLabel: 'Input',
      value: 'a list of reports, wrapped over two lines with `code` kept',
      dialect: 'bold',
      position: '9:1-10:32',
      labelPosition: '9:3-9:8',
      valuePosition: '9:12-10:32',
      items: 0,
      hasList: false
    })
    expect(cover(reports, input.valuePosition!)).toBe('a list of reports, wrapped\nover two lines with `code` kept')
  })

  it('takes the numbered list after the last label, with checks, dropping empty items', () => {
    const contract = read(reports)[0]!
    const criteria = field(contract, 'Acceptance Criteria')
    expect(fieldSummary(criteria)).toEqual({
      key: 'acceptanceCriteria',
      label: 'Acceptance Criteria',
      expectedLabel: 'Acceptance Criteria',
      value: '',
      dialect: 'bold',
      position: '11:1-15:3',
      labelPosition: '11:3-11:22',
      valuePosition: null,
      items: 3,
      hasList: true
    })
    expect(contract.criteria).toBe(contract.criteria)
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'First criterion', position: '12:4-12:57', check: {method: 'bash', command: 'npm test -- reports', timeout: null}},
      {text: 'Second criterion', position: '13:4-13:42', check: {method: 'manual', command: null, timeout: null}},
      {text: 'Third criterion', position: '14:4-14:65', check: {method: 'manual', command: null, timeout: null}}
    ])
    // An item's position covers what was written, check included.
    expect(cover(reports, contract.criteria[0]!.position)).toBe('First criterion -- verified by: `npm test -- reports`')
    expect(cover(reports, contract.criteria[1]!.position)).toBe('Second criterion — verified by: manual')
    expect(contract.steps).toEqual([])
  })

  it('gives the contract its slice heading and ends it at the end of the document', () => {
    const contract = read(reports)[0]!
    expect(contract).toMatchObject({
      id: 'C-10',
      name: 'ReportList',
      label: 'C-10 ReportList',
      slice: 'S-03',
      sliceHeading: {id: 'S-03', name: 'Reports'}
    })
    expect(fieldSummary(field(contract, 'Dependencies'))).toMatchObject({
      value: 'C-02',
      position: '17:1-17:23',
      labelPosition: '17:3-17:15',
      valuePosition: '17:19-17:23'
    })
  })

  const multi = [
    '### C-11: Multi', // 1
    '', // 2
    '**Slice:** S-07', // 3
    '**Verification:** auto\\', // 4  hard break
    '**Steps:**', // 5
    '- Open `/reports` in a browser', // 6
    '  and wait', // 7
    '-', // 8
    '* a step in another list', // 9  another bullet: another list
    '', // 10
    'Some **bold** text: not a label', // 11
    '**Important** note without a colon', // 12
    '**Warning!:** punctuation is no label', // 13
    '**Owner:** someone', // 14
    '**Acceptance Criteria:** see `spec.md`', // 15
    '- Attached although the label has a value', // 16
    ''
  ].join('\n')

  it('reads a hard break like a soft one, and every list under a label up to the next label', () => {
    const contract = read(multi)[0]!
    expect(contract.fields.map(fieldSummary)).toEqual([
      {
        key: 'slice',
        label: 'Slice',
        expectedLabel: 'Slice',
        value: 'S-07',
        dialect: 'bold',
        position: '3:1-3:16',
        labelPosition: '3:3-3:8',
        valuePosition: '3:12-3:16',
        items: 0,
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'auto',
        dialect: 'bold',
        position: '4:1-4:23',
        labelPosition: '4:3-4:15',
        valuePosition: '4:19-4:23',
        items: 0,
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'bold',
        position: '5:1-9:25',
        labelPosition: '5:3-5:8',
        valuePosition: null,
        items: 2,
        hasList: true
      },
      {
        key: null,
        label: 'Owner',
        expectedLabel: null,
        value: 'someone',
        dialect: 'bold',
        position: '14:1-14:19',
        labelPosition: '14:3-14:8',
        valuePosition: '14:12-14:19',
        items: 0,
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: 'see `spec.md`',
        dialect: 'bold',
        position: '15:1-16:42',
        labelPosition: '15:3-15:22',
        valuePosition: '15:26-15:39',
        items: 1,
        hasList: true
      }
    ])
    expect(contract.steps.map(itemSummary)).toEqual([
      {text: 'Open `/reports` in a browser and wait', position: '6:3-7:11', check: null},
      {text: 'a step in another list', position: '9:3-9:25', check: null}
    ])
    expect(contract.tier).toBe('auto')
    expect(contract.effectiveTier).toBe('auto')
    expect(contract.slice).toBe('S-07')
    expect(contract.sliceHeading).toBeNull()
    expect(span(contract.position)).toBe('1:1-16:42')
  })

  it('attaches the list to a label that has a value too, when the label ends the paragraph', () => {
    const contract = read(multi)[0]!
    expect(contract.criteria.map(itemSummary)).toEqual([{text: 'Attached although the label has a value', position: '16:3-16:42', check: null}])
  })

  it('reads a list after a wrapped value line too, the value its first item', () => {
    const value = ['### C-12: Wrapped', '', '**Steps:** first line', 'second line', '- a list after prose', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldSummary)).toEqual([
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: 'first line second line',
        dialect: 'bold',
        position: '3:1-5:21',
        labelPosition: '3:3-3:8',
        valuePosition: '3:12-4:12',
        items: 2,
        hasList: true
      }
    ])
    // The wrapped value is a step, and so is the list under it: no step is left unread.
    expect(contract.steps.map(itemSummary)).toEqual([
      {text: 'first line second line', position: '3:12-4:12', check: null},
      {text: 'a list after prose', position: '5:3-5:21', check: null}
    ])
    expect(cover(value, contract.steps[0]!.position)).toBe('first line\nsecond line')
    expect(span(contract.position)).toBe('1:1-5:21')
  })

  it('reads a wrapped value that ends with a colon as the intro of the list under it', () => {
    const value = ['### C-12: Wrapped', '', '**Acceptance Criteria:**', 'All of these hold:', '- The total is exact', '- The tax is shown', ''].join('\n')
    expect(read(value)[0]!.criteria.map(itemSummary)).toEqual([
      {text: 'The total is exact', position: '5:3-5:21', check: null},
      {text: 'The tax is shown', position: '6:3-6:19', check: null}
    ])
  })

  it('reads a one-line criteria or steps value as one item at the value, with its check split off', () => {
    const value = [
      '### C-15: OneLine', // 1
      '', // 2
      '**Verification:** verify', // 3
      '**Acceptance Criteria:** Totals include tax -- verified by: `npm test -- tax`', // 4
      '**Steps:** Open `/campaigns`', // 5
      '**Dependencies:** None', // 6
      ''
    ].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldSummary)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'bold',
        position: '3:1-3:25',
        labelPosition: '3:3-3:15',
        valuePosition: '3:19-3:25',
        items: 0,
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: 'Totals include tax -- verified by: `npm test -- tax`',
        dialect: 'bold',
        position: '4:1-4:78',
        labelPosition: '4:3-4:22',
        valuePosition: '4:26-4:78',
        items: 1,
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: 'Open `/campaigns`',
        dialect: 'bold',
        position: '5:1-5:29',
        labelPosition: '5:3-5:8',
        valuePosition: '5:12-5:29',
        items: 1,
        hasList: false
      },
      {
        // Only criteria and steps take a value as an item.
        key: 'dependencies',
        label: 'Dependencies',
        expectedLabel: 'Dependencies',
        value: 'None',
        dialect: 'bold',
        position: '6:1-6:23',
        labelPosition: '6:3-6:15',
        valuePosition: '6:19-6:23',
        items: 0,
        hasList: false
      }
    ])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'Totals include tax', position: '4:26-4:78', check: {method: 'bash', command: 'npm test -- tax', timeout: null}}
    ])
    expect(cover(value, contract.criteria[0]!.position)).toBe('Totals include tax -- verified by: `npm test -- tax`')
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'Open `/campaigns`', position: '5:12-5:29', check: null}])
    expect(cover(value, contract.steps[0]!.position)).toBe('Open `/campaigns`')
    // The item is the field's own: the contract lists the same objects.
    expect(contract.criteria[0]).toBe(field(contract, 'Acceptance Criteria').items[0])
  })

  it('reads a one-line value with the colon outside the bold as an item too', () => {
    const value = '### C-16: Outside\n\n**Steps**: Open /campaigns — verified by: manual\n'
    const contract = read(value)[0]!
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'Open /campaigns', position: '3:12-3:49', check: {method: 'manual', command: null, timeout: null}}])
    expect(cover(value, contract.steps[0]!.position)).toBe('Open /campaigns — verified by: manual')
  })

  it.each(['None', 'none', 'NONE', 'None.', 'N/A', 'n/a', 'N/A.', 'nothing', 'Nothing.', 'TBD', 'tbd.', '-', '—', '—.'])(
    'reads a value that says nothing (%j) as no item',
    (nothing) => {
      const value = ['### C-17: Nothing', '', '**Verification:** verify', `**Acceptance Criteria:** ${nothing}`, `**Steps:** ${nothing}`, ''].join('\n')
      const contract = read(value)[0]!
      expect(contract.fields.map((one) => [one.label, one.value, one.items.length, one.hasList])).toEqual([
        ['Verification', 'verify', 0, false],
        ['Acceptance Criteria', nothing, 0, false],
        ['Steps', nothing, 0, false]
      ])
      expect(contract.criteria).toEqual([])
      expect(contract.steps).toEqual([])
    }
  )

  it('reads a value that only starts with a word for nothing as an item', () => {
    const value = ['### C-18: Something', '', '**Acceptance Criteria:** Nothing is charged twice', '**Steps:** None of the rows is empty', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.criteria.map(itemSummary)).toEqual([{text: 'Nothing is charged twice', position: '3:26-3:50', check: null}])
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'None of the rows is empty', position: '4:12-4:37', check: null}])
  })

  it('takes the list, not the value, when a label with a value has a list, even an empty one', () => {
    const value = ['### C-19: Listed', '', '**Steps:** Open it', '', '-', '-', ''].join('\n')
    const contract = read(value)[0]!
    const steps = field(contract, 'Steps')
    expect([steps.value, steps.hasList, steps.items]).toEqual(['Open it', true, []])
    expect(contract.steps).toEqual([])
  })

  it('keeps an empty list as a list with no items', () => {
    // An empty item cannot interrupt a paragraph: the list needs a blank line before it.
    const value = ['### C-13: Empty', '', '**Verification:** verify', '**Acceptance Criteria:**', '', '-', '-', ''].join('\n')
    const contract = read(value)[0]!
    const criteria = field(contract, 'Acceptance Criteria')
    expect(criteria.hasList).toBe(true)
    expect(criteria.items).toEqual([])
    expect(span(criteria.position)).toBe('4:1-7:2')
    expect(contract.criteria).toEqual([])
    expect(span(contract.position)).toBe('1:1-7:2')
  })

  it('reads a `-` right under the labels as a setext heading that ends the contract', () => {
    const value = ['### C-13: Empty', '', '**Verification:** verify', '**Acceptance Criteria:**', '-', ''].join('\n')
    const contract = read(value)[0]!
    expect(contract.fields).toEqual([])
    expect(contract.tier).toBeNull()
    expect(span(contract.position)).toBe('1:1-1:16')
  })

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r']
  ])('reads bold labels in a %s document with exact columns', (_, eol) => {
    const value = ['### C-14: Crlf', '', '**Verification:** verify', '**Steps:**', '- one `x`', '  wrapped', ''].join(eol)
    const contract = read(value)[0]!
    expect(contract.fields.map(fieldSummary)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'bold',
        position: '3:1-3:25',
        labelPosition: '3:3-3:15',
        valuePosition: '3:19-3:25',
        items: 0,
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'bold',
        position: '4:1-6:10',
        labelPosition: '4:3-4:8',
        valuePosition: null,
        items: 1,
        hasList: true
      }
    ])
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'one `x` wrapped', position: '5:3-6:10', check: null}])
    expect(cover(value, contract.steps[0]!.position)).toBe('one `x`' + eol + '  wrapped')
  })
})
