/**
 * Contracts written the way projects write them in practice: items straight
 * under a label, wrapped items, Go comment blocks, bold labels inside a fence,
 * template examples inside a contract, heading variants, frontmatter that is
 * not a contract, and text under a criteria or steps label that is no list.
 * Every fixture here is invented for these tests.
 */
import {parseContractHeading, parseSliceHeading} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import {describe, expect, it} from 'vitest'
import {analyze, cover, field, fieldWithItems, itemSummary, read, span, unreadSummary} from './helpers.js'

/** What identifies a contract, as compared here. */
function contractSummary(contract: Contract) {
  return {
    id: contract.id,
    name: contract.name,
    dialect: contract.dialect,
    tier: contract.tier,
    effectiveTier: contract.effectiveTier,
    slice: contract.slice,
    position: span(contract.position),
    headingPosition: span(contract.headingPosition)
  }
}

describe('a plain fence with items straight under their labels', () => {
  const source = [
    '## S-4: Invoices', // 1
    '', // 2
    '### C-21: InvoiceTotals', // 3
    '', // 4
    '```', // 5
    'Contract: InvoiceTotals', // 6
    'Verification: verify', // 7
    'Acceptance Criteria:', // 8
    '- The total adds up every line of the invoice', // 9
    '- A credit note totals below zero -- verified by: `npm test -- credit`', // 10
    '', // 11
    'Steps:', // 12
    '- Open /invoices/42', // 13
    '- Add the line amounts by hand', // 14
    '', // 15
    'The steps need the demo data loaded first.', // 16
    '- Check the total against the demo data', // 17
    '```', // 18
    '', // 19
    '### C-22: InvoicePdf', // 20
    '', // 21
    '```', // 22
    'Verification: verify', // 23
    'Steps:', // 24
    '- Download the PDF of invoice 42', // 25
    'Acceptance Criteria:', // 26
    '- The PDF shows the same total as the page', // 27
    '- The PDF names the customer', // 28
    '```', // 29
    ''
  ].join('\n')

  it('reads each block as the fenced dialect, in its slice', () => {
    expect(read(source).map(contractSummary)).toEqual([
      {
        id: 'C-21',
        name: 'InvoiceTotals',
        dialect: 'fenced',
        tier: 'verify',
        effectiveTier: 'verify',
        slice: 'S-4',
        position: '3:1-18:4',
        headingPosition: '3:1-3:24'
      },
      {
        id: 'C-22',
        name: 'InvoicePdf',
        dialect: 'fenced',
        tier: 'verify',
        effectiveTier: 'verify',
        slice: 'S-4',
        position: '20:1-29:4',
        headingPosition: '20:1-20:21'
      }
    ])
  })

  it('takes unindented `- ` lines as items up to the next label, past a blank line and a paragraph', () => {
    const contract = read(source)[0]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'contract',
        label: 'Contract',
        expectedLabel: 'Contract',
        value: 'InvoiceTotals',
        dialect: 'fenced',
        position: '6:1-6:24',
        labelPosition: '6:1-6:9',
        valuePosition: '6:11-6:24',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '7:1-7:21',
        labelPosition: '7:1-7:13',
        valuePosition: '7:15-7:21',
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '8:1-10:71',
        labelPosition: '8:1-8:20',
        valuePosition: null,
        items: ['The total adds up every line of the invoice', 'A credit note totals below zero'],
        hasList: true
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '12:1-17:40',
        labelPosition: '12:1-12:6',
        valuePosition: null,
        items: ['Open /invoices/42', 'Add the line amounts by hand', 'Check the total against the demo data'],
        hasList: true
      }
    ])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'The total adds up every line of the invoice', position: '9:3-9:46', check: null},
      {
        text: 'A credit note totals below zero',
        position: '10:3-10:71',
        check: {method: 'bash', command: 'npm test -- credit', timeout: null}
      }
    ])
    expect(cover(source, contract.criteria[1]!.position)).toBe('A credit note totals below zero -- verified by: `npm test -- credit`')
    expect(contract.steps.map(itemSummary)).toEqual([
      {text: 'Open /invoices/42', position: '13:3-13:20', check: null},
      {text: 'Add the line amounts by hand', position: '14:3-14:31', check: null},
      {text: 'Check the total against the demo data', position: '17:3-17:40', check: null}
    ])
    expect(contract.fields.every((one) => one.unread.length === 0)).toBe(true)
  })

  it('ends items at the next label without a blank line, and at the end of the block', () => {
    const contract = read(source)[1]!
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '23:1-23:21',
        labelPosition: '23:1-23:13',
        valuePosition: '23:15-23:21',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '24:1-25:33',
        labelPosition: '24:1-24:6',
        valuePosition: null,
        items: ['Download the PDF of invoice 42'],
        hasList: true
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '26:1-28:29',
        labelPosition: '26:1-26:20',
        valuePosition: null,
        items: ['The PDF shows the same total as the page', 'The PDF names the customer'],
        hasList: true
      }
    ])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {text: 'The PDF shows the same total as the page', position: '27:3-27:43', check: null},
      {text: 'The PDF names the customer', position: '28:3-28:29', check: null}
    ])
  })
})

describe('wrapped items and sub-points in a fence', () => {
  const source = [
    '### C-23: RefundRules', // 1
    '', // 2
    '```', // 3
    'Verification: verify', // 4
    'Acceptance Criteria:', // 5
    '- A refund never exceeds what the customer paid,', // 6
    '  counting earlier partial refunds', // 7
    'on the same order -- verified by: `npm test -- refund-cap`', // 8
    '- A refund to a gift card goes back to that card', // 9
    '  - even when the card has expired', // 10
    '    and was reissued under a new number', // 11
    '  - or the card was closed', // 12
    '- Refunds show in the ledger the same day', // 13
    'Steps:', // 14
    '- Refund part of order 7', // 15
    '  - then refund the rest', // 16
    'and check the ledger', // 17
    '```', // 18
    ''
  ].join('\n')

  it('continues an item on an indented line and on an unindented line straight after it, even one with a check', () => {
    const contract = read(source)[0]!
    expect(contract.fields.map((one) => one.label)).toEqual(['Verification', 'Acceptance Criteria', 'Steps'])
    const [first] = contract.criteria
    expect(itemSummary(first!)).toEqual({
      text: 'A refund never exceeds what the customer paid, counting earlier partial refunds on the same order',
      position: '6:3-8:59',
      check: {method: 'bash', command: 'npm test -- refund-cap', timeout: null}
    })
    expect(cover(source, first!.position)).toBe(
      'A refund never exceeds what the customer paid,\n  counting earlier partial refunds\non the same order -- verified by: `npm test -- refund-cap`'
    )
  })

  it('takes a deeper `- ` line as a sub-point: no item, and its wrapped lines are not added to the item above', () => {
    const contract = read(source)[0]!
    expect(contract.criteria.map(itemSummary)).toEqual([
      {
        text: 'A refund never exceeds what the customer paid, counting earlier partial refunds on the same order',
        position: '6:3-8:59',
        check: {method: 'bash', command: 'npm test -- refund-cap', timeout: null}
      },
      {text: 'A refund to a gift card goes back to that card', position: '9:3-9:49', check: null},
      {text: 'Refunds show in the ledger the same day', position: '13:3-13:42', check: null}
    ])
    expect(fieldWithItems(field(contract, 'Acceptance Criteria'))).toEqual({
      key: 'acceptanceCriteria',
      label: 'Acceptance Criteria',
      expectedLabel: 'Acceptance Criteria',
      value: '',
      dialect: 'fenced',
      position: '5:1-13:42',
      labelPosition: '5:1-5:20',
      valuePosition: null,
      items: [
        'A refund never exceeds what the customer paid, counting earlier partial refunds on the same order',
        'A refund to a gift card goes back to that card',
        'Refunds show in the ledger the same day'
      ],
      hasList: true
    })
    // The unindented line after a sub-point continues the sub-point, not the step.
    expect(contract.steps.map(itemSummary)).toEqual([{text: 'Refund part of order 7', position: '15:3-15:25', check: null}])
    expect(span(field(contract, 'Steps').position)).toBe('14:1-15:25')
  })
})

describe('Go comment blocks', () => {
  const source = [
    '### C-24: ParseDuration', // 1
    '', // 2
    '```go', // 3
    '// Contract: ParseDuration', // 4
    '// Verification: verify', // 5
    '// Acceptance Criteria:', // 6
    '// - "90s" and "1m30s" give the same duration', // 7
    '// - An empty string is an error, not zero', // 8
    '//   -- verified by: `go test ./duration`', // 9
    '//', // 10
    '// Steps:', // 11
    '// - Run `durations 1h2m` and read the seconds', // 12
    '```', // 13
    ''
  ].join('\n')

  it('reads `// - ` lines under `// Acceptance Criteria:` as items, columns after the prefix', () => {
    const [contract, ...rest] = read(source)
    expect(rest).toEqual([])
    expect(contractSummary(contract!)).toEqual({
      id: 'C-24',
      name: 'ParseDuration',
      dialect: 'comment',
      tier: 'verify',
      effectiveTier: 'verify',
      slice: null,
      position: '1:1-13:4',
      headingPosition: '1:1-1:24'
    })
    expect(contract!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'contract',
        label: 'Contract',
        expectedLabel: 'Contract',
        value: 'ParseDuration',
        dialect: 'comment',
        position: '4:4-4:27',
        labelPosition: '4:4-4:12',
        valuePosition: '4:14-4:27',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'comment',
        position: '5:4-5:24',
        labelPosition: '5:4-5:16',
        valuePosition: '5:18-5:24',
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'comment',
        position: '6:4-9:42',
        labelPosition: '6:4-6:23',
        valuePosition: null,
        items: ['"90s" and "1m30s" give the same duration', 'An empty string is an error, not zero'],
        hasList: true
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'comment',
        position: '11:4-12:47',
        labelPosition: '11:4-11:9',
        valuePosition: null,
        items: ['Run `durations 1h2m` and read the seconds'],
        hasList: true
      }
    ])
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {text: '"90s" and "1m30s" give the same duration', position: '7:6-7:46', check: null},
      {
        text: 'An empty string is an error, not zero',
        position: '8:6-9:42',
        check: {method: 'bash', command: 'go test ./duration', timeout: null}
      }
    ])
    expect(cover(source, contract!.criteria[1]!.position)).toBe('An empty string is an error, not zero\n//   -- verified by: `go test ./duration`')
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'Run `durations 1h2m` and read the seconds', position: '12:6-12:47', check: null}])
  })
})

describe('a line whose colon is a check’s', () => {
  const source = [
    '### C-31: OrderExport', // 1
    '', // 2
    '```go', // 3
    '// Verification: verify', // 4
    '// Acceptance Criteria:', // 5
    '// - The file is UTF-8 with a header row,', // 6
    '// one row per order -- verified by: `go test ./export`', // 7
    '// Steps:', // 8
    '// Open the export page -- verified by: manual', // 9
    '```', // 10
    ''
  ].join('\n')

  it('is no label: it wraps the item above, or is unread text under an empty label', () => {
    const contract = read(source)[0]!
    expect(contract.fields.map((one) => one.label)).toEqual(['Verification', 'Acceptance Criteria', 'Steps'])
    expect(contract.criteria.map(itemSummary)).toEqual([
      {
        text: 'The file is UTF-8 with a header row, one row per order',
        position: '6:6-7:56',
        check: {method: 'bash', command: 'go test ./export', timeout: null}
      }
    ])
    expect(contract.steps).toEqual([])
    expect(field(contract, 'Steps').unread.map(unreadSummary)).toEqual([
      {kind: 'paragraph', text: 'Open the export page -- verified by: manual', position: '9:4-9:47'}
    ])
  })
})

describe('bold labels inside a fence', () => {
  const source = [
    '### C-25: ThemeToggle', // 1
    '', // 2
    '```', // 3
    '**Boundary:** ThemeToggle -> saved theme', // 4
    '**Verification:** verify', // 5
    '**Acceptance Criteria:**', // 6
    '- The toggle switches between light and dark', // 7
    '- The choice survives a reload -- verified by: manual', // 8
    '**Steps**: Open /settings and press the toggle twice', // 9
    '**Notes** are free text here', // 10
    '```', // 11
    ''
  ].join('\n')

  it('reads `**Label:** value` and `**Label**: value` lines as fields of the fenced dialect', () => {
    const [contract, ...rest] = read(source)
    expect(rest).toEqual([])
    expect(contractSummary(contract!)).toEqual({
      id: 'C-25',
      name: 'ThemeToggle',
      dialect: 'fenced',
      tier: 'verify',
      effectiveTier: 'verify',
      slice: null,
      position: '1:1-11:4',
      headingPosition: '1:1-1:22'
    })
    expect(contract!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'boundary',
        label: 'Boundary',
        expectedLabel: 'Boundary',
        value: 'ThemeToggle -> saved theme',
        dialect: 'fenced',
        position: '4:3-4:41',
        labelPosition: '4:3-4:11',
        valuePosition: '4:15-4:41',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '5:3-5:25',
        labelPosition: '5:3-5:15',
        valuePosition: '5:19-5:25',
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '6:3-8:54',
        labelPosition: '6:3-6:22',
        valuePosition: null,
        items: ['The toggle switches between light and dark', 'The choice survives a reload'],
        hasList: true
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: 'Open /settings and press the toggle twice',
        dialect: 'fenced',
        position: '9:3-9:53',
        labelPosition: '9:3-9:8',
        valuePosition: '9:12-9:53',
        items: ['Open /settings and press the toggle twice'],
        hasList: false
      }
    ])
    expect(cover(source, field(contract!, 'Verification').labelPosition)).toBe('Verification')
    expect(cover(source, field(contract!, 'Steps').labelPosition)).toBe('Steps')
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {text: 'The toggle switches between light and dark', position: '7:3-7:45', check: null},
      {text: 'The choice survives a reload', position: '8:3-8:54', check: {method: 'manual', command: null, timeout: null}}
    ])
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'Open /settings and press the toggle twice', position: '9:12-9:53', check: null}])
  })
})

describe('a contract whose block shows an example of another contract', () => {
  const source = [
    '### C-26: FormatGuide', // 1
    '', // 2
    '```', // 3
    'Contract: FormatGuide', // 4
    'Boundary: docs/format.md -> the section on tiers', // 5
    'Template (added to the format):', // 6
    '  **Verification:** verify', // 7
    '  **Acceptance Criteria:**', // 8
    '  - {first thing a person checks}', // 9
    '  - {second thing a person checks}', // 10
    '', // 11
    'Verification: auto', // 12
    '```', // 13
    '', // 14
    '### C-30: GuideExample', // 15
    '', // 16
    '```', // 17
    'Boundary: docs/guide.md -> the worked example', // 18
    'For the guide, the example contract reads:', // 19
    '  **Verification:** verify', // 20
    '  **Acceptance Criteria:**', // 21
    '  - {what the reader sees}', // 22
    '  Steps:', // 23
    '  - {where the reader clicks}', // 24
    'Verification: auto', // 25
    '```', // 26
    ''
  ].join('\n')

  it('takes only the unindented `Verification: auto`: the example’s indented lines are no fields', () => {
    const [guide, example, ...rest] = read(source)
    expect(rest).toEqual([])
    expect([guide, example].map((contract) => [contract!.label, contract!.tier, contract!.effectiveTier, contract!.criteria, contract!.steps])).toEqual([
      ['C-26 FormatGuide', 'auto', 'auto', [], []],
      ['C-30 GuideExample', 'auto', 'auto', [], []]
    ])
    expect(guide!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'contract',
        label: 'Contract',
        expectedLabel: 'Contract',
        value: 'FormatGuide',
        dialect: 'fenced',
        position: '4:1-4:22',
        labelPosition: '4:1-4:9',
        valuePosition: '4:11-4:22',
        items: [],
        hasList: false
      },
      {
        key: 'boundary',
        label: 'Boundary',
        expectedLabel: 'Boundary',
        value: 'docs/format.md -> the section on tiers',
        dialect: 'fenced',
        position: '5:1-5:49',
        labelPosition: '5:1-5:9',
        valuePosition: '5:11-5:49',
        items: [],
        hasList: false
      },
      {
        // An unknown label keeps the placeholders as its items; they are no criteria.
        key: null,
        label: 'Template (added to the format)',
        expectedLabel: null,
        value: '',
        dialect: 'fenced',
        position: '6:1-10:35',
        labelPosition: '6:1-6:31',
        valuePosition: null,
        items: ['{first thing a person checks}', '{second thing a person checks}'],
        hasList: true
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'auto',
        dialect: 'fenced',
        position: '12:1-12:19',
        labelPosition: '12:1-12:13',
        valuePosition: '12:15-12:19',
        items: [],
        hasList: false
      }
    ])
    expect(example!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'boundary',
        label: 'Boundary',
        expectedLabel: 'Boundary',
        value: 'docs/guide.md -> the worked example',
        dialect: 'fenced',
        position: '18:1-18:46',
        labelPosition: '18:1-18:9',
        valuePosition: '18:11-18:46',
        items: [],
        hasList: false
      },
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'auto',
        dialect: 'fenced',
        position: '25:1-25:19',
        labelPosition: '25:1-25:13',
        valuePosition: '25:15-25:19',
        items: [],
        hasList: false
      }
    ])
    expect([...guide!.fields, ...example!.fields].every((one) => one.unread.length === 0)).toBe(true)
  })
})

describe('heading variants', () => {
  const source = [
    '# Plan', // 1
    '', // 2
    '## S-3. Checkout', // 3
    '', // 4
    '### C12. CartSummary', // 5
    '', // 6
    '**Verification:** auto', // 7
    '', // 8
    '### C-12 — PaymentForm', // 9
    '', // 10
    '### C-12 AddressBook', // 11
    '', // 12
    '### C-12: OrderReceipt', // 13
    '', // 14
    '### C4 Model', // 15
    '', // 16
    '**Verification:** verify', // 17
    '', // 18
    '### C-3PO', // 19
    '', // 20
    '**Verification:** verify', // 21
    '', // 22
    '## S-03 — Returns', // 23
    '', // 24
    '### C-16: ReturnLabel', // 25
    ''
  ].join('\n')

  it('gives `C-12` for `C12. Name`, `C-12 — Name`, `C-12 Name` and `C-12: Name`', () => {
    const contracts = read(source)
    expect(contracts.map((contract) => [contract.id, contract.name, contract.label, contract.slice, span(contract.position)])).toEqual([
      ['C-12', 'CartSummary', 'C-12 CartSummary', 'S-3', '5:1-7:23'],
      ['C-12', 'PaymentForm', 'C-12 PaymentForm', 'S-3', '9:1-9:23'],
      ['C-12', 'AddressBook', 'C-12 AddressBook', 'S-3', '11:1-11:21'],
      ['C-12', 'OrderReceipt', 'C-12 OrderReceipt', 'S-3', '13:1-13:23'],
      // No id in `C4 Model` or `C-3PO`, but each holds a tier: a contract named by its heading.
      [null, 'C4 Model', 'C4 Model', 'S-3', '15:1-17:25'],
      [null, 'C-3PO', 'C-3PO', 'S-3', '19:1-21:25'],
      ['C-16', 'ReturnLabel', 'C-16 ReturnLabel', 'S-03', '25:1-25:22']
    ])
    expect(contracts.map((contract) => contract.sliceHeading)).toEqual([
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-3', name: 'Checkout'},
      {id: 'S-03', name: 'Returns'}
    ])
  })

  it('reads no id from `C4 Model` or `C-3PO`: they end the contract above, and without a tier they are no contract', () => {
    const contracts = read(source)
    expect(span(contracts[3]!.position)).toBe('13:1-13:23')
    expect(contracts.filter((contract) => contract.tier === 'verify').map((contract) => [contract.id, contract.name])).toEqual([
      [null, 'C4 Model'],
      [null, 'C-3PO']
    ])
    const bare = read(source.replace(/\*\*Verification:\*\* verify/g, 'Some prose.'))
    expect(bare.map((contract) => contract.name)).not.toContain('C4 Model')
    expect(bare.map((contract) => contract.name)).not.toContain('C-3PO')
  })

  it('parses the heading texts alone', () => {
    expect(['C12. Name', 'C-12 — Name', 'C-12 Name', 'C-12: Name', 'c-12 – Name', 'C-12 - Name', 'c12: Name', 'C-12'].map(parseContractHeading)).toEqual([
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: 'Name'},
      {id: 'C-12', name: ''}
    ])
    expect(['C-03: Name', 'C3. Name'].map(parseContractHeading)).toEqual([
      {id: 'C-03', name: 'Name'},
      {id: 'C-3', name: 'Name'}
    ])
    expect(['C4 Model', 'C-3PO', 'C12 Name', 'Contracts'].map(parseContractHeading)).toEqual([null, null, null, null])
    expect(['S-3. Name', 'S-03 — Name', 'S-03: Name', 'S3. Name', 'S-03 Name'].map(parseSliceHeading)).toEqual([
      {id: 'S-3', name: 'Name'},
      {id: 'S-03', name: 'Name'},
      {id: 'S-03', name: 'Name'},
      {id: 'S-3', name: 'Name'},
      {id: 'S-03', name: 'Name'}
    ])
    expect(['S3 Name', 'S-3PO', 'Slices'].map(parseSliceHeading)).toEqual([null, null, null])
  })
})

describe('frontmatter that is not a contract', () => {
  it('reads no contract and no problem from slice state or an agent definition', () => {
    const sliceState = ['---', 'id: S-28', 'status: complete', 'step: complete', 'updated: 2026-03-02', '---', '', '# Slice 28', ''].join('\n')
    const agent = [
      '---',
      'name: invoice-checker',
      'description: Reads invoices and checks that the totals add up, line by line.',
      'tools: Read, Grep, Bash',
      'model: sonnet',
      '---',
      '',
      'You check invoices.',
      ''
    ].join('\n')
    const agentWithLists = [
      '---',
      'name: invoice-checker',
      'description: "Use it when: totals look wrong"',
      'tools:',
      '  - Read',
      '  - Grep',
      'model: sonnet',
      '---',
      ''
    ].join('\n')
    for (const source of [sliceState, agent, agentWithLists]) {
      expect(analyze(source), source).toEqual({contracts: [], problems: []})
    }
  })

  it('reads a contract from `id: C-07` or from an exact contract key alone', () => {
    const cases: Array<[string[], string, string]> = [
      [['id: C-07', 'title: Totals'], 'C-07', 'id'],
      [['contract: Totals'], 'Totals', 'contract'],
      [['verification: auto'], '(unnamed)', 'verification'],
      [['acceptance_criteria:', '  - Totals add up'], '(unnamed)', 'acceptanceCriteria'],
      [['steps:', '  - Open the invoice'], '(unnamed)', 'steps']
    ]
    for (const [lines, label, key] of cases) {
      const {contracts, problems} = analyze(['---', ...lines, '---', ''].join('\n'))
      expect(problems).toEqual([])
      expect(contracts.map((contract) => [contract.label, contract.dialect, contract.fields[0]!.key])).toEqual([[label, 'frontmatter', key]])
    }
  })

  it('reads the fields of a frontmatter contract exactly', () => {
    const {contracts} = analyze(['---', 'acceptance_criteria:', '  - Totals add up', '---', ''].join('\n'))
    expect(contracts.map(contractSummary)).toEqual([
      {
        id: null,
        name: '',
        dialect: 'frontmatter',
        tier: null,
        effectiveTier: 'verify',
        slice: null,
        position: '1:1-4:4',
        headingPosition: '1:1-4:4'
      }
    ])
    expect(contracts[0]!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'acceptanceCriteria',
        label: 'acceptance_criteria',
        expectedLabel: 'acceptance_criteria',
        value: '',
        dialect: 'frontmatter',
        position: '2:1-3:18',
        labelPosition: '2:1-2:20',
        valuePosition: null,
        items: ['Totals add up'],
        hasList: true
      }
    ])
    expect(contracts[0]!.criteria.map(itemSummary)).toEqual([{text: 'Totals add up', position: '3:5-3:18', check: null}])
  })

  it('reads no contract from a near miss (`step:`) alone', () => {
    expect(analyze(['---', 'step: 3', '---', ''].join('\n'))).toEqual({contracts: [], problems: []})
    expect(analyze(['---', 'step:', '  - Open the invoice', '---', ''].join('\n'))).toEqual({contracts: [], problems: []})
    expect(analyze(['---', 'verfication: auto', '---', ''].join('\n'))).toEqual({contracts: [], problems: []})
  })

  it('reads a near miss loosely once the frontmatter is a contract', () => {
    const {contracts, problems} = analyze(['---', 'id: C-07', 'step:', '  - Open the invoice', '---', ''].join('\n'))
    expect(problems).toEqual([])
    expect(contracts[0]!.fields.map(fieldWithItems)).toEqual([
      {
        key: 'id',
        label: 'id',
        expectedLabel: 'id',
        value: 'C-07',
        dialect: 'frontmatter',
        position: '2:1-2:9',
        labelPosition: '2:1-2:3',
        valuePosition: '2:5-2:9',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'step',
        expectedLabel: 'steps',
        value: '',
        dialect: 'frontmatter',
        position: '3:1-4:21',
        labelPosition: '3:1-3:5',
        valuePosition: null,
        items: ['Open the invoice'],
        hasList: true
      }
    ])
  })
})

describe('text under a criteria or steps label that is no list', () => {
  const source = [
    '### C-27: SearchBox', // 1
    '', // 2
    '```', // 3
    'Verification: verify', // 4
    'Steps:', // 5
    'Type two letters into the search box and wait', // 6
    'for the suggestions to appear.', // 7
    'Acceptance Criteria:', // 8
    '```', // 9
    '', // 10
    '### C-28: SearchResults', // 11
    '', // 12
    '**Verification:** verify', // 13
    '**Acceptance Criteria:**', // 14
    '', // 15
    'Results list the newest match first and never repeat', // 16
    'a match.', // 17
    '', // 18
    '**Steps:**', // 19
    '', // 20
    '```sh', // 21
    'npm run e2e -- search', // 22
    '```', // 23
    '', // 24
    '### C-29: SearchHistory', // 25
    '', // 26
    '**Verification:** verify', // 27
    '**Acceptance Criteria:**', // 28
    '', // 29
    '**Steps:** Search twice and open the history', // 30
    ''
  ].join('\n')

  it('keeps a paragraph under `Steps:` in a fence as unread, with no steps', () => {
    const contract = read(source)[0]!
    expect(contract.steps).toEqual([])
    expect(contract.criteria).toEqual([])
    expect(contract.fields.map(fieldWithItems)).toEqual([
      {
        key: 'verification',
        label: 'Verification',
        expectedLabel: 'Verification',
        value: 'verify',
        dialect: 'fenced',
        position: '4:1-4:21',
        labelPosition: '4:1-4:13',
        valuePosition: '4:15-4:21',
        items: [],
        hasList: false
      },
      {
        key: 'steps',
        label: 'Steps',
        expectedLabel: 'Steps',
        value: '',
        dialect: 'fenced',
        position: '5:1-5:6',
        labelPosition: '5:1-5:6',
        valuePosition: null,
        items: [],
        hasList: false
      },
      {
        key: 'acceptanceCriteria',
        label: 'Acceptance Criteria',
        expectedLabel: 'Acceptance Criteria',
        value: '',
        dialect: 'fenced',
        position: '8:1-8:20',
        labelPosition: '8:1-8:20',
        valuePosition: null,
        items: [],
        hasList: false
      }
    ])
    const steps = field(contract, 'Steps')
    expect(steps.unread.map(unreadSummary)).toEqual([
      {kind: 'paragraph', text: 'Type two letters into the search box and wait for the suggestions to appear.', position: '6:1-7:31'}
    ])
    expect(cover(source, steps.unread[0]!.position)).toBe('Type two letters into the search box and wait\nfor the suggestions to appear.')
    expect(field(contract, 'Verification').unread).toEqual([])
    expect(field(contract, 'Acceptance Criteria').unread).toEqual([])
  })

  it('keeps the paragraph or code block after an empty bold label as unread of its kind', () => {
    const contract = read(source)[1]!
    expect(contract.criteria).toEqual([])
    expect(contract.steps).toEqual([])
    expect(span(contract.position)).toBe('11:1-23:4')
    expect(contract.fields.map((one) => [one.label, span(one.position), one.hasList, one.unread.map(unreadSummary)])).toEqual([
      ['Verification', '13:1-13:25', false, []],
      [
        'Acceptance Criteria',
        '14:1-14:25',
        false,
        [{kind: 'paragraph', text: 'Results list the newest match first and never repeat a match.', position: '16:1-17:9'}]
      ],
      ['Steps', '19:1-19:11', false, [{kind: 'code', text: 'npm run e2e -- search', position: '21:1-23:4'}]]
    ])
  })

  it('keeps nothing as unread when a label paragraph follows an empty bold label', () => {
    const contract = read(source)[2]!
    expect(contract.fields.map((one) => [one.label, one.value, one.items.map((item) => item.text), one.unread])).toEqual([
      ['Verification', 'verify', [], []],
      ['Acceptance Criteria', '', [], []],
      ['Steps', 'Search twice and open the history', ['Search twice and open the history'], []]
    ])
  })
})

describe('lines that look like something else', () => {
  const items = (contract: Contract) => ({
    criteria: contract.criteria.map((item) => [item.text, span(item.position), item.check?.command ?? item.check?.method ?? null]),
    steps: contract.steps.map((item) => item.text),
    unread: contract.fields.flatMap((one) => one.unread.map((text) => text.text))
  })

  it('wraps an item in a line like `Total: the sum` that names no field, and keeps the list going', () => {
    const [contract] = read(
      [
        '### C-01: Pay',
        '',
        '```',
        'Verification: verify',
        'Acceptance Criteria:',
        '- The receipt ends with the line',
        'Total: the sum of the items, in cents',
        '- A second payment is not charged twice',
        'Steps:',
        '- Pay twice',
        '```',
        ''
      ].join('\n')
    )
    expect(items(contract!)).toEqual({
      criteria: [
        ['The receipt ends with the line Total: the sum of the items, in cents', '6:3-7:38', null],
        ['A second payment is not charged twice', '8:3-8:40', null]
      ],
      steps: ['Pay twice'],
      unread: []
    })
  })

  it('takes an intro line under an empty criteria label as text before the list, not as a field', () => {
    const [contract] = read(['### C-02: Pay', '', '```', 'Acceptance Criteria:', 'All of these hold:', '- Cards are charged once', '```', ''].join('\n'))
    expect(items(contract!)).toEqual({criteria: [['Cards are charged once', '6:3-6:25', null]], steps: [], unread: []})
    expect(contract!.fields.map((one) => one.label)).toEqual(['Acceptance Criteria'])
  })

  it('keeps a command check whose item wraps after it, the note back in the text', () => {
    const [contract] = read(
      [
        '### C-03: Round',
        '',
        '```',
        'Acceptance Criteria:',
        '- Amounts round to cents -- verified by: `npm test -- round`',
        '  (half-up rounding, as banks do)',
        '```',
        ''
      ].join('\n')
    )
    expect(items(contract!).criteria).toEqual([['Amounts round to cents (half-up rounding, as banks do)', '5:3-6:34', 'npm test -- round']])
  })

  it('drops a task-list box from an item', () => {
    const [contract] = read(['### C-04: Tasks', '', '```', 'Steps:', '- [ ] Open the page', '- [x] Click Save', '```', ''].join('\n'))
    expect(contract!.steps.map((item) => [item.text, span(item.position)])).toEqual([
      ['Open the page', '5:7-5:20'],
      ['Click Save', '6:7-6:17']
    ])
  })

  it('reads a wrapped item of thousands of lines whole', () => {
    const lines = Array.from({length: 5000}, (_, index) => `  continued ${index}`)
    const [contract] = read(['### C-05: Long', '', '```', 'Steps:', '- Start', ...lines, '```', ''].join('\n'))
    expect(contract!.steps).toHaveLength(1)
    expect(contract!.steps[0]!.text).toBe(['Start', ...lines.map((line) => line.trim())].join(' '))
    expect(span(contract!.steps[0]!.position)).toBe('5:3-5005:17')
  })

  it('takes the list after an intro paragraph or a lint comment under an empty bold label', () => {
    const [intro, comment] = read(
      [
        '### C-06: Intro',
        '',
        '**Acceptance Criteria:**',
        '',
        'When the user pays, all of these hold:',
        '',
        '- The card is charged once',
        '',
        '### C-07: Comment',
        '',
        '**Acceptance Criteria:**',
        '<!--lint disable acceptance-criteria-count-->',
        '- The receipt is emailed',
        ''
      ].join('\n')
    )
    expect(items(intro!)).toEqual({criteria: [['The card is charged once', '7:3-7:27', null]], steps: [], unread: []})
    expect(items(comment!)).toEqual({criteria: [['The receipt is emailed', '13:3-13:25', null]], steps: [], unread: []})
  })

  it('does not take a section number (`C-17.1 Part`) for a contract heading', () => {
    expect(parseContractHeading('C-17.1 Sub-contract')).toBeNull()
    expect(parseContractHeading('C-17. Sub-contract')).toEqual({id: 'C-17', name: 'Sub-contract'})
  })

  it('reads `id: C6` in frontmatter as contract C-6', () => {
    const {contracts, problems} = analyze(['---', 'id: C6', 'verification: auto', '---', ''].join('\n'))
    expect(problems).toEqual([])
    expect(contracts.map((contract) => [contract.id, contract.tier])).toEqual([['C-6', 'auto']])
  })
})
