/** Contracts found as a person finds them: heading shapes, graph names, labels as people write them, fences as examples. */
import {
  analyzeContracts,
  dialectNames,
  dialects,
  extractContracts,
  fieldLabels,
  labelFor,
  normalizeContractId,
  parseContractHeading
} from '@verification-tiers/contracts'
import type {FieldKey} from '@verification-tiers/contracts'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {analyze, itemSummary, parse, read, span} from './helpers.js'

/** Id, name and tier of each contract, as the tests compare them. */
const outline = (value: string, names?: string[]) => {
  const {file, tree} = parse(value)
  return extractContracts(tree, file, names ? {names} : undefined).map((contract) => [contract.id, contract.name, contract.tier])
}

describe('headings that start contracts', () => {
  it('reads `ID. Name` with no hyphen in the id, and leaves the group heading above alone', () => {
    const value = ['# Plans', '', '## Storage', '', '### K7. Disk quota', '', 'Some prose.', '', '### K8. Archive export', ''].join('\n')
    expect(outline(value)).toEqual([
      ['K-7', 'Disk quota', null],
      ['K-8', 'Archive export', null]
    ])
  })

  it('reads ids of any letters and digits before a colon, a period or a dash', () => {
    const value = ['### BILLING-4: Totals', '', '### Q9 — Queue depth', '', '### AUTH-12. Logout', '', '### api-v2-3: Paging', ''].join('\n')
    expect(outline(value)).toEqual([
      ['BILLING-4', 'Totals', null],
      ['Q-9', 'Queue depth', null],
      ['AUTH-12', 'Logout', null],
      ['API-V2-3', 'Paging', null]
    ])
  })

  it('reads `Contract: Name` with no id: the name is its key', () => {
    expect(outline('### Contract: PriceRounding\n\nVerification: auto\n')).toEqual([[null, 'PriceRounding', 'auto']])
  })

  it('reads an id with a dash of any kind as a hyphen', () => {
    const value = ['### C\u201102: Checkout', '', '### C\u201303: Cart', '', '### C\u221204: Receipt', ''].join('\n')
    expect(outline(value).map(([id]) => id)).toEqual(['C-02', 'C-03', 'C-04'])
    expect(normalizeContractId('c\u20112')).toBe('C-2')
  })

  it('reads no contract at a heading of none of the shapes, even in CONTRACTS.md', () => {
    const value = ['# Contracts', '', '## Background', '', 'Why these exist: to keep us honest.', '', '### Overview: the plan', '', 'Text.', ''].join('\n')
    expect(outline(value)).toEqual([])
    expect(['Overview: the plan', 'Phase 2: Build', 'Background', 'Cross-Cutting: Cache'].map(parseContractHeading)).toEqual([null, null, null, null])
  })

  it('reads a heading whose blocks hold a tier as a contract named by its text', () => {
    const value = ['## Export to CSV', '', '**Verification:** verify', '**Acceptance Criteria:**', '- The file opens in a spreadsheet', ''].join('\n')
    expect(outline(value)).toEqual([[null, 'Export to CSV', 'verify']])
  })

  it('does not make a contract of prose that starts a line with `Steps:` or `Tier: Pro` under a plain heading', () => {
    const value = ['## Pricing', '', 'Tier: Pro', '', '## Install', '', 'Steps:', '- run the installer', ''].join('\n')
    expect(outline(value)).toEqual([])
  })

  it('reads a slice or group heading enclosing contract headings as no contract', () => {
    const value = [
      '## GROUP-1: Accounts', // 1
      '', // 2
      '### ACC-1: Sign up', // 3
      '', // 4
      'Verification: auto', // 5
      '', // 6
      '## AREA-2: Reports', // 7
      '', // 8
      '### Monthly report', // 9
      '', // 10
      '**Verification:** verify', // 11
      '', // 12
      '## S-01: Version', // 13
      '', // 14
      '### V-1: Print the version', // 15
      ''
    ].join('\n')
    const contracts = read(value)
    expect(contracts.map((contract) => [contract.id, contract.name, contract.tier, contract.slice])).toEqual([
      ['ACC-1', 'Sign up', 'auto', null],
      [null, 'Monthly report', 'verify', null],
      ['V-1', 'Print the version', null, 'S-01']
    ])
  })

  it('reads a heading above headings with ids of any kind as a group, and an id that does not end in its number as none', () => {
    const value = ['## M0. Foundation', '', '### s0a. tokens and workspace', '', 'Prose.', '', '### s0b. the shell', ''].join('\n')
    expect(outline(value)).toEqual([])
    expect(['s1f. disk access', 'OAuth2a: setup'].map(parseContractHeading)).toEqual([null, null])
  })

  it('starts a contract at a heading a slice graph names, by id or by whole text, case, space and dashes aside', () => {
    const value = ['## Checkout flow', '', 'The cart becomes an order.', '', '## Notes', '', 'Nothing.', ''].join('\n')
    expect(outline(value)).toEqual([])
    expect(outline(value, ['  CHECKOUT FLOW '])).toEqual([[null, 'Checkout flow', null]])
    expect(outline('## Refunds \u2011 partial\n', ['refunds - partial'])).toEqual([[null, 'Refunds \u2011 partial', null]])
    // A heading that already is a contract keeps its id; the names change nothing there.
    expect(outline('### K7. Disk quota\n', ['K7'])).toEqual([['K-7', 'Disk quota', null]])
  })

  it('caches a tree’s reading per names', () => {
    const {file, tree} = parse('## Checkout flow\n\nText.\n')
    const without = analyzeContracts(tree, file)
    const named = analyzeContracts(tree, file, {names: ['checkout flow']})
    expect(without.contracts).toEqual([])
    expect(named.contracts.map((contract) => contract.name)).toEqual(['Checkout flow'])
    expect(analyzeContracts(tree, file, {names: ['Checkout Flow']})).toBe(named)
    expect(analyzeContracts(tree, file)).not.toBe(named)
  })
})

describe('labels as people write them', () => {
  const plainContract = [
    '### BILLING-4: Invoice totals', // 1
    '', // 2
    'Verification: verify', // 3
    'The reason: money must add up.', // 4
    '', // 5
    'Acceptance criteria:', // 6
    '- The total equals the sum of the lines', // 7
    '- A refund shows as a negative line', // 8
    'Steps to verify:', // 9
    '1. Open an invoice with a refund', // 10
    '2. Add the lines by hand', // 11
    '', // 12
    '### BILLING-5: Currency label', // 13
    '', // 14
    'Verification: auto', // 15
    'Why: unit tests cover it.', // 16
    ''
  ].join('\n')

  it('reads plain labels outside fences, lower case variants too; the line after a tier is not part of it', () => {
    const [totals, label, ...rest] = read(plainContract)
    expect(rest).toEqual([])
    expect([totals!.tier, label!.tier]).toEqual(['verify', 'auto'])
    expect(totals!.fields.map((field) => [field.label, field.key, field.expectedLabel, field.dialect, span(field.position)])).toEqual([
      ['Verification', 'verification', 'Verification', 'plain', '3:1-3:21'],
      ['Acceptance criteria', 'acceptanceCriteria', 'Acceptance criteria', 'plain', '6:1-8:36'],
      ['Steps to verify', 'steps', 'Steps to verify', 'plain', '9:1-11:25']
    ])
    expect(totals!.criteria.map(itemSummary)).toEqual([
      {text: 'The total equals the sum of the lines', position: '7:3-7:40', check: null},
      {text: 'A refund shows as a negative line', position: '8:3-8:36', check: null}
    ])
    expect(totals!.steps.map((step) => step.text)).toEqual(['Open an invoice with a refund', 'Add the lines by hand'])
  })

  it('starts a new field at a label straight after a list’s last item, with no blank line', () => {
    const value = [
      '### C-20: Badges', // 1
      '', // 2
      '**Verification:** verify', // 3
      '**Acceptance Criteria:**', // 4
      '- A paused card shows a grey badge', // 5
      '- A live card shows a green badge', // 6
      '**Steps:**', // 7
      '- Pause a card', // 8
      '- Look at its badge', // 9
      'Dependencies: C-19', // 10
      ''
    ].join('\n')
    const [contract] = read(value)
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {text: 'A paused card shows a grey badge', position: '5:3-5:35', check: null},
      {text: 'A live card shows a green badge', position: '6:3-6:34', check: null}
    ])
    expect(contract!.steps.map(itemSummary)).toEqual([
      {text: 'Pause a card', position: '8:3-8:15', check: null},
      {text: 'Look at its badge', position: '9:3-9:20', check: null}
    ])
    expect(contract!.fields.map((field) => [field.label, field.value, field.items.length])).toEqual([
      ['Verification', 'verify', 0],
      ['Acceptance Criteria', '', 2],
      ['Steps', '', 2],
      ['Dependencies', 'C-19', 0]
    ])
  })

  it('takes the list after a label that ends a list of another kind', () => {
    const value = ['### C-21: Export', '', 'Criteria:', '- The file has a header row', 'Steps:', '1. Export a report', '2. Open it', ''].join('\n')
    const [contract] = read(value)
    expect(contract!.criteria.map((item) => item.text)).toEqual(['The file has a header row'])
    expect(contract!.steps.map((item) => item.text)).toEqual(['Export a report', 'Open it'])
  })

  it('keeps prose lines with a colon that name no field out of the fields', () => {
    const value = ['### C-22: Import', '', 'Verification: auto', '', 'Note: the importer skips blank rows.', 'Owner: data team', ''].join('\n')
    const [contract] = read(value)
    expect(contract!.fields.map((field) => field.label)).toEqual(['Verification'])
  })

  it('keeps every label in one table, each variant read as its field', () => {
    for (const [key, row] of Object.entries(fieldLabels)) {
      for (const label of [row.markdown, ...row.variants]) {
        const [contract] = read(`### C-1: One\n\n**${label}:** x\n`)
        expect([label, contract!.fields[0]?.key]).toEqual([label, key])
      }
    }
  })
})

describe('a fence inside a contract', () => {
  it('is an example when the contract writes its own fields outside fences', () => {
    const value = [
      '### DOC-2: Format guide', // 1
      '', // 2
      'The guide shows a contract like this one:', // 3
      '', // 4
      '```markdown', // 5
      '### DEMO-1: Sample', // 6
      'Verification: auto', // 7
      'Acceptance Criteria:', // 8
      '- {what a person checks}', // 9
      '```', // 10
      '', // 11
      '**Verification:** verify', // 12
      '**Acceptance Criteria:**', // 13
      '- The guide shows a full example', // 14
      ''
    ].join('\n')
    const {contracts, problems} = analyze(value)
    expect(contracts.map((contract) => [contract.id, contract.tier, contract.effectiveTier, contract.criteria.map((item) => item.text)])).toEqual([
      ['DOC-2', 'verify', 'verify', ['The guide shows a full example']]
    ])
    expect(contracts[0]!.fields.map((field) => field.dialect)).toEqual(['bold', 'bold'])
    expect(problems).toEqual([])
  })

  it('holds the fields when the whole contract is fenced', () => {
    const value = [
      '### C-30: Parser',
      '',
      '```go',
      '// Contract: Parser',
      '// Verification: verify',
      '// Acceptance Criteria:',
      '// - Bad input is refused',
      '```',
      ''
    ].join('\n')
    const [contract] = read(value)
    expect([contract!.tier, contract!.dialect, contract!.criteria.map((item) => item.text)]).toEqual(['verify', 'comment', ['Bad input is refused']])
  })

  it('under a heading without an id, makes a contract only with a valid tier: criteria or a type comment alone are an example', () => {
    const example = [
      '## Output format',
      '',
      '```text',
      'Acceptance criteria:',
      '  [ ] {first criterion}',
      'Steps to verify:',
      '  1. {first step}',
      '```',
      ''
    ].join('\n')
    const typeNote = ['## Shared: Ledger', '', '```go', '// Contract: Ledger', '// Invariants:', '// - Entries never change', '```', ''].join('\n')
    const tiered = ['## Shared: Audit', '', '```', 'Verification: verify', 'Acceptance Criteria:', '- Every change is logged', '```', ''].join('\n')
    expect(outline(example)).toEqual([])
    expect(outline(typeNote)).toEqual([])
    expect(outline(tiered)).toEqual([[null, 'Shared: Audit', 'verify']])
  })

  it('of markdown is an example, and of code holds only its comments: neither gives fields that look like fields in the text', () => {
    const shown = ['## How to write one', '', '````markdown', '### C-4: Sample', '', '**Verification:** verify', '````', ''].join('\n')
    const code = ['## Use', '', '```js', 'const text = `**Verification:** verify`', '```', ''].join('\n')
    const comments = ['### C-5: Store', '', '```go', '// Verification: auto', '```', '']
    expect(outline(shown)).toEqual([])
    expect(outline(code)).toEqual([])
    expect(outline(comments.join('\n'))).toEqual([['C-5', 'Store', 'auto']])
  })
})

describe('the registry of dialects', () => {
  it('names every dialect once, and gives each its correct labels', () => {
    expect(dialectNames).toEqual(dialects.map((dialect) => dialect.name))
    expect(new Set(dialectNames).size).toBe(dialectNames.length)
    expect(dialectNames.map((name) => labelFor('acceptanceCriteria', name))).toEqual(
      dialects.map((dialect) => (dialect.labelStyle === 'frontmatter' ? 'acceptance_criteria' : 'Acceptance Criteria'))
    )
  })
})

describe('properties', () => {
  const tierKeys: FieldKey[] = ['verification', 'acceptanceCriteria', 'steps']
  const labelOf = fc
    .constantFrom(...tierKeys)
    .chain((key) => fc.record({key: fc.constant(key), label: fc.constantFrom(fieldLabels[key].markdown, ...fieldLabels[key].variants)}))
  const casing = fc.constantFrom(
    (label: string) => label,
    (label: string) => label.toLowerCase(),
    (label: string) => label.toUpperCase()
  )
  const form = fc.constantFrom('plain', 'bold-inside', 'bold-outside', 'fenced')

  it('reads any label variant, bold or plain, colon inside or outside the bold, in any case, as its field', () => {
    fc.assert(
      fc.property(labelOf, casing, form, ({key, label}, recase, how) => {
        const written = recase(label)
        const value = key === 'verification' ? ' verify' : ''
        const line = how === 'plain' || how === 'fenced' ? `${written}:${value}` : how === 'bold-inside' ? `**${written}:**${value}` : `**${written}**:${value}`
        const body = key === 'verification' ? [line] : [line, '- The page shows the total']
        const text = how === 'fenced' ? ['```', ...body, '```'] : body
        const [contract, ...rest] = read(['### P-1: Property', '', ...text, ''].join('\n'))
        expect(rest).toEqual([])
        expect(contract!.fields.map((field) => field.key)).toEqual([key])
        if (key === 'verification') expect(contract!.tier).toBe('verify')
        else expect(contract![key === 'steps' ? 'steps' : 'criteria'].map((item) => item.text)).toEqual(['The page shows the total'])
      })
    )
  })

  it('never reads a verify contract as auto when a fenced example with `auto` is added anywhere in it', () => {
    const own = fc.constantFrom('**Verification:** verify', 'Verification: verify', '**Tier**: verify', 'verification tier: verify')
    const block = fc.constantFrom(
      'Some prose about the contract.',
      '**Acceptance Criteria:**\n- The badge is grey',
      'Steps:\n- Open the page',
      '**Boundary:** ui -> api'
    )
    const example = fc.constantFrom(
      '```markdown\n### X-1: Example\nVerification: auto\n```',
      '```\nVerification: auto\n```',
      '```go\n// Verification: auto\n```',
      '```\n**Verification:** auto\nAcceptance Criteria:\n- none\n```'
    )
    fc.assert(
      fc.property(own, fc.array(block, {maxLength: 4}), example, fc.nat(), (tier, blocks, fence, at) => {
        const body: string[] = [tier, ...blocks]
        body.splice(at % (body.length + 1), 0, fence)
        const [contract] = read(['### C-9: Guarded', '', body.join('\n\n'), ''].join('\n'))
        expect(contract!.effectiveTier).toBe('verify')
      })
    )
  })
})

describe('lines that look like contract headings but are none', () => {
  // Why each is hidden is `findUnreadContracts`’ to say (test/unread.test.ts); here: the analysis carries them, for the gate and the lint.
  it.each([
    ['<img src="mockup.png">\n### C-02: Checkout', '2:1-2:19'],
    ['```\n### C-02: Checkout', '2:1-2:19'],
    ['    ### C-02: Checkout', '1:5-1:23'],
    ['###C-02: Checkout', '1:1-1:18'],
    ['- ### C-02: Checkout', '1:3-1:21']
  ])('has a problem for %j, and no contract C-02', (lines, place) => {
    const {contracts, problems} = analyze(lines + '\n\n**Verification:** verify\n')
    expect(contracts.map((contract) => contract.id)).not.toContain('C-02')
    expect(problems.map((problem) => [problem.kind, problem.subject, span(problem.place)])).toEqual([
      ['unread-heading', '### C-02: Checkout'.replace('### ', lines.includes('###C') ? '###' : '### '), place]
    ])
  })

  it('reads a heading straight after a paragraph line: markdown ends the paragraph there', () => {
    const {contracts, problems} = analyze(['Some text with no blank line after it', '### C-02: Checkout', '', '**Verification:** verify', ''].join('\n'))
    expect([contracts.map((contract) => contract.id), problems]).toEqual([['C-02'], []])
  })
})

describe('items markdown kept in a paragraph', () => {
  it('reads a `- item` line under a label as an item without its marker, where markdown made no list of it', () => {
    // After a line of `---` and a line of text, markdown keeps a `- ` line in the paragraph it follows.
    const value = [
      '---',
      'title: Plans',
      '# P-7: Refunds',
      '',
      '**Verification:** verify',
      '**Acceptance Criteria:**',
      '- A refund shows on the receipt',
      ''
    ].join('\n')
    const [contract] = read(value)
    expect(contract!.criteria.map((item) => [item.text, span(item.position)])).toEqual([['A refund shows on the receipt', '7:3-7:32']])
  })
})
