/**
 * Fuzzing with fast-check: generated contracts in every dialect, and noise
 * (broken tables, unclosed fences, deep nesting, odd Unicode, CR/CRLF, random
 * strings). Properties:
 *
 * 1. the presets never throw, and every message they add comes from
 *    remark-lint with a `place` inside the document;
 * 2. `extractContracts` never throws, is deterministic, and every position it
 *    gives lies inside the document (offsets agreeing with line and column);
 * 3. contracts survive a round trip through remark-stringify;
 * 4. clean generated contracts read as what was generated (an oracle: the
 *    round trip cannot see a misreading that is the same both times).
 *
 * Seeds are fixed, so a run is reproducible; `FUZZ_SCALE=20` runs twenty times
 * as many cases (with other seeds when `FUZZ_SEED` is set), as `npm run fuzz` does.
 */
import {analyzeContracts, extractContracts} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis, ContractItem} from '@verification-tiers/contracts'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import type {Root} from 'mdast'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import presetDefault from 'remark-preset-lint-verification-tiers'
import presetStrict from 'remark-preset-lint-verification-tiers-strict'
import {unified} from 'unified'
import type {Point, Position} from 'unist'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {cleanContract, contractDocument, deepNesting, noise, noisyDocument, oddUnicode, randomString, withLineEndings} from './fuzz/arbitraries.js'
import {positionsOf} from './helpers/positions.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))
const settings = (count: number, seedOffset: number) => ({seed: baseSeed + seedOffset, numRuns: runs(count)})

// ---------------------------------------------------------------------------
// Places inside a document.

/** Lines as markdown counts them: LF, CRLF or a lone CR ends a line. */
interface Lines {
  length: number
  starts: number[]
  lengths: number[]
}

/**
 * Lines of a document as the tree counts them. micromark drops a leading byte
 * order mark and counts every point from after it, so the document of the
 * points is the text after the BOM.
 */
function linesOf(value: string): Lines {
  const source = value.charCodeAt(0) === 0xfeff ? value.slice(1) : value
  const starts = [0]
  const lengths: number[] = []
  const ending = /\r\n?|\n/g
  for (let match = ending.exec(source); match; match = ending.exec(source)) {
    lengths.push(match.index - starts[starts.length - 1]!)
    starts.push(match.index + match[0].length)
  }
  lengths.push(source.length - starts[starts.length - 1]!)
  return {length: source.length, starts, lengths}
}

/** What is wrong with a point, or `null`. */
function pointProblem(lines: Lines, point: Point | undefined): string | null {
  if (!point) return 'missing point'
  const {line, column, offset} = point
  if (!Number.isInteger(line) || line < 1 || line > lines.starts.length) return `line ${line} outside 1..${lines.starts.length}`
  const width = lines.lengths[line - 1]!
  if (!Number.isInteger(column) || column < 1 || column > width + 1) return `column ${column} outside 1..${width + 1} of line ${line}`
  if (offset !== undefined) {
    if (!Number.isInteger(offset) || offset < 0 || offset > lines.length) return `offset ${offset} outside 0..${lines.length}`
    const expected = lines.starts[line - 1]! + column - 1
    if (offset !== expected) return `offset ${offset} is not ${line}:${column} (offset ${expected})`
  }
  return null
}

function before(a: Point, b: Point): boolean {
  return a.line < b.line || (a.line === b.line && a.column <= b.column)
}

/** What is wrong with a position, or `null`. */
function positionProblem(lines: Lines, position: Position | Point | undefined | null): string | null {
  if (!position) return 'missing position'
  if (!('start' in position)) return pointProblem(lines, position)
  const problem = pointProblem(lines, position.start) ?? pointProblem(lines, position.end)
  if (problem) return problem
  if (!before(position.start, position.end)) return 'start after end'
  return null
}

function misplaced(source: string, analysis: ContractAnalysis): string[] {
  const lines = linesOf(source)
  const wrong: string[] = []
  for (const [what, position] of positionsOf(analysis)) {
    const problem = positionProblem(lines, position)
    if (problem) wrong.push(`${what}: ${problem} ${JSON.stringify(position)}`)
  }
  return wrong
}

// ---------------------------------------------------------------------------
// Parsing and linting.

const parser = unified().use(remarkParse).use(remarkFrontmatter).freeze()
const strict = unified().use(remarkParse).use(presetStrict).freeze()
const lenient = unified().use(remarkParse).use(presetDefault).freeze()
const stringifier = remark().use(remarkFrontmatter).freeze()

const ruleIds = new Set([
  'acceptance-criteria-count',
  'acceptance-criteria-specific',
  'auto-tier-ignored-fields',
  'contract-field-name',
  'contract-field-order',
  'contract-frontmatter',
  'contract-item-list',
  'explicit-verification-tier',
  'no-hidden-contract',
  'verification-tier',
  'verify-tier-criteria'
])

function parse(value: string): {file: VFile; tree: Root} {
  const file = new VFile({path: 'CONTRACTS.md', value})
  return {file, tree: parser.parse(file)}
}

/** Problems with the messages a preset gives on `value` (a throw fails the property). */
function lintProblems(processor: typeof strict, value: string): string[] {
  const file = new VFile({path: 'CONTRACTS.md', value})
  processor.runSync(processor.parse(file), file)
  const lines = linesOf(value)
  const wrong: string[] = []
  for (const message of file.messages) {
    const where = `${message.ruleId}: ${message.reason}`
    if (message.source !== 'remark-lint') wrong.push(`source ${message.source} of ${where}`)
    if (!message.ruleId || !ruleIds.has(message.ruleId)) wrong.push(`unknown rule of ${where}`)
    const problem = positionProblem(lines, message.place)
    if (problem) wrong.push(`${where}: ${problem} ${JSON.stringify(message.place)}`)
  }
  return wrong
}

function lintsCleanly(value: string, processors: ReadonlyArray<typeof strict> = [strict]): void {
  for (const processor of processors) expect(lintProblems(processor, value)).toEqual([])
}

/**
 * The model on `value`: positions inside the document, and the same result
 * every time. The analysis is cached per tree, so each further analysis runs
 * on a copy of the tree (cheaper than parsing again).
 */
function extractsCleanly(value: string): void {
  const {file, tree} = parse(value)
  const analysis = analyzeContracts(tree, file)
  expect(misplaced(value, analysis)).toEqual([])
  expect(analyzeContracts(structuredClone(tree), file)).toEqual(analysis)
  // Without the file it must not throw either, nor vary; its positions inside
  // indented blocks and frontmatter are documented as approximate.
  expect(extractContracts(structuredClone(tree))).toEqual(extractContracts(structuredClone(tree)))
}

// ---------------------------------------------------------------------------
// Round trip.

/**
 * What the round trip must keep: everything but positions, which change as
 * remark-stringify puts blank lines between blocks and writes its own list
 * markers, fences and escapes. Texts compare exactly, but for `same`.
 */
function meaning(contracts: readonly Contract[]) {
  const items = (list: readonly ContractItem[]) =>
    list.map((item) => ({
      text: same(item.text),
      // A bad timeout keeps its text; its place moves like every other.
      check: item.check && {...item.check, command: item.check.command && same(item.check.command), invalidTimeout: item.check.invalidTimeout?.text}
    }))
  return contracts.map((contract) => ({
    id: contract.id,
    name: same(contract.name),
    dialect: contract.dialect,
    tier: contract.tier && same(contract.tier),
    effectiveTier: contract.effectiveTier,
    slice: contract.slice && same(contract.slice),
    sliceHeading: contract.sliceHeading && {id: contract.sliceHeading.id, name: same(contract.sliceHeading.name)},
    criteria: items(contract.criteria),
    steps: items(contract.steps),
    fields: contract.fields.map((field) => ({key: field.key, label: same(field.label), value: same(field.value), hasList: field.hasList}))
  }))
}

/**
 * The one change remark-stringify makes that parsing does not undo: after
 * emphasis (`***both***X`) it writes the next character as a numeric character
 * reference (`&#x10FFFF;`) so the emphasis still closes, and micromark decodes
 * references to control characters, surrogates, noncharacters and code points
 * out of range as U+FFFD (its decodeNumericCharacterReference). Those code
 * points compare as U+FFFD; nothing else is normalised.
 */
function same(text: string): string {
  let result = ''
  for (const character of text) {
    const code = character.codePointAt(0)!
    const refused =
      code < 9 ||
      code === 11 ||
      (code > 13 && code < 32) ||
      (code > 126 && code < 160) ||
      (code > 55_295 && code < 57_344) ||
      (code > 64_975 && code < 65_008) ||
      (code & 65_535) === 65_535 ||
      (code & 65_535) === 65_534
    result += refused ? '\uFFFD' : character
  }
  return result
}

function roundTrips(value: string): void {
  const original = parse(value)
  const before = extractContracts(original.tree, original.file)
  const output = String(stringifier.processSync(value))
  const again = parse(output)
  const after = extractContracts(again.tree, again.file)
  expect(meaning(after)).toEqual(meaning(before))
  // The output is a document too: its positions must be right as well.
  expect(misplaced(output, analyzeContracts(again.tree, again.file))).toEqual([])
}

// ---------------------------------------------------------------------------
// Inputs.

/** Anything but deep nesting: contract documents, noisy ones, noise alone, random strings; any line endings, maybe a BOM. */
const anyDocument: Arbitrary<string> = withLineEndings(
  fc.oneof(
    {weight: 3, arbitrary: noisyDocument},
    {weight: 2, arbitrary: contractDocument},
    {weight: 1, arbitrary: noise},
    {weight: 1, arbitrary: randomString}
  ),
  {bom: true}
)

/** Short inputs, quick to lint: many of them. */
const smallInput: Arbitrary<string> = withLineEndings(fc.oneof(randomString, oddUnicode), {bom: true})

/** Nesting 50 levels deep and more, alone or before contracts. */
const deepInput: Arbitrary<string> = withLineEndings(fc.tuple(deepNesting, fc.option(contractDocument, {nil: ''})).map(([deep, doc]) => deep + '\n\n' + doc))

const contractInput: Arbitrary<string> = withLineEndings(contractDocument)

// ---------------------------------------------------------------------------
// Properties: about 10,000 cases, sized for half a minute on two busy cores.

describe('fuzz: the presets', () => {
  it('strict: never throws on any document, and places every message inside it', () => {
    fc.assert(
      fc.property(anyDocument, (value) => lintsCleanly(value)),
      settings(500, 0)
    )
  })

  it('default: never throws on any document, and places every message inside it', () => {
    fc.assert(
      fc.property(anyDocument, (value) => lintsCleanly(value, [lenient])),
      settings(250, 1)
    )
  })

  it('both: never throw on random strings and odd Unicode', () => {
    fc.assert(
      fc.property(smallInput, (value) => lintsCleanly(value, [strict, lenient])),
      settings(1500, 2)
    )
  })

  it('strict: never throws on nesting 50 levels deep and more', () => {
    fc.assert(
      fc.property(deepInput, (value) => lintsCleanly(value)),
      settings(60, 3)
    )
  })
})

describe('fuzz: extractContracts', () => {
  it('never throws, is deterministic, and places everything inside the document', () => {
    fc.assert(fc.property(anyDocument, extractsCleanly), settings(500, 4))
  })

  it('does the same for contract documents with any line endings', () => {
    fc.assert(fc.property(contractInput, extractsCleanly), settings(300, 5))
  })

  it('does the same on random strings and odd Unicode', () => {
    fc.assert(fc.property(smallInput, extractsCleanly), settings(1000, 6))
  })
})

describe('fuzz: round trip through remark-stringify', () => {
  it('finds the same contracts after stringifying and parsing again', () => {
    fc.assert(fc.property(contractInput, roundTrips), settings(300, 7))
  })
})

describe('fuzz: clean contracts read as written', () => {
  it('gives the tier, criteria, steps and checks that were generated, placed on their text', () => {
    fc.assert(
      fc.property(cleanContract, ({value, expected}) => {
        const {file, tree} = parse(value)
        const contracts = extractContracts(tree, file)
        const items = (list: readonly ContractItem[]) => list.map((item) => ({text: item.text, method: item.check?.method ?? null}))
        expect(contracts.map((contract) => ({tier: contract.tier, criteria: items(contract.criteria), steps: items(contract.steps)}))).toEqual([expected])
        const source = value.charCodeAt(0) === 0xfeff ? value.slice(1) : value
        for (const item of [...contracts[0]!.criteria, ...contracts[0]!.steps]) {
          // YAML strings may be quoted; the item's first word is in its span whatever the dialect.
          expect(source.slice(item.position.start.offset, item.position.end.offset)).toContain(item.text.split(' ')[0])
        }
      }),
      settings(750, 8)
    )
  })
})

// ---------------------------------------------------------------------------
// Counterexamples the properties found, kept as fixed cases.

/** Contract label, tier and every field with its label and value spans, as `line:column-line:column`. */
function outline(value: string) {
  const {file, tree} = parse(value)
  const span = (position: Position | null) => position && `${position.start.line}:${position.start.column}-${position.end.line}:${position.end.column}`
  return extractContracts(tree, file).map((contract) => ({
    label: contract.label,
    tier: contract.tier,
    fields: contract.fields.map((field) => [field.label, span(field.labelPosition), span(field.valuePosition)]),
    items: [...contract.criteria, ...contract.steps].map((item) => [item.text, span(item.position)])
  }))
}

describe('fuzz: regressions', () => {
  it('round-trips a character that remark-stringify writes as a reference micromark will not decode', () => {
    // Shrunk: `***both***\u{10FFFF}` stringifies as `***both***&#x10FFFF;`, which parses as U+FFFD.
    roundTrips('# C-1: ***both***\u{10FFFF} *\n')
    roundTrips('# C-1: Name\n\n**Steps:**\n\n- ***a***\u0001 -- verified by: `x`\n')
  })

  it('counts positions after a byte order mark as the parser does', () => {
    // Shrunk: offsets were one more than their line and column give.
    const shrunk = '\ufeff# C-01: Campaign\n\n**Verification**: auto\n'
    expect(misplaced(shrunk, analyzeContracts(parse(shrunk).tree, parse(shrunk).file))).toEqual([])
    lintsCleanly('\ufeff# c-1\n\n# c-1\n', [strict, lenient])
    // And fenced contracts after a BOM were not read at all.
    expect(outline('\ufeff# C-01: X\n\n```\nVerification: auto\n```\n')).toEqual([
      {label: 'C-01 X', tier: 'auto', fields: [['Verification', '4:1-4:13', '4:15-4:19']], items: []}
    ])
    extractsCleanly('\ufeff---\nid: C-01\nverification: auto\n---\n')
  })

  it('places a YAML error at the end of the frontmatter on its last character', () => {
    // Shrunk: the `yaml` parser pointed one past the YAML, column 11 of the 9-character line 2.
    for (const shrunk of ['---\nid: [C-01\n---\n\n---\n', '---\nid: [C-01\r\n---\n\n# C-01: Campaign\r\n']) {
      const file = new VFile({path: 'CONTRACTS.md', value: shrunk})
      strict.runSync(strict.parse(file), file)
      expect(file.messages.map((message) => message.place)).toContainEqual({
        start: {line: 2, column: 9, offset: 12},
        end: {line: 2, column: 10, offset: 13}
      })
      lintsCleanly(shrunk, [strict, lenient])
    }
    extractsCleanly('---\nid: [C-01\n---\n')
    extractsCleanly('---\r\nid: [C-01\r\n---\r\n\r\n# C-01: Campaign\r\n')
  })

  it('places a bold value that wraps onto indented lines', () => {
    // Shrunk (the list does not interrupt the paragraph after the failed frontmatter
    // `---`, micromark/micromark-extension-frontmatter#5): one text node over 50 indented lines.
    let shrunk = '---\n\n---# C-01: Campaign\n\n# C-01: Campaign\n\n**Verification**: auto- level 0\n'
    for (let level = 1; level <= 48; level++) shrunk += '  '.repeat(level) + '- level ' + level + '\n'
    shrunk += '  '.repeat(49) + '- - a\n'
    extractsCleanly(shrunk)
    lintsCleanly(shrunk, [strict, lenient])
    expect(outline('# C-01: X\n\n**Acceptance Criteria:** The badge shows Draft\n    when the campaign has no start date\n')).toEqual([
      {
        label: 'C-01 X',
        tier: null,
        fields: [['Acceptance Criteria', '3:3-3:22', '3:26-4:40']],
        items: [['The badge shows Draft when the campaign has no start date', '3:26-4:40']]
      }
    ])
  })

  it('reads frontmatter whose lines CR alone ends', () => {
    // Shrunk (by the oracle): the valid YAML was reported invalid and the contract lost its tier and criteria.
    const shrunk = '---\rid: C-01\rverification: auto\racceptance_criteria:\r  - Open\rsteps:\r  - Open\r---\r\r# C-01\r'
    expect(outline(shrunk)).toEqual([
      {
        label: 'C-01',
        tier: 'auto',
        fields: [
          ['id', '2:1-2:3', '2:5-2:9'],
          ['verification', '3:1-3:13', '3:15-3:19'],
          ['acceptance_criteria', '4:1-4:20', null],
          ['steps', '6:1-6:6', null]
        ],
        items: [
          ['Open', '5:5-5:9'],
          ['Open', '7:5-7:9']
        ]
      }
    ])
    expect(analyzeContracts(parse(shrunk).tree, parse(shrunk).file).problems).toEqual([])
    extractsCleanly(shrunk)
  })

  it('places items of fenced blocks whose indentation takes part of a tab', () => {
    // Shrunk: after the failed frontmatter, `  ```# c-1` opens a fence indented two
    // spaces, which takes two of the four columns of the tab below.
    let shrunk = '---\nid: [C-01\n---|\n\n# C-01: Campaign\n\n- ```\n  ```# c-1\n\n```text\nAcceptance Criteria:\n\t- should work Open\n```\n\n'
    for (let depth = 1; depth <= 49; depth++) shrunk += '>'.repeat(depth) + ' q\n'
    shrunk += '>'.repeat(50) + ' **Verification:** auto\n'
    lintsCleanly(shrunk, [strict, lenient])
    extractsCleanly(shrunk)
    // The same in a list item, with no frontmatter involved.
    const inList = '# C-01: X\n\n- ```text\n  Acceptance Criteria:\n\t- should work Open\n  ```\n'
    extractsCleanly(inList)
    expect(outline(inList)[0]?.items).toEqual([['should work Open', '5:4-5:20']])
  })
})
