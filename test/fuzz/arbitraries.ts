/**
 * fast-check arbitraries for fuzzing the contract model and the lint rules:
 * contracts in every dialect (bold labels, fenced blocks, `// ` comment
 * blocks, YAML frontmatter), and noise (broken tables, unclosed fences, deep
 * nesting, odd Unicode, CR/CRLF line endings, random strings).
 *
 * Every arbitrary gives markdown with LF line endings; `withLineEndings`
 * rewrites them.
 */
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'

// ---------------------------------------------------------------------------
// Words and text.

const plainWords = [
  'Open',
  'the',
  'campaign',
  'page',
  'badge',
  'shows',
  'Draft',
  'status',
  'returns',
  '404',
  'when',
  'user',
  'signed',
  'in',
  'list',
  'renders',
  'ten',
  'rows',
  'API',
  'p95',
  '200ms',
  'and',
  'or',
  'GET',
  '/campaigns',
  'x',
  'Spend',
  'cents',
  'en-US',
  'it',
  'If',
  'no',
  'None',
  'n/a',
  'TBD'
]
const vagueWords = ['should work', 'works as expected', 'is correct', 'handled properly', 'looks good', 'is intuitive']
// Characters and constructs markdown gives meaning to.
const markupWords = [
  '*',
  '_',
  '**',
  '__',
  '`code`',
  '``a ` b``',
  '` x `',
  '*em*',
  '_em_',
  '**strong**',
  '***both***',
  '[link](http://x.y)',
  '<http://x.y>',
  '<b>',
  '</b>',
  '&amp;',
  '&copy;',
  '&#x41;',
  '\\*',
  '\\',
  '#',
  '|',
  '~',
  '~~',
  '!',
  '[x]',
  '[^1]',
  '{',
  '}',
  ':',
  '::',
  '--',
  '—',
  '–',
  '>',
  '1.',
  '2)',
  '+',
  '=',
  '$',
  '%',
  '"',
  "'",
  '(',
  ')',
  '/',
  '\t'
]
// Unicode people do not type every day, plus what `fc.string({unit: 'binary'})` gives.
const unicodeWords = [
  'é',
  'e\u0301',
  'a\u0308\u0301\u0323',
  '👍',
  '👩‍👩‍👧',
  '𝒳',
  '\u{1F600}',
  'עברית',
  'العربية',
  '\u202e',
  '\u200f',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u00a0',
  '\u3000',
  '漢字',
  'Ⅻ',
  'ß',
  'İ',
  'ﬁ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u2028',
  '\u0085',
  '\u000b',
  '\u000c',
  '\u{10FFFF}'
]

const word: Arbitrary<string> = fc.oneof(
  {weight: 8, arbitrary: fc.constantFrom(...plainWords)},
  {weight: 1, arbitrary: fc.constantFrom(...vagueWords)},
  {weight: 2, arbitrary: fc.constantFrom(...markupWords)},
  {weight: 2, arbitrary: fc.constantFrom(...unicodeWords)},
  {weight: 1, arbitrary: fc.string({unit: 'grapheme', minLength: 1, maxLength: 4})},
  {weight: 1, arbitrary: fc.string({unit: 'binary', minLength: 1, maxLength: 4}).map(noLineEndings)}
)

/** One line of text: never holds a line ending. */
export const text: Arbitrary<string> = fc.array(fc.tuple(word, fc.constantFrom(' ', ' ', ' ', '', '  ')), {minLength: 1, maxLength: 6}).map((parts) =>
  parts
    .map(([w, space]) => w + space)
    .join('')
    .trimEnd()
)

/** Simple words only: names and ids that stay readable in a failing case. */
const name: Arbitrary<string> = fc
  .array(fc.constantFrom('Campaign', 'Status', 'Badge', 'Format', 'Spend', 'List', 'Card', 'Ünïcode', '漢字', 'A_b', 'x*y'), {
    minLength: 1,
    maxLength: 3
  })
  .map((parts) => parts.join(' '))

function noLineEndings(value: string): string {
  return value.replace(/[\r\n]/g, ' ')
}

// ---------------------------------------------------------------------------
// Labels and tiers.

/** Keys of the fields a contract has, with the labels to write them under. */
type Key = 'id' | 'contract' | 'slice' | 'security' | 'verification' | 'acceptanceCriteria' | 'steps' | 'dependencies' | 'other'

const markdownLabels: Record<Key, readonly string[]> = {
  id: ['ID', 'Id', 'id'],
  contract: ['Contract'],
  slice: ['Slice', 'slice', 'Slices'],
  security: ['Security', 'Securty'],
  verification: ['Verification', 'verification', 'VERIFICATION', 'Verfication', 'Verifcation', 'Verification Tier'],
  acceptanceCriteria: ['Acceptance Criteria', 'Acceptence Criteria', 'AcceptanceCriteria', 'acceptance-criteria', 'acceptance criteria', 'Acceptance_Criteria'],
  steps: ['Steps', 'Step', 'steps', 'STEPS', 'Stpes'],
  dependencies: ['Dependencies', 'Depends'],
  // Unknown labels, short words close to `ID`, and labels the label pattern refuses.
  other: [
    'Notes',
    'Owner',
    'If',
    'In',
    'It',
    'Boundary',
    'Input',
    'Output',
    'Errors',
    'Invariants',
    'Note that X',
    '1abc',
    'A label far too long to be a label of a contract at all',
    'Ünïcode',
    'a/b & c'
  ]
}

const frontmatterLabels: Record<Key, readonly string[]> = {
  id: ['id', 'ID'],
  contract: ['contract', 'Contract'],
  slice: ['slice'],
  security: ['security'],
  verification: ['verification', 'Verification', 'verfication', 'tier'],
  acceptanceCriteria: ['acceptance_criteria', 'acceptanceCriteria', 'acceptance-criteria', 'Acceptance Criteria', 'acceptence_criteria'],
  steps: ['steps', 'step', 'Steps'],
  dependencies: ['dependencies'],
  other: ['tags', 'owner', 'notes', 'if']
}

/** Valid tiers, and the ways people get them wrong. */
export const tierValue: Arbitrary<string> = fc.oneof(
  {weight: 6, arbitrary: fc.constantFrom('auto', 'verify')},
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '`auto`',
      '`verify`',
      'Verify',
      'AUTO',
      'manual',
      'auto | verify',
      '',
      'none',
      'auto.',
      'vérify',
      '``verify``',
      'verify verify',
      '`` ` ``'
    )
  },
  {weight: 1, arbitrary: text}
)

const keyArb: Arbitrary<Key> = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom<Key>('verification', 'acceptanceCriteria', 'steps')},
  {weight: 1, arbitrary: fc.constantFrom<Key>('id', 'slice', 'security', 'dependencies', 'other')}
)

// ---------------------------------------------------------------------------
// Contracts as data, rendered in each dialect.

export interface ItemSpec {
  text: string
  /** `-- verified by: …` suffix, or `''`. */
  suffix: string
  /** For YAML: write the check as `verify: {method, command, timeout}`. */
  verify: {method: string; command: string | null; timeout: number | string | null} | null
}

export interface FieldSpec {
  key: Key
  /** Label in markdown dialects, and in YAML. */
  label: string
  yamlLabel: string
  value: string
  /** List items, or `null` for no list. */
  items: ItemSpec[] | null
}

export type MarkdownDialect = 'bold' | 'fenced' | 'comment'

export interface ContractSpec {
  dialect: MarkdownDialect
  depth: number
  heading: string
  fields: FieldSpec[]
  /** Rendering choices (fast-check shrinks these too). */
  style: {
    bold: '**' | '__'
    colonInside: boolean
    separator: '\n' | '\n\n' | '  \n' | '\\\n'
    listGap: '\n' | '\n\n'
    marker: '-' | '*' | '+' | '1.' | '1)'
    fence: '```' | '~~~' | '````'
    lang: string
    container: 'none' | 'list' | 'quote' | 'list-quote'
    indent: '  ' | '    ' | '\t' | '   '
    commentPrefix: '// ' | '//' | '//  '
  }
}

const suffix: Arbitrary<string> = fc.oneof(
  {weight: 4, arbitrary: fc.constant('')},
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ' -- verified by: `npm test`',
      ' — verified by: `go test ./...`',
      ' – verified by: manual',
      ' -- verified by: read the handler',
      ' -- verified by: ``',
      ' -- Verified By: `a` `b`',
      ' --verified by:`x`',
      ' -- verified by:'
    )
  }
)

const verifyArb = fc.option(
  fc.record({
    method: fc.constantFrom('bash', 'manual', 'BASH', ''),
    command: fc.option(fc.constantFrom('npm test', 'go test ./...', 'curl -fsS http://localhost:3000/health', ''), {nil: null}),
    timeout: fc.option(fc.oneof(fc.integer({min: -5, max: 600}), fc.constantFrom('30', 'soon')), {nil: null})
  }),
  {nil: null, freq: 3}
)

const itemArb: Arbitrary<ItemSpec> = fc.record({text, suffix, verify: verifyArb})

const fieldArb: Arbitrary<FieldSpec> = keyArb.chain((key) =>
  fc.record({
    key: fc.constant(key),
    label: fc.constantFrom(...markdownLabels[key]),
    yamlLabel: fc.constantFrom(...frontmatterLabels[key]),
    value:
      key === 'verification'
        ? tierValue
        : key === 'id'
          ? fc.constantFrom('C-01', 'c-7', 'C-', 'X-1')
          : key === 'slice'
            ? fc.constantFrom('S-01', 's-2', 'S-1, S-2', '')
            : fc.oneof(
                {weight: 3, arbitrary: fc.constant('')},
                {weight: 2, arbitrary: text},
                {weight: 1, arbitrary: fc.constantFrom('none', 'N/A', '-', 'TBD.')}
              ),
    items:
      key === 'acceptanceCriteria' || key === 'steps' || key === 'dependencies' || key === 'other'
        ? fc.option(fc.array(itemArb, {minLength: 0, maxLength: 7}), {nil: null, freq: 4})
        : fc.constant(null)
  })
)

const headingArb: Arbitrary<string> = fc.oneof(
  {weight: 5, arbitrary: fc.tuple(fc.integer({min: 1, max: 120}), name).map(([n, title]) => `C-${String(n).padStart(2, '0')}: ${title}`)},
  {weight: 1, arbitrary: fc.integer({min: 1, max: 9}).map((n) => `c-${n}`)},
  {weight: 1, arbitrary: name.map((title) => `Contract: ${title}`)},
  {weight: 1, arbitrary: fc.tuple(fc.integer({min: 1, max: 9}), text).map(([n, title]) => `C-${n}: ${title}`)}
)

export const contractSpec: Arbitrary<ContractSpec> = fc.record({
  dialect: fc.constantFrom<MarkdownDialect>('bold', 'bold', 'fenced', 'comment'),
  depth: fc.integer({min: 1, max: 6}),
  heading: headingArb,
  fields: fc.array(fieldArb, {minLength: 0, maxLength: 7}),
  style: fc.record({
    bold: fc.constantFrom<'**' | '__'>('**', '**', '**', '__'),
    colonInside: fc.boolean(),
    separator: fc.constantFrom<ContractSpec['style']['separator']>('\n', '\n', '\n\n', '  \n', '\\\n'),
    listGap: fc.constantFrom<'\n' | '\n\n'>('\n', '\n\n'),
    marker: fc.constantFrom<ContractSpec['style']['marker']>('-', '-', '*', '+', '1.', '1)'),
    fence: fc.constantFrom<ContractSpec['style']['fence']>('```', '```', '~~~', '````'),
    lang: fc.constantFrom('', '', 'text', 'yaml', 'go', 'markdown {title="x"}'),
    container: fc.constantFrom<ContractSpec['style']['container']>('none', 'none', 'none', 'list', 'quote', 'list-quote'),
    indent: fc.constantFrom<ContractSpec['style']['indent']>('  ', '  ', '    ', '\t', '   '),
    commentPrefix: fc.constantFrom<ContractSpec['style']['commentPrefix']>('// ', '// ', '//', '//  ')
  })
})

function itemText(item: ItemSpec): string {
  return item.text + item.suffix
}

/** A contract as markdown, in its dialect. */
export function renderContract(spec: ContractSpec): string {
  const heading = '#'.repeat(spec.depth) + ' ' + spec.heading
  const body = spec.dialect === 'bold' ? renderBold(spec) : renderBlock(spec)
  return body === '' ? heading : heading + '\n\n' + body
}

function renderBold(spec: ContractSpec): string {
  const {style} = spec
  let out = ''
  let previousHadList = true
  for (const field of spec.fields) {
    const labelled = style.colonInside ? `${style.bold}${field.label}:${style.bold}` : `${style.bold}${field.label}${style.bold}:`
    const line = field.value === '' ? labelled : labelled + ' ' + field.value
    if (out !== '') out += previousHadList ? '\n\n' : style.separator
    out += line
    previousHadList = false
    if (field.items) {
      // An empty list stays empty: write no list at all for it.
      if (field.items.length === 0) continue
      out += style.listGap + renderList(field.items, style.marker)
      previousHadList = true
    }
  }
  return out
}

function renderList(items: readonly ItemSpec[], marker: string): string {
  return items
    .map((item, index) => {
      const bullet = /\d/.test(marker) ? `${index + 1}${marker.slice(-1)}` : marker
      return `${bullet} ${itemText(item)}`.trimEnd()
    })
    .join('\n')
}

function renderBlock(spec: ContractSpec): string {
  const {style} = spec
  const comment = spec.dialect === 'comment'
  const lines: string[] = []
  for (const field of spec.fields) {
    lines.push(`${field.label}:${field.value === '' ? '' : ' ' + field.value}`)
    for (const item of field.items ?? []) {
      const bullet = /\d/.test(style.marker) ? '1' + style.marker.slice(-1) : style.marker
      lines.push(`${style.indent}${bullet} ${itemText(item)}`.trimEnd())
    }
  }
  const content = comment ? lines.map((line) => style.commentPrefix + line) : lines
  const lang = comment ? 'go' : style.lang
  // Content never closes the fence: a line of only the fence would end the block early.
  const safe = content.map((line) => (line.trim().startsWith(style.fence.slice(0, 3)) ? ' ' + line : line))
  const block = [style.fence + lang, ...safe, style.fence]
  switch (style.container) {
    case 'none':
      return block.join('\n')
    case 'list':
      return block.map((line, index) => (index === 0 ? '- ' : '  ') + line).join('\n')
    case 'quote':
      return block.map((line) => '> ' + line).join('\n')
    case 'list-quote':
      return block.map((line, index) => (index === 0 ? '- > ' : '  > ') + line).join('\n')
  }
}

// ---------------------------------------------------------------------------
// Frontmatter.

export interface FrontmatterSpec {
  fields: FieldSpec[]
  flow: boolean
  /** Repeat the contract as a heading in the body. */
  bodyHeading: boolean
  body: ContractSpec | null
}

/** A YAML scalar: plain when that is safe, else double-quoted. */
function yamlScalar(value: string): string {
  if (/^[A-Za-z][A-Za-z0-9 ./-]*$/.test(value) && !/^(?:true|false|null|yes|no|on|off|y|n|~)$/i.test(value) && !/\s$/.test(value)) {
    return value
  }
  return JSON.stringify(value)
}

function yamlItem(item: ItemSpec, flow: boolean, indent: string): string {
  const textValue = yamlScalar(itemText(item))
  if (!item.verify) return textValue
  const {method, command, timeout} = item.verify
  const parts: Array<[string, string]> = [['method', yamlScalar(method)]]
  if (command !== null) parts.push(['command', yamlScalar(command)])
  if (timeout !== null) parts.push(['timeout', typeof timeout === 'number' ? String(timeout) : yamlScalar(timeout)])
  if (flow) return `{text: ${textValue}, verify: {${parts.map(([k, v]) => k + ': ' + v).join(', ')}}}`
  return `text: ${textValue}\n${indent}  verify:\n` + parts.map(([k, v]) => `${indent}    ${k}: ${v}`).join('\n')
}

function renderYaml(fields: readonly FieldSpec[], flow: boolean): string {
  const lines: string[] = []
  for (const field of fields) {
    const key = field.yamlLabel
    if (field.items && (field.key === 'acceptanceCriteria' || field.key === 'steps' || field.items.length > 0)) {
      if (flow || field.items.length === 0) {
        lines.push(`${key}: [${field.items.map((item) => yamlItem(item, true, '')).join(', ')}]`)
      } else {
        lines.push(key + ':')
        for (const item of field.items) lines.push('  - ' + yamlItem(item, false, '  '))
      }
    } else {
      lines.push(field.value === '' ? key + ':' : `${key}: ${yamlScalar(field.value)}`)
    }
  }
  return lines.join('\n')
}

const frontmatterFields: Arbitrary<FieldSpec[]> = fc
  .tuple(fc.option(fc.constantFrom('C-01', 'C-42', 'c-3', 'C-', 'X-9', ''), {nil: null}), fc.option(name, {nil: null}), fc.array(fieldArb, {maxLength: 5}))
  .map(([id, contract, rest]) => {
    const head: FieldSpec[] = []
    if (id !== null) head.push({key: 'id', label: 'ID', yamlLabel: 'id', value: id, items: null})
    if (contract !== null) head.push({key: 'contract', label: 'Contract', yamlLabel: 'contract', value: contract, items: null})
    return [...head, ...rest]
  })

export const frontmatterSpec: Arbitrary<FrontmatterSpec> = fc.record({
  fields: frontmatterFields,
  flow: fc.boolean(),
  bodyHeading: fc.boolean(),
  body: fc.option(contractSpec, {nil: null, freq: 2})
})

export function renderFrontmatter(spec: FrontmatterSpec): string {
  const yaml = '---\n' + renderYaml(spec.fields, spec.flow) + '\n---'
  const id = spec.fields.find((field) => field.key === 'id')?.value
  const contract = spec.fields.find((field) => field.key === 'contract')?.value
  let out = yaml
  if (spec.bodyHeading && (id || contract)) {
    out += '\n\n# ' + (id && contract ? `${id}: ${contract}` : id ? id : `Contract: ${contract}`)
  }
  if (spec.body) out += '\n\n' + renderContract(spec.body)
  return out
}

// ---------------------------------------------------------------------------
// Documents of contracts.

const sliceHeading: Arbitrary<string> = fc
  .tuple(fc.integer({min: 1, max: 3}), fc.integer({min: 1, max: 30}), fc.option(name, {nil: null}))
  .map(([depth, n, title]) => '#'.repeat(depth) + ` S-${String(n).padStart(2, '0')}${title ? ': ' + title : ''}`)

const prose: Arbitrary<string> = fc.oneof(
  {weight: 3, arbitrary: fc.array(text, {minLength: 1, maxLength: 3}).map((lines) => lines.join('\n'))},
  {weight: 1, arbitrary: fc.tuple(fc.integer({min: 1, max: 6}), text).map(([depth, title]) => '#'.repeat(depth) + ' ' + title)},
  {weight: 1, arbitrary: fc.constantFrom('---', '***', '<!--lint disable verification-tier-->', '<!--lint enable-->', '<!-- note -->')}
)

/** Blocks of a contract document: contracts, slice headings, prose. */
const contractBlock: Arbitrary<string> = fc.oneof(
  {weight: 6, arbitrary: contractSpec.map(renderContract)},
  {weight: 1, arbitrary: sliceHeading},
  {weight: 1, arbitrary: prose}
)

/** A document of generated contracts in every dialect, with LF line endings. */
export const contractDocument: Arbitrary<string> = fc
  .tuple(fc.option(frontmatterSpec.map(renderFrontmatter), {nil: null, freq: 3}), fc.array(contractBlock, {minLength: 1, maxLength: 6}))
  .map(([frontmatter, blocks]) => [...(frontmatter === null ? [] : [frontmatter]), ...blocks].join('\n\n') + '\n')

// ---------------------------------------------------------------------------
// Noise.

const cell = fc.oneof(text, fc.constantFrom('', ' ', '**Verification:** auto', '`a|b`', '\\|', ':---:', '-'))

/** Tables with rows of every width, delimiter rows missing, pipes unbalanced. */
export const brokenTable: Arbitrary<string> = fc
  .array(fc.tuple(fc.array(cell, {maxLength: 5}), fc.boolean(), fc.boolean(), fc.constantFrom('', '|---|', '|:-|-:|', '| --- | --- | --- |', '---|---')), {
    minLength: 1,
    maxLength: 6
  })
  .map((rows) =>
    rows
      .map(([cells, lead, trail, delimiter]) => {
        const row = (lead ? '|' : '') + cells.join('|') + (trail ? '|' : '')
        return delimiter ? row + '\n' + delimiter : row
      })
      .join('\n')
  )

/** A fence that never closes, or closes with the wrong character or length. */
export const unclosedFence: Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('```', '~~~', '````', '``', '  ```', '> ```', '- ```'),
    fc.constantFrom('', 'go', 'yaml'),
    fc.array(fc.oneof(text, fc.constantFrom('Verification: auto', '// Steps:', '//   - run it', '  - item', 'Acceptance Criteria:', '    - one')), {
      maxLength: 6
    }),
    fc.constantFrom('', '~~~', '``', '`````', ' ```x')
  )
  .map(([open, lang, lines, close]) => [open + lang, ...lines, close].join('\n'))

const nestedContent = fc.oneof(
  text,
  fc.constantFrom('**Verification:** auto', '**Acceptance Criteria:**', '```\nVerification: verify\n```', '## C-09: Deep', '- a\n- b')
)

/** Lists, quotes and emphasis 50 levels deep and more. */
export const deepNesting: Arbitrary<string> = fc.oneof(
  // Nested lists, one level a line.
  fc.tuple(fc.integer({min: 50, max: 120}), fc.constantFrom('-', '*', '1.'), nestedContent).map(([depth, marker, content]) => {
    const lines: string[] = []
    const width = marker.length + 1
    for (let level = 0; level < depth; level++)
      lines.push(' '.repeat(width * level) + marker + ' ' + (level === depth - 1 ? content.split('\n')[0] : 'level ' + level))
    return lines.join('\n')
  }),
  // Markers stacked on one line: `- - - - …` and `> > > …`, and mixed.
  fc.tuple(fc.integer({min: 50, max: 200}), fc.constantFrom('- ', '> ', '* ', '1. ', '> - ', '- > ', '>'), nestedContent).map(([depth, marker, content]) =>
    content
      .split('\n')
      .map((line) => marker.repeat(depth) + line)
      .join('\n')
  ),
  // A quote that gets deeper a line at a time.
  fc
    .tuple(fc.integer({min: 50, max: 100}), nestedContent)
    .map(([depth, content]) =>
      Array.from({length: depth}, (_, level) => '>'.repeat(level + 1) + ' ' + (level === depth - 1 ? content.replace(/\n/g, ' ') : 'q')).join('\n')
    ),
  // Emphasis, links and brackets nested deep.
  fc.tuple(fc.integer({min: 50, max: 150}), fc.constantFrom('*', '_', '**', '[', '`', '<', '(')).map(([depth, mark]) => {
    const closing = ({'[': ']', '<': '>', '(': ')'} as Record<string, string>)[mark] ?? mark
    return mark.repeat(depth) + 'Verification:' + closing.repeat(depth) + ' auto'
  })
)

/** Odd Unicode: what `fc.string({unit: 'binary'})` gives, graphemes, and a list of troublemakers. */
export const oddUnicode: Arbitrary<string> = fc.oneof(
  fc.string({unit: 'binary', maxLength: 80}),
  fc.string({unit: 'binary-ascii', maxLength: 80}),
  fc.string({unit: 'grapheme', maxLength: 40}),
  fc.array(fc.constantFrom(...unicodeWords, ' ', '\n', '**', ':'), {maxLength: 30}).map((parts) => parts.join(''))
)

/** Lines that look like contracts, shuffled: half-written contracts. */
const contractishLine = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '# C-01: X',
      '## C-02',
      '### Contract: Y',
      '## S-01: Slice',
      '**Verification:** auto',
      '**Verification:** verify',
      '**Verification**: Verify',
      '**Acceptance Criteria:**',
      '**Steps:** Open it',
      '__Steps:__',
      '**Slice:** S-02',
      '- item',
      '* item -- verified by: `npm test`',
      '1. step',
      '  - nested',
      '```',
      '~~~',
      '```go',
      '// Verification: auto',
      '//   - x',
      'Verification: auto',
      'Acceptance Criteria:',
      '  - one',
      '\t- tab',
      '    indented code',
      '---',
      '***',
      'id: C-01',
      'contract: X',
      'verification: auto',
      'acceptance_criteria:',
      '  - text: a',
      '    verify: {command: x}',
      '| a | b |',
      '|---|',
      '> quote',
      '> **Verification:** auto',
      '',
      '',
      '<div>',
      '</div>',
      '<!-- x',
      '-->',
      '[ref]: http://x',
      '=====',
      '-----',
      '** Verification: ** auto',
      '**:**',
      '**Verification:**',
      '****',
      '**V:** `auto`'
    )
  },
  {weight: 1, arbitrary: text}
)

export const contractishLines: Arbitrary<string> = fc.array(contractishLine, {minLength: 1, maxLength: 25}).map((lines) => lines.join('\n'))

/** Any block of noise but deep nesting, which is slow to parse and gets a property of its own. */
export const noise: Arbitrary<string> = fc.oneof(brokenTable, unclosedFence, oddUnicode, contractishLines)

/** A contract document with noise in between (and maybe a frontmatter that is not YAML). */
export const noisyDocument: Arbitrary<string> = fc
  .tuple(
    fc.option(
      fc.oneof(
        frontmatterSpec.map(renderFrontmatter),
        fc.constantFrom(
          '---\nid: [C-01\n---',
          '---\n: :\n---',
          '---\n\tverification: auto\n---',
          '---\nsteps: {a: 1}\n---',
          '---\n---',
          '---\nid: C-01\nid: C-02\n---'
        ),
        fc.string({unit: 'binary', maxLength: 40}).map((junk) => '---\n' + junk + '\n---')
      ),
      {nil: null, freq: 3}
    ),
    fc.array(fc.oneof({weight: 2, arbitrary: contractBlock}, {weight: 2, arbitrary: noise}), {minLength: 1, maxLength: 8}),
    fc.array(fc.constantFrom('\n\n', '\n', '\n\n\n', ''), {minLength: 1, maxLength: 4}),
    fc.constantFrom('\n', '', '\n\n', '  ', '\t')
  )
  .map(([frontmatter, blocks, joints, end]) => {
    const parts = [...(frontmatter === null ? [] : [frontmatter]), ...blocks]
    return parts.reduce((out, part, index) => (index === 0 ? part : out + joints[index % joints.length] + part), '') + end
  })

/** Random strings, with no structure at all, or over the characters markdown cares about. */
export const randomString: Arbitrary<string> = fc.oneof(
  fc.string({unit: 'binary', maxLength: 300, size: 'medium'}),
  fc.string({
    unit: fc.constantFrom('*', '_', '`', '-', ' ', '\n', '\r', '#', '>', '|', ':', 'C', '1', '~', '\t', '[', ']', '<', '!', 'a', 'S', '/', '\\'),
    maxLength: 300,
    size: 'medium'
  }),
  fc.string({maxLength: 300, size: 'medium'})
)

// ---------------------------------------------------------------------------
// Line endings.

export type LineEndingMode = 'lf' | 'crlf' | 'cr' | 'mixed'

/** Rewrite LF line endings to CRLF, CR, or a mix (cycling through `mix`). */
export function applyLineEndings(value: string, mode: LineEndingMode, mix: readonly string[] = ['\n', '\r\n', '\r']): string {
  if (mode === 'lf') return value
  if (mode === 'crlf') return value.replace(/\n/g, '\r\n')
  if (mode === 'cr') return value.replace(/\n/g, '\r')
  let index = 0
  return value.replace(/\n/g, () => mix[index++ % mix.length]!)
}

/** `arbitrary` with its line endings rewritten, and sometimes a BOM in front. */
export function withLineEndings(arbitrary: Arbitrary<string>, options: {bom?: boolean} = {}): Arbitrary<string> {
  return fc
    .tuple(
      arbitrary,
      fc.constantFrom<LineEndingMode>('lf', 'lf', 'crlf', 'cr', 'mixed'),
      fc.array(fc.constantFrom('\n', '\r\n', '\r'), {minLength: 1, maxLength: 5}),
      options.bom ? fc.boolean() : fc.constant(false)
    )
    .map(([value, mode, mix, bom]) => (bom ? '\ufeff' : '') + applyLineEndings(value, mode, mix))
}

// ---------------------------------------------------------------------------
// Clean contracts, with what they say: an oracle for the model.

/** What a clean contract must read as. */
export interface Expected {
  tier: string
  criteria: Array<{text: string; method: 'bash' | 'manual' | null}>
  steps: Array<{text: string; method: 'bash' | 'manual' | null}>
}

const cleanWord = fc.constantFrom('Open', 'the', 'badge', 'shows', 'Draft', '404', 'p95', 'x-y', 'é', '漢字', '👍', 'e\u0301')
const cleanText = fc.array(cleanWord, {minLength: 1, maxLength: 5}).map((words) => words.join(' '))
const cleanItem: Arbitrary<ItemSpec> = fc.record({
  text: cleanText,
  suffix: fc.constantFrom('', ' -- verified by: `npm test`', ' — verified by: manual'),
  verify: fc.constant(null)
})
const cleanItems = fc.array(cleanItem, {minLength: 1, maxLength: 4})

/**
 * One contract with correct labels and plain words, in any dialect, container,
 * list marker, fence and line ending (only `// ` or `//` before comment lines:
 * the dialect is every line behind `// `), and what it must read as.
 */
export const cleanContract: Arbitrary<{value: string; expected: Expected}> = fc
  .record({
    spec: contractSpec,
    commentPrefix: fc.constantFrom<'// ' | '//'>('// ', '//'),
    tier: fc.constantFrom('auto', 'verify', 'Verify', 'manual'),
    criteria: cleanItems,
    steps: cleanItems,
    frontmatter: fc.boolean(),
    lineEndings: fc.constantFrom<LineEndingMode>('lf', 'crlf', 'cr')
  })
  .map(({spec, commentPrefix, tier, criteria, steps, frontmatter, lineEndings}) => {
    const fields: FieldSpec[] = [
      {key: 'verification', label: 'Verification', yamlLabel: 'verification', value: tier, items: null},
      {key: 'acceptanceCriteria', label: 'Acceptance Criteria', yamlLabel: 'acceptance_criteria', value: '', items: criteria},
      {key: 'steps', label: 'Steps', yamlLabel: 'steps', value: '', items: steps}
    ]
    const markdown = frontmatter
      ? renderFrontmatter({
          fields: [{key: 'id', label: 'ID', yamlLabel: 'id', value: 'C-01', items: null}, ...fields],
          flow: spec.style.colonInside,
          bodyHeading: true,
          body: null
        })
      : renderContract({...spec, heading: 'C-01: Name', fields, style: {...spec.style, commentPrefix}})
    const read = (items: readonly ItemSpec[]) =>
      items.map((item) => ({text: item.text, method: item.suffix.includes('`') ? ('bash' as const) : item.suffix ? ('manual' as const) : null}))
    return {
      value: applyLineEndings(markdown + '\n', lineEndings),
      expected: {tier, criteria: read(criteria), steps: read(steps)}
    }
  })
