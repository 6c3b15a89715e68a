import {analyzeContracts, contractLabel, effectiveTier, extractContracts, readTier, resolveFieldKey, splitCheck} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import preset from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import type {Position} from 'unist'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {analyze, itemSummary, parse, read, span} from './helpers.js'

const outline = [
  '# Project', // 1
  '', // 2
  '## S-01: Campaign Cards', // 3
  '', // 4
  '### C-01: Grid', // 5
  '', // 6
  '**Verification:** auto', // 7
  '', // 8
  '#### Notes', // 9
  '', // 10
  'Still part of C-01.', // 11
  '', // 12
  '### Contract: Unnamed Widget', // 13
  '', // 14
  '**Verification:** Auto', // 15
  '', // 16
  '### c-3', // 17
  '', // 18
  '**Verification:** manual', // 19
  '', // 20
  '## S-02: Formatting', // 21
  '', // 22
  '### C-04: Money', // 23
  '', // 24
  '**Slice:** S-09', // 25
  '', // 26
  '## Appendix', // 27
  '', // 28
  '**Verification:** auto', // 29
  '', // 30
  '## C-05: Top', // 31
  '', // 32
  '### S-03: Nested slice heading', // 33
  '', // 34
  '#### C-06: Inside', // 35
  ''
].join('\n')

describe('contract headings and sections', () => {
  it('starts a contract at `C-NN: Name`, `Contract: Name` and a heading holding a tier, ends it at one of the same or higher rank, and reads `## C-05: Top` enclosing `#### C-06` as a group', () => {
    expect(
      read(outline).map((contract) => ({
        id: contract.id,
        name: contract.name,
        label: contract.label,
        dialect: contract.dialect,
        position: span(contract.position),
        headingPosition: span(contract.headingPosition),
        tier: contract.tier,
        effectiveTier: contract.effectiveTier,
        slice: contract.slice,
        sliceHeading: contract.sliceHeading
      }))
    ).toEqual([
      {
        id: 'C-01',
        name: 'Grid',
        label: 'C-01 Grid',
        dialect: 'bold',
        position: '5:1-11:20',
        headingPosition: '5:1-5:15',
        tier: 'auto',
        effectiveTier: 'auto',
        slice: 'S-01',
        sliceHeading: {id: 'S-01', name: 'Campaign Cards'}
      },
      {
        id: null,
        name: 'Unnamed Widget',
        label: 'Unnamed Widget',
        dialect: 'bold',
        position: '13:1-15:23',
        headingPosition: '13:1-13:29',
        tier: 'Auto',
        effectiveTier: 'verify',
        slice: 'S-01',
        sliceHeading: {id: 'S-01', name: 'Campaign Cards'}
      },
      {
        id: 'C-3',
        name: '',
        label: 'C-3',
        dialect: 'bold',
        position: '17:1-19:25',
        headingPosition: '17:1-17:8',
        tier: 'manual',
        effectiveTier: 'verify',
        slice: 'S-01',
        sliceHeading: {id: 'S-01', name: 'Campaign Cards'}
      },
      {
        // The `Slice` field wins over the enclosing slice heading.
        id: 'C-04',
        name: 'Money',
        label: 'C-04 Money',
        dialect: 'bold',
        position: '23:1-25:16',
        headingPosition: '23:1-23:16',
        tier: null,
        effectiveTier: 'verify',
        slice: 'S-09',
        sliceHeading: {id: 'S-02', name: 'Formatting'}
      },
      {
        // A heading with no id that holds a tier is a contract, named by its text; `## Appendix` closed S-02.
        id: null,
        name: 'Appendix',
        label: 'Appendix',
        dialect: 'bold',
        position: '27:1-29:23',
        headingPosition: '27:1-27:12',
        tier: 'auto',
        effectiveTier: 'auto',
        slice: null,
        sliceHeading: null
      },
      {
        id: 'C-06',
        name: 'Inside',
        label: 'C-06 Inside',
        dialect: 'bold',
        position: '35:1-35:18',
        headingPosition: '35:1-35:18',
        tier: null,
        effectiveTier: 'verify',
        slice: 'S-03',
        sliceHeading: {id: 'S-03', name: 'Nested slice heading'}
      }
    ])
  })

  it('reads no fields outside contracts', () => {
    const contracts = read(outline)
    expect(contracts.flatMap((contract) => contract.fields.map((field) => span(field.position)))).toEqual([
      '7:1-7:23',
      '15:1-15:23',
      '19:1-19:25',
      '25:1-25:16',
      '29:1-29:23'
    ])
    expect(
      read(['Some text first.', '', '**Verification:** auto', '', '```', 'Verification: auto', '```', '', '# Notes', '', 'Nothing here.', ''].join('\n'))
    ).toEqual([])
  })

  it('reads a contract heading with no fields as an empty contract', () => {
    const [contract, ...rest] = read('### C-09: Empty\n')
    expect(rest).toEqual([])
    expect(contract).toEqual({
      id: 'C-09',
      name: 'Empty',
      label: 'C-09 Empty',
      dialect: 'bold',
      position: {start: {line: 1, column: 1, offset: 0}, end: {line: 1, column: 16, offset: 15}},
      headingPosition: {start: {line: 1, column: 1, offset: 0}, end: {line: 1, column: 16, offset: 15}},
      tier: null,
      effectiveTier: 'verify',
      criteria: [],
      steps: [],
      slice: null,
      sliceHeading: null,
      fields: []
    })
  })

  it('takes the dialect of the first field', () => {
    const value = ['### C-07: Mixed', '', '```', 'Verification: verify', '```', '', '```go', '// Steps:', '// - one', '```', ''].join('\n')
    const [contract] = read(value)
    expect(contract!.dialect).toBe('fenced')
    expect(contract!.fields.map((field) => field.dialect)).toEqual(['fenced', 'comment'])
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'one', position: '9:6-9:9', check: null}])
  })

  it('takes a fence for an example once the contract has fields of its own outside fences', () => {
    const value = ['### C-07: Mixed', '', '```', 'Verification: verify', '```', '', '**Steps:**', '- one', ''].join('\n')
    const [contract] = read(value)
    expect(contract!.dialect).toBe('bold')
    expect(contract!.fields.map((field) => field.dialect)).toEqual(['bold'])
    expect(contract!.tier).toBe(null)
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'one', position: '8:3-8:6', check: null}])
  })
})

describe('tiers', () => {
  it.each([
    ['**Verification:** verify', 'verify', 'verify'],
    ['**Verification:** auto', 'auto', 'auto'],
    ['**Verification:** `verify`', 'verify', 'verify'],
    ['**Verification:** `` auto ``', 'auto', 'auto'],
    ['**Verification:** Verify', 'Verify', 'verify'],
    ['**Verification:** auto (no UI)', 'auto (no UI)', 'verify'],
    ['**Verification:**', '', 'verify'],
    ['**Boundary:** no tier here', null, 'verify'],
    ['```\nVerification: `auto`\n```', 'auto', 'auto'],
    ['```\nVerification:\nSteps:\n  - Open it\n```', '', 'verify'],
    ['```go\n// Verification: manual\n```', 'manual', 'verify']
  ])('reads %j as tier %j, effective %j', (body, tier, effective) => {
    const [contract] = read('### C-01: Tiered\n\n' + body + '\n')
    expect(contract!.tier).toBe(tier)
    expect(contract!.effectiveTier).toBe(effective)
  })

  it('reads two different tiers as `verify`, and reports both places', () => {
    const {contracts, problems} = analyze(['### C-02: Twice', '', '**Verification:** auto', '', '**Tier:** verify', ''].join('\n'))
    expect(contracts[0]!.tier).toBe('verify')
    expect(contracts[0]!.effectiveTier).toBe('verify')
    expect(contracts[0]!.fields.filter((field) => field.key === 'verification').map((field) => field.value)).toEqual(['auto', 'verify'])
    expect(problems.map((problem) => ({...problem, place: span(problem.place), otherPlace: span(problem.otherPlace)}))).toEqual([
      {kind: 'tier-conflict', subject: 'C-02 Twice', part: 'field', actual: 'verify', expected: 'auto', place: '5:11-5:17', otherPlace: '3:19-3:23'}
    ])
  })

  it('reads the same tier twice as that tier, with no problem', () => {
    const {contracts, problems} = analyze(['### C-02: Twice', '', '**Verification:** auto', '', 'Tier: auto', ''].join('\n'))
    expect(contracts[0]!.tier).toBe('auto')
    expect(problems).toEqual([])
  })

  it('exports the tier helpers the rules use', () => {
    expect(readTier('`verify`')).toBe('verify')
    expect(readTier(' auto ')).toBe('auto')
    expect(effectiveTier(null)).toBe('verify')
    expect(effectiveTier('auto')).toBe('auto')
    expect(effectiveTier('AUTO')).toBe('verify')
  })
})

describe('field labels', () => {
  it('resolves near misses to their key, with the label the dialect expects, and keeps unknown labels', () => {
    const value = [
      '### C-03: Labels', // 1
      '', // 2
      '**Acceptence Criteria:**', // 3
      '- typo', // 4
      '', // 5
      '**AcceptanceCriteria:**', // 6
      '- joined', // 7
      '', // 8
      '**acceptance criteria:**', // 9
      '- lower case', // 10
      '', // 11
      '**Step:** one step', // 12
      '**Verfication:** auto', // 13
      '**Owner:** ops', // 14
      '**Tier:** auto', // 15
      ''
    ].join('\n')
    const [contract] = read(value)
    expect(contract!.fields.map((field) => [field.label, field.key, field.expectedLabel, span(field.labelPosition)])).toEqual([
      ['Acceptence Criteria', 'acceptanceCriteria', 'Acceptance Criteria', '3:3-3:22'],
      ['AcceptanceCriteria', 'acceptanceCriteria', 'Acceptance Criteria', '6:3-6:21'],
      ['acceptance criteria', 'acceptanceCriteria', 'Acceptance Criteria', '9:3-9:22'],
      ['Step', 'steps', 'Steps', '12:3-12:7'],
      ['Verfication', 'verification', 'Verification', '13:3-13:14'],
      ['Owner', null, null, '14:3-14:8'],
      // A variant of the label is read as the field, and expected as written.
      ['Tier', 'verification', 'Tier', '15:3-15:7']
    ])
    // Criteria of all three fields, in order; the inline `Step` value is one step.
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {text: 'typo', position: '4:3-4:7', check: null},
      {text: 'joined', position: '7:3-7:9', check: null},
      {text: 'lower case', position: '10:3-10:13', check: null}
    ])
    expect(contract!.steps.map(itemSummary)).toEqual([{text: 'one step', position: '12:11-12:19', check: null}])
    expect(contract!.tier).toBe('auto')
  })

  it('keeps short labels (`If`, `In`, `It`) as unknown fields, not as `ID`', () => {
    const value = ['### C-04: Short', '', '**If:** the cart is empty', '**In:** cart', '**It:** ships', '**Id:** C-04', ''].join('\n')
    const [contract] = read(value)
    expect(contract!.fields.map((field) => [field.label, field.key, field.expectedLabel])).toEqual([
      ['If', null, null],
      ['In', null, null],
      ['It', null, null],
      ['Id', 'id', 'ID']
    ])
    // A fenced block with only a short label is code, not a contract block.
    expect(read(['### C-05: Code', '', '```', 'If: x', '```', ''].join('\n'))[0]!.fields).toEqual([])
  })

  it.each([
    ['Acceptance Criteria', 'acceptanceCriteria'],
    ['acceptance_criteria', 'acceptanceCriteria'],
    ['acceptance-criteria', 'acceptanceCriteria'],
    ['ACCEPTANCE CRITERIA', 'acceptanceCriteria'],
    ['Acceptance Criterias', 'acceptanceCriteria'],
    ['Steps', 'steps'],
    // A swapped pair is one edit, as `tiers` counts a mistyped command: a short label's one typo.
    ['Stpes', 'steps'],
    // Two swaps are two edits: too many for a short label.
    ['Tspse', null],
    ['ID', 'id'],
    ['id', 'id'],
    ['I-D', 'id'],
    // Labels of three letters or fewer are matched exactly only: `If` is no typo of `ID`.
    ['If', null],
    ['In', null],
    ['It', null],
    ['IDs', null],
    ['Ip', null],
    // Four letters may still be one edit off.
    ['Slce', 'slice'],
    ['Inpt', 'input'],
    ['Invariant', 'invariants'],
    ['Error', 'errors'],
    ['Depends', null],
    ['Notes', null],
    ['Test', null],
    ['', null],
    ['---', null]
  ])('resolves %j to %j', (label, key) => {
    expect(resolveFieldKey(label)).toBe(key)
  })
})

describe('criterion checks', () => {
  const value = [
    '### C-08: Checks', // 1
    '', // 2
    '**Acceptance Criteria:**', // 3
    '- Shows `total` -- verified by: `npm test -- total`', // 4
    '- Em dash — verified by: manual', // 5
    '- En dash – verified by: `make en`', // 6
    '- Prose -- verified by: read the handler and trace it', // 7
    '- Case -- Verified By: `make case`', // 8
    '- Nothing after -- verified by:', // 9
    '- A -- B, no check', // 10
    '- ', // 11
    '- **Bold** and *emphasis* lose their markers', // 12
    ''
  ].join('\n')

  it('splits checks off criteria: commands are bash, anything else manual', () => {
    const [contract] = read(value)
    expect(contract!.criteria.map(itemSummary)).toEqual([
      {text: 'Shows `total`', position: '4:3-4:52', check: {method: 'bash', command: 'npm test -- total', timeout: null}},
      {text: 'Em dash', position: '5:3-5:32', check: {method: 'manual', command: null, timeout: null}},
      {text: 'En dash', position: '6:3-6:35', check: {method: 'bash', command: 'make en', timeout: null}},
      {text: 'Prose', position: '7:3-7:54', check: {method: 'manual', command: null, timeout: null}},
      {text: 'Case', position: '8:3-8:35', check: {method: 'bash', command: 'make case', timeout: null}},
      {text: 'Nothing after -- verified by:', position: '9:3-9:32', check: null},
      {text: 'A -- B, no check', position: '10:3-10:19', check: null},
      {text: 'Bold and emphasis lose their markers', position: '12:3-12:45', check: null}
    ])
  })

  it('exports splitCheck', () => {
    expect(splitCheck('Runs -- verified by: `` npm t ``')).toEqual({
      text: 'Runs',
      check: {method: 'bash', command: 'npm t', timeout: null}
    })
    expect(splitCheck('No check')).toEqual({text: 'No check', check: null})
  })
})

describe('the per-tree cache', () => {
  const value = ['### C-01: Cached', '', '**Verification:** verify', '**Steps:**', '- open it', ''].join('\n')

  it('returns the same array for the same tree, file or not', () => {
    const {file, tree} = parse(value)
    const first = extractContracts(tree, file)
    expect(extractContracts(tree, file)).toBe(first)
    expect(extractContracts(tree)).toBe(first)
    expect(analyzeContracts(tree, file).contracts).toBe(first)
    expect(analyzeContracts(tree)).toBe(analyzeContracts(tree, file))
    // Another tree of the same text is read anew.
    const other = parse(value)
    const second = extractContracts(other.tree, other.file)
    expect(second).not.toBe(first)
    expect(second).toEqual(first)
  })

  it('reads the tree again when the file comes after a call without it, and keeps that analysis', () => {
    // A fenced block: its positions have offsets only with the file’s text.
    const fencedValue = ['### C-02: Later', '', '```', 'Verification: verify', 'Steps:', '  - open it', '```', ''].join('\n')
    const {file, tree} = parse(fencedValue)
    const without = analyzeContracts(tree)
    expect(analyzeContracts(tree)).toBe(without)
    expect(without.contracts[0]!.steps[0]!.position.start).toEqual({line: 6, column: 5})
    const withFile = analyzeContracts(tree, file)
    expect(withFile).not.toBe(without)
    expect(withFile.contracts[0]!.steps[0]!.position.start).toEqual({line: 6, column: 5, offset: 53})
    expect(fencedValue.slice(53, withFile.contracts[0]!.steps[0]!.position.end.offset)).toBe('open it')
    // From then on, with the file or without, the analysis with the text is the one.
    expect(analyzeContracts(tree, file)).toBe(withFile)
    expect(analyzeContracts(tree)).toBe(withFile)
    expect(extractContracts(tree)).toBe(withFile.contracts)
    // A file without a value is no source: it does not redo an analysis made with one, nor one without.
    expect(analyzeContracts(tree, new VFile({path: 'CONTRACTS.md'}))).toBe(withFile)
    const other = parse(fencedValue)
    const bare = analyzeContracts(other.tree, new VFile({path: 'CONTRACTS.md'}))
    expect(analyzeContracts(other.tree)).toBe(bare)
    expect(analyzeContracts(other.tree, other.file)).not.toBe(bare)
  })

  it('places fields exactly once the file comes, where only its text can (a lone CR in YAML)', () => {
    // YAML keeps a lone CR in a quoted string; markdown counts a line there, which only the text shows.
    const value = ['---', 'id: C-46', 'contract: "Two\rlines"', 'verification: auto', '---', ''].join('\n')
    const {file, tree} = parse(value)
    const tierLine = (contracts: Contract[]) => contracts[0]!.fields.find((field) => field.key === 'verification')!.labelPosition.start.line
    expect(tierLine(extractContracts(tree))).toBe(4)
    expect(tierLine(extractContracts(tree, file))).toBe(5)
    expect(tierLine(extractContracts(tree))).toBe(5)
  })

  it('does not walk the tree again once read', () => {
    const {file, tree} = parse(value)
    const first = extractContracts(tree, file)
    tree.children = []
    expect(extractContracts(tree, file)).toBe(first)
    expect(first.map((contract) => contract.label)).toEqual(['C-01 Cached'])
  })

  it('is what every rule of the preset reads', async () => {
    const {file, tree} = parse(value)
    const analysis = analyzeContracts(tree, file)
    // Change the cached analysis: rules that re-walked the tree would not see it.
    const verification = analysis.contracts[0]!.fields.find((field) => field.key === 'verification')!
    verification.value = 'bogus'
    analysis.contracts.push({...analysis.contracts[0]!, label: 'Injected', tier: null, criteria: [], steps: [], fields: []})
    const processor = unified().use(remarkParse).use(preset)
    await processor.run(tree, file)
    expect(
      file.messages.map((message) => ({reason: message.reason, place: span(message.place as Position), ruleId: message.ruleId, source: message.source}))
    ).toEqual([
      {
        reason: 'Unexpected verification tier `bogus` on C-01 Cached, expected `auto` or `verify`',
        place: '3:19-3:25',
        ruleId: 'verification-tier',
        source: 'remark-lint'
      },
      {
        reason:
          'Unexpected contract Injected without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto`',
        place: '1:1-1:17',
        ruleId: 'verify-tier-criteria',
        source: 'remark-lint'
      }
    ])
    expect(extractContracts(tree, file)).toBe(analysis.contracts)
  })
})

describe('contract labels', () => {
  it('names a contract by ID and name, either alone, or `(unnamed)`', () => {
    expect(contractLabel('C-03', 'CampaignStatusBadge')).toBe('C-03 CampaignStatusBadge')
    expect(contractLabel('C-03', '')).toBe('C-03')
    expect(contractLabel(null, 'Refunds')).toBe('Refunds')
    expect(contractLabel(null, '')).toBe('(unnamed)')
  })

  it('labels a frontmatter contract with neither id nor name `(unnamed)`', () => {
    expect(read('---\nverification: verify\n---\n').map((contract) => [contract.id, contract.name, contract.label])).toEqual([[null, '', '(unnamed)']])
  })
})

describe('without the file', () => {
  const value = [
    '---', // 1
    'id: C-01', // 2
    'verification: verify', // 3
    'steps: [open it]', // 4
    '---', // 5
    '', // 6
    '## C-02: Body', // 7
    '', // 8
    '**Verification:** verify', // 9
    '**Acceptance Criteria:**', // 10
    '- one `x`', // 11
    '', // 12
    '```', // 13
    'Steps:', // 14
    '  - two', // 15
    '```', // 16
    '', // 17
    '    Verification: auto', // 18  indented code: no contract block
    '', // 19
    '- in a list:', // 20
    '', // 21
    '  ```', // 22
    '  Slice: S-01', // 23
    '  ```', // 24
    ''
  ].join('\n')

  /** Positions as line and column only. */
  function lineColumn(contracts: Contract[]): unknown {
    return JSON.parse(JSON.stringify(contracts, (key, field: unknown) => (key === 'offset' ? undefined : field)))
  }

  it('gives the same lines and columns as with it', () => {
    const withFile = read(value)
    const tree: Root = unified().use(remarkParse).use(remarkFrontmatter).parse(value)
    const withoutFile = extractContracts(tree)
    expect(lineColumn(withoutFile)).toEqual(lineColumn(withFile))
    expect(withFile.map((contract) => [contract.label, contract.fields.map((field) => [field.label, span(field.labelPosition)])])).toEqual([
      [
        'C-01',
        [
          ['id', '2:1-2:3'],
          ['verification', '3:1-3:13'],
          ['steps', '4:1-4:6']
        ]
      ],
      [
        'C-02 Body',
        [
          // Its own fields are outside fences: the fences are examples.
          ['Verification', '9:3-9:15'],
          ['Acceptance Criteria', '10:3-10:22']
        ]
      ]
    ])
  })
})
