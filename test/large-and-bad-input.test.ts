import {readFile} from 'node:fs/promises'
import {analyzeContracts} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis} from '@verification-tiers/contracts'
import type {Root} from 'mdast'
import remarkParse from 'remark-parse'
import preset from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import type {Point, Position} from 'unist'
import {VFile} from 'vfile'
import {location} from 'vfile-location'
import type {VFileMessage} from 'vfile-message'
import {beforeAll, describe, expect, it} from 'vitest'
import {positionsOf} from './helpers/positions.js'

/** Lint `value` with the real preset (it brings remark-frontmatter and remark-lint). */
async function lint(value: string): Promise<{file: VFile; tree: Root; analysis: ContractAnalysis}> {
  const file = new VFile({path: 'CONTRACTS.md', value})
  const processor = unified().use(remarkParse).use(preset)
  const tree = processor.parse(file)
  await processor.run(tree, file)
  // Cached by the rules: reading it again walks nothing.
  return {file, tree, analysis: analyzeContracts(tree, file)}
}

function span(position: Position | null | undefined): string | null {
  if (!position) return null
  return `${position.start.line}:${position.start.column}-${position.end.line}:${position.end.column}`
}

function summary(message: VFileMessage) {
  return {
    reason: message.reason,
    line: message.line,
    column: message.column,
    place: span(message.place as Position),
    ruleId: message.ruleId,
    source: message.source,
    fatal: message.fatal
  }
}

/** Positions of the model whose offset does not give back their line and column. */
function misplaced(source: string, analysis: ContractAnalysis): string[] {
  const place = location(source)
  const wrong: string[] = []
  const check = (what: string, point: Point) => {
    const found = point.offset === undefined ? undefined : place.toPoint(point.offset)
    if (!found || found.line !== point.line || found.column !== point.column) wrong.push(what + ' ' + JSON.stringify(point))
  }
  for (const [what, position] of positionsOf(analysis)) {
    check(what, position.start)
    check(what, position.end)
  }
  return wrong
}

/** 1-based number of the first line equal to `text` after line `after`. */
function lineOf(lines: readonly string[], text: string, after = 0): number {
  const index = lines.indexOf(text, after)
  if (index === -1) throw new Error('No line ' + JSON.stringify(text))
  return index + 1
}

function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1
  return counts
}

const pad = (number: number, width: number) => String(number).padStart(width, '0')

describe('a large committed contracts file (test/fixtures/large-contracts.md)', () => {
  let source = ''
  let lines: string[] = []
  let file: VFile
  let analysis: ContractAnalysis
  let contracts: Contract[] = []
  beforeAll(async () => {
    source = await readFile(new URL('fixtures/large-contracts.md', import.meta.url), 'utf8')
    lines = source.split('\n')
    ;({file, analysis} = await lint(source))
    contracts = analysis.contracts
  })
  // What the fixture holds, shape by shape (see generate-large-contracts.mjs).
  const numbers = Array.from({length: 200}, (_, index) => index + 1)
  const byId = (id: string) => contracts.find((contract) => contract.id === id)!
  const byName = (name: string) => contracts.find((contract) => contract.name === name)!

  it('is several thousand lines long', () => {
    expect(lines.length).toBe(3414)
    expect(lines.at(-1)).toBe('')
  })

  it('finds every contract, in order', () => {
    expect(contracts.length).toBe(201)
    expect(contracts.map((contract) => contract.id)).toEqual(['C-000', ...numbers.map((i) => (i % 5 === 0 ? null : 'C-' + pad(i, 3)))])
    expect(contracts.map((contract) => contract.name)).toEqual(['Overview', ...numbers.map((i) => ['Job', 'Widget', 'Api', 'Badge', 'Format'][i % 5]! + i)])
    expect(contracts.map((contract) => contract.slice)).toEqual([null, ...numbers.map((i) => 'S-' + pad(Math.ceil(i / 10), 2))])
    expect(analysis.problems).toEqual([])
  })

  it('reads every dialect', () => {
    expect(countBy(contracts, (contract) => contract.dialect)).toEqual({frontmatter: 1, bold: 80, fenced: 80, comment: 40})
    expect(countBy(contracts, (contract) => String(contract.tier))).toEqual({auto: 77, verify: 110, Verify: 10, null: 4})
    expect(contracts.reduce((sum, contract) => sum + contract.criteria.length, 0)).toBe(288)
    expect(contracts.reduce((sum, contract) => sum + contract.steps.length, 0)).toBe(140)
    expect(
      countBy(
        contracts.flatMap((contract) => contract.criteria),
        (item) => item.check?.method ?? 'none'
      )
    ).toEqual({
      bash: 120,
      manual: 40,
      none: 128
    })
  })

  it('places a sample exactly', () => {
    const overview = contracts[0]!
    expect([span(overview.headingPosition), span(overview.position)]).toEqual(['3:1-3:19', '1:1-13:21'])

    const widget = byId('C-001')
    const heading = lineOf(lines, '### C-001: Widget1')
    expect(heading).toBe(15)
    expect(span(widget.headingPosition)).toBe(`${heading}:1-${heading}:19`)
    const output = widget.fields.find((field) => field.key === 'output')!
    expect([output.value, span(output.valuePosition)]).toEqual([
      "a panel that lists the widget's rows, wrapped over two lines with `Widget1` kept in backticks.",
      `${heading + 14}:13-${heading + 15}:44`
    ])
    expect(widget.criteria.map((item) => [item.text, span(item.position)])).toEqual([
      ['Widget 1 shows its rows in a table', `${heading + 25}:3-${heading + 25}:76`],
      ['Widget 1 shows an empty state when it has no rows', `${heading + 26}:3-${heading + 26}:52`],
      ['The header of widget 1 reads "Widget 1"', `${heading + 27}:3-${heading + 27}:64`],
      ['Sorting widget 1 works as expected', `${heading + 28}:3-${heading + 28}:37`]
    ])
    // `#### Notes` and its paragraph belong to the contract.
    expect(span(widget.position)).toBe(`${heading}:1-${heading + 36}:69`)

    const badge = byId('C-103')
    const badgeHeading = lineOf(lines, '### C-103: Badge103')
    expect(badge.fields.map((field) => [field.label, span(field.labelPosition)])).toEqual([
      ['Contract', `${badgeHeading + 3}:1-${badgeHeading + 3}:9`],
      ['Boundary', `${badgeHeading + 4}:1-${badgeHeading + 4}:9`],
      ['Slice', `${badgeHeading + 5}:1-${badgeHeading + 5}:6`],
      ['Invariants', `${badgeHeading + 7}:1-${badgeHeading + 7}:11`],
      ['Verification', `${badgeHeading + 10}:1-${badgeHeading + 10}:13`],
      ['Acceptance Criteria', `${badgeHeading + 11}:1-${badgeHeading + 11}:20`],
      ['Steps', `${badgeHeading + 14}:1-${badgeHeading + 14}:6`],
      ['Dependencies', `${badgeHeading + 16}:1-${badgeHeading + 16}:13`]
    ])
    expect(badge.criteria.map((item) => span(item.position))).toEqual([
      `${badgeHeading + 12}:5-${badgeHeading + 12}:74`,
      `${badgeHeading + 13}:5-${badgeHeading + 13}:40`
    ])

    const format = byId('C-124')
    const formatHeading = lineOf(lines, '### C-124: Format124')
    const tier = format.fields.find((field) => field.key === 'verification')!
    expect([tier.dialect, span(tier.labelPosition), span(tier.valuePosition)]).toEqual([
      'comment',
      `${formatHeading + 6}:4-${formatHeading + 6}:16`,
      `${formatHeading + 6}:18-${formatHeading + 6}:22`
    ])

    const job = byName('Job200')
    const jobHeading = lineOf(lines, '### Contract: Job200')
    expect(job.label).toBe('Job200')
    expect(span(job.headingPosition)).toBe(`${jobHeading}:1-${jobHeading}:21`)
    expect(job.criteria.map((item) => span(item.position))).toEqual([`${jobHeading + 7}:7-${jobHeading + 7}:76`, `${jobHeading + 8}:7-${jobHeading + 8}:39`])
    // The last contract ends with its list, on the last line but the final newline.
    expect(span(job.position)).toBe(`${jobHeading}:1-${lines.length - 1}:6`)
  })

  it('keeps every position of the model consistent with its offset', () => {
    expect(misplaced(source, analysis)).toEqual([])
  })

  it('lints it with the preset: every planted mistake, nothing else', () => {
    expect(countBy(file.messages, (message) => String(message.ruleId))).toEqual({
      'contract-field-name': 40,
      'verification-tier': 10,
      'auto-tier-ignored-fields': 20,
      'verify-tier-criteria': 4,
      'acceptance-criteria-specific': 8
    })
    expect(file.messages.every((message) => message.source === 'remark-lint')).toBe(true)
    expect(file.messages.filter((message) => message.fatal).map((message) => message.ruleId)).toEqual(Array.from({length: 10}, () => 'verification-tier'))
    const job20 = lineOf(lines, '### Contract: Job20')
    const api57 = lineOf(lines, '### C-057: Api57')
    const api2 = lineOf(lines, '### C-002: Api2')
    const job5 = lineOf(lines, '### Contract: Job5')
    const widget26 = lineOf(lines, '### C-026: Widget26')
    const pick = (ruleId: string, needle: string) =>
      file.messages.filter((message) => message.ruleId === ruleId && message.reason.includes(needle)).map(summary)
    expect(pick('verification-tier', 'Job20,')).toEqual([
      {
        reason: 'Unexpected verification tier `Verify` on Job20, expected `verify`',
        line: job20 + 5,
        column: 17,
        place: `${job20 + 5}:17-${job20 + 5}:23`,
        ruleId: 'verification-tier',
        source: 'remark-lint',
        fatal: true
      }
    ])
    expect(pick('verify-tier-criteria', 'C-057')).toEqual([
      {
        reason:
          'Unexpected contract C-057 Api57 without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto`',
        line: api57,
        column: 1,
        place: `${api57}:1-${api57}:17`,
        ruleId: 'verify-tier-criteria',
        source: 'remark-lint',
        fatal: false
      }
    ])
    expect(pick('auto-tier-ignored-fields', 'C-002')).toEqual([
      {
        reason: 'Unexpected steps on auto contract C-002 Api2, expected none as the `auto` tier ignores them, or `Verification: verify`',
        line: api2 + 5,
        column: 3,
        place: `${api2 + 5}:3-${api2 + 5}:8`,
        ruleId: 'auto-tier-ignored-fields',
        source: 'remark-lint',
        fatal: false
      }
    ])
    expect(pick('contract-field-name', 'Job5,')).toEqual([
      {
        reason: 'Unexpected field name `Acceptence Criteria` in Job5, expected `Acceptance Criteria`',
        line: job5 + 6,
        column: 3,
        place: `${job5 + 6}:3-${job5 + 6}:22`,
        ruleId: 'contract-field-name',
        source: 'remark-lint',
        fatal: false
      }
    ])
    expect(pick('acceptance-criteria-specific', 'C-026')).toEqual([
      {
        reason: 'Unexpected vague criterion `works as expected` in C-026 Widget26, expected an observable outcome or a `-- verified by:` check',
        line: widget26 + 28,
        column: 3,
        place: `${widget26 + 28}:3-${widget26 + 28}:38`,
        ruleId: 'acceptance-criteria-specific',
        source: 'remark-lint',
        fatal: false
      }
    ])
  })
})

describe('bad input', () => {
  const frontmatterMessage = (reason: string, place: string) => ({
    reason: `Unexpected invalid YAML in frontmatter (${reason}), expected valid YAML`,
    line: Number(place.split(':')[0]),
    column: Number(place.split(/[:-]/)[1]),
    place,
    ruleId: 'contract-frontmatter',
    source: 'remark-lint',
    fatal: false
  })

  it.each([
    [
      'an unclosed flow sequence',
      ['---', 'id: C-44', 'contract: [Broken', 'verification: verify', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\n'),
      'Flow sequence in block collection must be sufficiently indented and end with a ]',
      '4:1-4:2'
    ],
    [
      'an unclosed flow sequence, CRLF',
      ['---', 'id: C-44', 'contract: [Broken', 'verification: verify', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\r\n'),
      'Flow sequence in block collection must be sufficiently indented and end with a ]',
      '4:1-4:2'
    ],
    [
      'a value starting with a backtick',
      ['---', 'id: C-44', 'contract: Broken', 'verification: `auto`', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\n'),
      'Plain value cannot start with reserved character `',
      '4:15-4:16'
    ],
    [
      'an unclosed quote at the end of the YAML',
      ['---', 'id: C-44', 'contract: "Broken', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\n'),
      'Missing closing "quote',
      // An error the parser puts one past the YAML is placed on its last character.
      '3:17-3:18',
      []
    ],
    [
      'a tab as indentation',
      ['---', 'id: C-44', 'steps:', '\t- a', '---', '', '# C-44: Broken', '', '**Verification:** auto', ''].join('\n'),
      'Tabs are not allowed as indentation',
      '4:1-4:1'
    ]
  ] as Array<[string, string, string, string, string[]?]>)(
    'reports malformed YAML frontmatter (%s) once, at its place, and reads the body',
    async (_, value, reason, place, wrong = []) => {
      const {file, analysis} = await lint(value)
      expect(file.messages.map(summary)).toEqual([frontmatterMessage(reason, place)])
      expect(analysis.problems.map((problem) => problem.kind)).toEqual(['yaml-syntax'])
      expect(analysis.contracts.map((contract) => [contract.label, contract.dialect, contract.tier])).toEqual([['C-44 Broken', 'bold', 'auto']])
      expect(misplaced(value, analysis)).toEqual(wrong)
    }
  )

  it('reads a fenced block nested in 4,000 quotes without running out of stack', async () => {
    const quotes = '>'.repeat(4000)
    const value = ['### C-11: Deep', '', quotes + ' ```', quotes + ' Verification: verfy', quotes + ' ```', ''].join('\n')
    const {file, analysis} = await lint(value)
    expect(analysis.contracts.map((contract) => [contract.label, contract.dialect, contract.tier])).toEqual([['C-11 Deep', 'fenced', 'verfy']])
    expect(file.messages.map((message) => message.ruleId)).toEqual(['verification-tier', 'verify-tier-criteria'])
  })

  it('reads a contract heading with no fields, and lints it as a verify contract without criteria', async () => {
    const value = ['# Contracts', '', '### C-09: Empty', '', '### C-10:', '', '### Contract: Nothing'].join('\n')
    const {file, analysis} = await lint(value)
    expect(analysis.contracts.map((contract) => [contract.id, contract.name, contract.label, contract.fields.length, span(contract.position)])).toEqual([
      ['C-09', 'Empty', 'C-09 Empty', 0, '3:1-3:16'],
      ['C-10', '', 'C-10', 0, '5:1-5:10'],
      [null, 'Nothing', 'Nothing', 0, '7:1-7:22']
    ])
    const reason = (label: string) =>
      `Unexpected contract ${label} without acceptance criteria or steps (its tier defaults to \`verify\`), expected at least one criterion or step, or \`Verification: auto\``
    expect(file.messages.map(summary)).toEqual([
      {reason: reason('C-09 Empty'), line: 3, column: 1, place: '3:1-3:16', ruleId: 'verify-tier-criteria', source: 'remark-lint', fatal: false},
      {reason: reason('C-10'), line: 5, column: 1, place: '5:1-5:10', ruleId: 'verify-tier-criteria', source: 'remark-lint', fatal: false},
      {reason: reason('Nothing'), line: 7, column: 1, place: '7:1-7:22', ruleId: 'verify-tier-criteria', source: 'remark-lint', fatal: false}
    ])
  })

  it.each([
    ['bold', ['### C-11: Empty', '', '**Verification:** verify', '**Acceptance Criteria:**', '', '-', '-', ''].join('\n'), '3:1-3:25', '4:1-7:2'],
    ['fenced', ['### C-11: Empty', '', '```', 'Verification: verify', 'Acceptance Criteria:', '  -', '  - ', '```', ''].join('\n'), '4:1-4:21', '5:1-5:20'],
    ['frontmatter', ['---', 'id: C-11', 'contract: Empty', 'verification: verify', 'acceptance_criteria: []', '---', ''].join('\n'), '4:1-4:21', '5:1-5:24']
  ])('reads an empty list under Acceptance Criteria (%s) as no criteria', async (_, value, tierPlace, fieldPlace) => {
    const {file, analysis} = await lint(value)
    const [contract, ...rest] = analysis.contracts
    expect(rest).toEqual([])
    const criteria = contract!.fields.find((field) => field.key === 'acceptanceCriteria')!
    expect([criteria.hasList, criteria.items, span(criteria.position)]).toEqual([true, [], fieldPlace])
    expect([contract!.label, contract!.tier, contract!.criteria]).toEqual(['C-11 Empty', 'verify', []])
    expect(file.messages.map(summary)).toEqual([
      {
        reason: 'Unexpected verify contract C-11 Empty without acceptance criteria or steps, expected at least one criterion or step',
        line: Number(tierPlace.split(':')[0]),
        column: 1,
        place: tierPlace,
        ruleId: 'verify-tier-criteria',
        source: 'remark-lint',
        fatal: false
      }
    ])
  })

  describe('binary noise', () => {
    /** Deterministic random bytes (mulberry32), a NUL every 97 bytes, decoded as UTF-8. */
    function noise(seed: number, size: number): string {
      let state = seed >>> 0
      const bytes = new Uint8Array(size)
      for (let index = 0; index < size; index++) {
        state = (state + 0x6d2b79f5) >>> 0
        let value = state
        value = Math.imul(value ^ (value >>> 15), value | 1)
        value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
        bytes[index] = (value ^ (value >>> 14)) & 0xff
        if (index % 97 === 0) bytes[index] = 0
      }
      return new TextDecoder('utf-8').decode(bytes)
    }

    const bytes = noise(0x5eed, 65_536)

    it('is noisy: NULs, replacement characters, CR and LF', () => {
      expect(bytes.length).toBe(62_107)
      expect(
        countBy(
          [...bytes].filter((character) => '\0\r\n\uFFFD'.includes(character)),
          (character) => character.codePointAt(0)!.toString(16)
        )
      ).toEqual({
        '0': 917,
        a: 236,
        d: 276,
        fffd: 26_817
      })
    })

    it('lints pure noise without a crash or a contract', async () => {
      const {file, analysis} = await lint(bytes)
      expect(analysis).toEqual({contracts: [], problems: []})
      expect(file.messages).toEqual([])
    })

    it('reads a contract before noise exactly, whatever follows', async () => {
      // A label ends the criteria: the lists, tables and quotes of the noise after it are no criteria.
      const prefix = [
        '### C-01: Noise',
        '',
        '**Verification:** verify',
        '**Acceptance Criteria:**',
        '- Survives noise -- verified by: `make noise`',
        '',
        '**Notes:** noise below',
        '',
        ''
      ].join('\n')
      const value = prefix + bytes
      const {file, tree, analysis} = await lint(value)
      expect(file.messages).toEqual([])
      expect(analysis.problems).toEqual([])
      const [contract, ...rest] = analysis.contracts
      expect(rest).toEqual([])
      expect([contract!.label, contract!.tier, span(contract!.headingPosition)]).toEqual(['C-01 Noise', 'verify', '1:1-1:16'])
      expect(contract!.fields.map((field) => [field.label, span(field.position)])).toEqual([
        ['Verification', '3:1-3:25'],
        ['Acceptance Criteria', '4:1-5:46'],
        ['Notes', '7:1-7:23']
      ])
      expect(contract!.criteria.map((item) => [item.text, span(item.position), item.check])).toEqual([
        ['Survives noise', '5:3-5:46', {method: 'bash', command: 'make noise', timeout: null}]
      ])
      // The noise is the contract's section, to the end of the document's last node.
      expect(contract!.position).toEqual({start: {line: 1, column: 1, offset: 0}, end: tree.children.at(-1)!.position!.end})
      expect(misplaced(value, analysis)).toEqual([])
    })

    it('reports noise in frontmatter once, at the start of the noise', async () => {
      // No `---` line in the noise, so the frontmatter ends where it should.
      const yaml = bytes.slice(0, 3000).replace(/(^|[\r\n])-{3}/g, '$1- -')
      const value = ['---', 'id: C-02', yaml, '---', '', '# C-02: After', '', '**Verification:** auto', ''].join('\n')
      const {file, analysis} = await lint(value)
      expect(file.messages.map(summary)).toEqual([frontmatterMessage('Implicit keys need to be on a single line', '3:1-18:129')])
      expect(analysis.contracts.map((contract) => [contract.label, contract.dialect, contract.tier])).toEqual([['C-02 After', 'bold', 'auto']])
      expect(misplaced(value, analysis)).toEqual([])
    })

    it('reads noise inside a fenced contract block without a crash, positions consistent', async () => {
      const body = bytes
        .slice(0, 20_000)
        .split(/\r\n?|\n/)
        .map((line) => '  - ' + line.replace(/`{3,}|~{3,}/g, ''))
        .join('\n')
      const value = ['### C-03: Noisy', '', '```', 'Verification: verify', 'Steps:', body, '```', ''].join('\n')
      const {file, analysis} = await lint(value)
      const [contract, ...rest] = analysis.contracts
      expect(rest).toEqual([])
      expect(contract!.tier).toBe('verify')
      // One step per noise line that is not blank.
      const expectedSteps = body.split('\n').filter((line) => line.slice(4).trim() !== '').length
      expect(contract!.steps.length).toBe(expectedSteps)
      expect(contract!.steps.length).toBeGreaterThan(50)
      expect(file.messages).toEqual([])
      expect(misplaced(value, analysis)).toEqual([])
    })
  })

  it('lints a 5 MB file without a crash and counts its contracts', async () => {
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. '.repeat(12).trim()
    const parts: string[] = ['# Five megabytes', '']
    let line = 3
    const headings: number[] = []
    const labels: string[] = []
    const untiered: number[] = []
    let count = 0
    let size = 0
    const push = (...more: string[]) => {
      parts.push(...more)
      line += more.length
      for (const part of more) size += part.length + 1
    }
    while (size < 5 * 1024 * 1024) {
      count++
      headings.push(line)
      labels.push(`C-${count} ` + ['Bold', 'Fenced', 'Comment', 'Untiered'][count % 4]! + count)
      switch (count % 4) {
        case 0: {
          push(
            `### C-${count}: Bold${count}`,
            '',
            '**Verification:** verify',
            '**Acceptance Criteria:**',
            `- Bold ${count} renders`,
            `- Bold ${count} saves`,
            ''
          )
          break
        }
        case 1: {
          push(`### C-${count}: Fenced${count}`, '', '```', 'Verification: auto', '```', '')
          break
        }
        case 2: {
          push(`### C-${count}: Comment${count}`, '', '```go', '// Verification: auto', '```', '')
          break
        }
        default: {
          untiered.push(line)
          push(`### C-${count}: Untiered${count}`, '', '**Boundary:** none', '')
        }
      }
      push('#### Notes', '', ...Array.from({length: 20}, () => filler), '', '```ts', ...Array.from({length: 5}, () => `const x = '${filler}'`), '```', '')
    }
    const value = parts.join('\n')
    expect(value.length).toBeGreaterThanOrEqual(5 * 1024 * 1024)
    const {file, analysis} = await lint(value)
    expect(analysis.contracts.length).toBe(count)
    expect(count).toBe(218)
    expect(analysis.contracts.map((contract) => contract.label)).toEqual(labels)
    expect(analysis.contracts.map((contract) => contract.headingPosition.start.line)).toEqual(headings)
    expect(countBy(analysis.contracts, (contract) => contract.dialect)).toEqual({bold: 108, fenced: 55, comment: 55})
    expect(countBy(analysis.contracts, (contract) => String(contract.tier))).toEqual({verify: 54, auto: 110, null: 54})
    expect(file.messages.map((message) => [message.ruleId, message.line, message.column])).toEqual(untiered.map((at) => ['verify-tier-criteria', at, 1]))
  })
})
