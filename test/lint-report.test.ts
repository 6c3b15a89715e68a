/**
 * `tiers lint` writes its report itself (packages/cli/lib/lint/report.ts),
 * measuring plain ASCII cells by their length instead of asking string-width;
 * the report must still be, byte for byte, the one vfile-reporter writes for
 * the remark CLI. Examples of every kind of message, file and text that
 * changes the layout, then a fast-check property (fixed seeds) over random
 * files and messages.
 */
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import type {Options as MessageOptions} from 'vfile-message'
import {reporter} from 'vfile-reporter'
import {describe, expect, it} from 'vitest'
import {reportFiles} from '../packages/cli/lib/lint/report.js'
import type {ReportOptions} from '../packages/cli/lib/lint/report.js'

type Fatal = boolean | null | undefined

interface MessageSpec extends Omit<MessageOptions, 'cause'> {
  reason: string
  fatal?: Fatal
  /** Any value: set after construction, as the options only take an Error. */
  cause?: unknown
}

/** A message as remark-lint and unified-engine make them: a reason, options, a `fatal` set afterwards. */
function message(spec: MessageSpec): VFileMessage {
  const {reason, fatal, cause, ...options} = spec
  const result = new VFileMessage(reason, options)
  result.fatal = fatal
  if (cause !== undefined) result.cause = cause
  return result
}

/** A file at `path` (none: `<stdin>`) with `messages`. */
function file(path: string | undefined, messages: Array<MessageSpec | VFileMessage> = [], extra: {stored?: boolean; renamed?: string} = {}): VFile {
  const result = new VFile(path === undefined ? {} : {path})
  for (const each of messages) {
    const value = each instanceof VFileMessage ? each : message(each)
    value.file = result.path ?? ''
    result.messages.push(value)
  }
  if (extra.renamed !== undefined) result.path = extra.renamed
  if (extra.stored) result.stored = true
  return result
}

const optionSets: ReportOptions[] = [false, true].flatMap((color) =>
  [false, true].flatMap((quiet) => [false, true].map((silent) => ({color, quiet, silent})))
)

/** Expect tiers’ report to be vfile-reporter’s for every combination of options; resolves to the uncoloured, unfiltered one. */
function expectSameReport(files: VFile[]): string {
  for (const options of optionSets) {
    expect(reportFiles(files, options), JSON.stringify(options)).toBe(reporter(files, options))
  }
  return reportFiles(files, {color: false, quiet: false, silent: false})
}

/** An Error with a fixed stack, so that reports do not depend on where the test runs. */
function error(messageText: string, stack: string | undefined, cause?: unknown): Error {
  const result = new Error(messageText, cause === undefined ? undefined : {cause})
  if (stack === undefined) delete (result as {stack?: string}).stack
  else result.stack = stack
  return result
}

const point = {line: 3, column: 19}
const range = {start: {line: 3, column: 19}, end: {line: 3, column: 25}}

describe('reportFiles: examples', () => {
  it('reports fatal, warning and info messages, sorted, with a byline', () => {
    const report = expectSameReport([
      file('b.md', [
        {reason: 'A warning', fatal: false, place: range, ruleId: 'rule-b', source: 'remark-lint'},
        {reason: 'An error', fatal: true, place: point, ruleId: 'rule-a', source: 'remark-lint'},
        {reason: 'Some info', fatal: undefined, place: {line: 1, column: 1}, ruleId: 'rule-c', source: 'remark-lint'},
        {reason: 'Null is info too', fatal: null, place: {line: 1, column: 1}}
      ]),
      file('a.md', [{reason: 'Only a warning', fatal: false, place: range, ruleId: 'x', source: 'y'}])
    ])
    expect(report).toBe(
      [
        'a.md',
        '3:19-3:25 warning Only a warning   x      y',
        '',
        'b.md',
        '1:1       info    Null is info too',
        '1:1       info    Some info        rule-c remark-lint',
        '3:19      error   An error         rule-a remark-lint',
        '3:19-3:25 warning A warning        rule-b remark-lint',
        '',
        '5 messages (✖ 1 error, ⚠ 2 warnings)'
      ].join('\n')
    )
  })

  it('reports files without messages, and nothing for no files', () => {
    expect(expectSameReport([file('b.md'), file('a.md'), file(undefined)])).toBe('<stdin>: no issues found\na.md: no issues found\nb.md: no issues found')
    expect(expectSameReport([])).toBe('')
    expect(reportFiles([file('a.md')], {color: false, quiet: true, silent: false})).toBe('')
  })

  it('reports only infos without a byline', () => {
    expectSameReport([file('a.md', [{reason: 'Info', fatal: undefined}]), file('b.md')])
  })

  it('reports messages without a place, with a point, with a range, with half a place', () => {
    expectSameReport([
      file('a.md', [
        {reason: 'No place', fatal: true},
        {reason: 'A point', fatal: false, place: point},
        {reason: 'A range', fatal: false, place: range},
        {reason: 'Only a line', fatal: false, place: {line: 7} as never},
        {reason: 'A range without columns', fatal: false, place: {start: {line: 2}, end: {line: 4}} as never},
        {reason: 'Large', fatal: false, place: {start: {line: 12_345, column: 678}, end: {line: 99_999, column: 1}}}
      ])
    ])
  })

  it('reports messages with `ruleId` or `source` missing', () => {
    expectSameReport([
      file('a.md', [
        {reason: 'Both', fatal: false, place: point, ruleId: 'rule', source: 'source'},
        {reason: 'No rule', fatal: false, place: point, source: 'source'},
        {reason: 'No source', fatal: false, place: point, ruleId: 'rule'},
        {reason: 'Neither', fatal: true, place: point}
      ])
    ])
  })

  it('colours code in reasons: backtick runs of several lengths, unbalanced runs', () => {
    const reasons = [
      'Unexpected `Verify`, expected `verify`',
      'Code with ``a ` inside`` and ```three```',
      'Unbalanced ` here',
      'Unbalanced `` here ` and `',
      'Mixed ``one` two`` and `x``y`',
      '`',
      '``',
      '```',
      '` `` ` ``',
      'Ends with `code`',
      '`starts` with code',
      'Adjacent `a``b`'
    ]
    const files = [file('a.md', reasons.map((reason, index) => ({reason, fatal: index % 2 === 0, place: {line: index + 1, column: 1}, ruleId: 'r'})))]
    expectSameReport(files)
    expect(reportFiles(files, {color: true, quiet: false, silent: false})).toContain('\u001B[1mUnexpected \u001B[36m`Verify`\u001B[39m, expected \u001B[36m`verify`\u001B[39m\u001B[22m')
  })

  it('reports multi-line reasons: the first line in the table, the rest below', () => {
    expectSameReport([
      file('a.md', [
        {reason: 'First line\nsecond line\n  third, indented', fatal: true, place: point, ruleId: 'r', source: 's'},
        {reason: 'CRLF\r\nline two\r\nline three', fatal: false, place: range},
        {reason: 'CR\rline two', fatal: false},
        {reason: 'Trailing newline\n', fatal: false},
        {reason: '\nLeading newline', fatal: false},
        {reason: 'Blank lines\n\n\nbetween', fatal: undefined}
      ])
    ])
  })

  it('reports causes: an Error, nested causes, a string, a VFileMessage, odd values', () => {
    const nested = error('Outer', 'Error: Outer\n    at outer (file.js:1:1)', error('Inner', 'TypeError: Inner\n    at inner (file.js:2:2)', 'the root'))
    const causeMessage = message({reason: 'A cause that is a message', fatal: true, place: point, ruleId: 'inner-rule', source: 'inner'})
    causeMessage.file = 'other.md'
    const deepMessage = message({
      reason: 'Message with its own cause',
      fatal: false,
      cause: error('Deep', 'Error: Deep\n    at deep (file.js:3:3)')
    })
    deepMessage.file = 'deep.md'
    expectSameReport([
      file('a.md', [
        {reason: 'Cannot process file', fatal: true, cause: nested},
        {reason: 'With a string cause', fatal: true, place: point},
        {reason: 'Without a stack', fatal: false, cause: error('Only a message', undefined)},
        {reason: 'Empty stack', fatal: false, cause: error('Message instead', '')},
        {reason: 'Object with a stack', fatal: false, cause: {stack: 'Error: plain object\n    at x (y.js:1:1)'}},
        {reason: 'Object with a message', fatal: false, cause: {message: 'just a message'}},
        {reason: 'Object with neither', fatal: false, cause: {}},
        {reason: 'A number', fatal: false, cause: 42},
        {reason: 'Message cause', fatal: true, place: range, cause: causeMessage},
        {reason: 'Message cause with a cause', fatal: true, cause: deepMessage}
      ])
    ])
    const report = expectSameReport([file('b.md', [{reason: 'String cause', fatal: true, cause: 'ENOENT: gone'}])])
    expect(report).toBe(['b.md', ' error String cause', '  [cause]:', '    ENOENT: gone', '', '✖ 1 error'].join('\n'))
  })

  it('reports the cause’s stack as the reason when the message takes it (an Error as the reason)', () => {
    // `new VFileMessage(error)` takes the error’s message as reason and its stack as `stack`.
    const withStack = new VFileMessage(error('Boom', 'Error: Boom\n    at a (b.js:1:1)', 'the root'), point, 's:r')
    withStack.fatal = true
    expect(withStack.stack).toBe('Error: Boom\n    at a (b.js:1:1)')
    const report = expectSameReport([file('a.md', [withStack])])
    expect(report.split('\n').slice(0, 3)).toEqual(['a.md', '3:19 error Error: Boom r s', '    at a (b.js:1:1)'])
  })

  it('reports stored files as written, renamed ones with their new path', () => {
    expectSameReport([
      file('a.md', [], {stored: true}),
      file('b.md', [], {stored: true, renamed: 'c.md'}),
      file('d.md', [{reason: 'Warned', fatal: false, place: point}], {stored: true, renamed: 'e.md'}),
      file('f.md', [{reason: 'Renamed only', fatal: false}], {renamed: 'g.md'})
    ])
  })

  it('measures wide, zero-width, emoji and escaped text as string-width does', () => {
    const reasons = [
      '全角の理由：契約 C-01 に検証がありません',
      '한국어 이유',
      'Emoji 👍 and 👍🏽 and 👨‍👩‍👧 and 🇳🇱',
      'Combining e\u0301 and a\u0308\u0304 marks',
      'Zero width\u200B joiner\u200D and soft\u00AD hyphen',
      'ANSI \u001B[31mred\u001B[39m inside',
      'ANSI \u001B[1;31mcompound\u001B[0m and \u001B[m empty',
      'ANSI \u001B[12345m five digits',
      'OSC \u001B]8;;https://example.com\u0007link\u001B]8;;\u0007',
      'C1 \u009B31m CSI',
      'Tab\tinside',
      'Controls \u0000\u0001\u0007\u007F\u0085 inside',
      'Ambiguous ±×÷ ‐ “quotes”',
      'Lone surrogate \uD800 here',
      'Fullwidth ＡＢＣ and halfwidth ｱｲｳ'
    ]
    expectSameReport([
      file('wide/契約.md', reasons.map((reason, index) => ({reason, fatal: index % 3 === 0 ? true : index % 3 === 1 ? false : undefined, place: {line: index + 1, column: 1}, ruleId: reason.slice(0, 6), source: reason.slice(-5)}))),
      file('emoji-👍.md', [{reason: 'x', fatal: false, ruleId: '日本', source: '👍'}]),
      file('\u001B[31mred\u001B[39m.md', [{reason: 'y', fatal: false}]),
      file('tab\tname.md')
    ])
  })
})

// Random files and messages ---------------------------------------------------

/** Characters that change the layout or the colouring. */
const tricky = [
  '`',
  '``',
  '```',
  '\n',
  '\r\n',
  '\r',
  '\t',
  ' ',
  '\u0000',
  '\u001B',
  '\u001B[31m',
  '\u001B[39m',
  '\u001B[1;2m',
  '\u001B[123456m',
  '\u009B',
  '\u0007',
  '\u007F',
  '日',
  '本',
  'ｱ',
  'Ａ',
  '👍',
  '👍🏽',
  '👨‍👩‍👧',
  '🇳🇱',
  'e\u0301',
  '\u0301',
  '\u200B',
  '\u200D',
  '\u00AD',
  '\uD800',
  '\uDC00',
  '±',
  'a',
  'Z',
  '0',
  '-',
  '>',
  ':'
]

const text: Arbitrary<string> = fc.oneof(
  {weight: 3, arbitrary: fc.array(fc.constantFrom(...tricky), {maxLength: 12}).map((parts) => parts.join(''))},
  {weight: 2, arbitrary: fc.string({unit: 'binary', maxLength: 16})},
  {weight: 2, arbitrary: fc.string({unit: 'grapheme', maxLength: 16})},
  {weight: 1, arbitrary: fc.string({unit: 'binary-ascii', maxLength: 24})},
  {weight: 1, arbitrary: fc.string({maxLength: 24})}
)

const smallInteger = fc.integer({min: 0, max: 12_000})

const pointArbitrary = fc.record({line: smallInteger, column: smallInteger}, {requiredKeys: [], noNullPrototype: true})

const place: Arbitrary<MessageOptions['place']> = fc.oneof(
  fc.constant(undefined),
  pointArbitrary,
  fc.record({start: pointArbitrary, end: pointArbitrary}, {requiredKeys: [], noNullPrototype: true})
) as Arbitrary<MessageOptions['place']>

const fatal: Arbitrary<Fatal> = fc.constantFrom(true, false, null, undefined)

const causeLeaf: Arbitrary<unknown> = fc.oneof(
  text,
  fc.integer(),
  fc.record({message: text, stack: fc.option(text, {nil: undefined})}).map(({message: messageText, stack}) => error(messageText, stack)),
  // Plain objects (fast-check may give records a null prototype, which no cause has).
  fc.record({stack: text}, {noNullPrototype: true}),
  fc.record({message: text}, {noNullPrototype: true}),
  fc.record({reason: text, fatal, place}).map((spec) => {
    const value = message(spec)
    value.file = 'cause.md'
    return value
  })
)

const cause: Arbitrary<unknown> = fc.oneof(
  {weight: 4, arbitrary: fc.constant(undefined)},
  {weight: 2, arbitrary: causeLeaf},
  {
    weight: 1,
    arbitrary: fc.record({message: text, stack: fc.option(text, {nil: undefined}), inner: causeLeaf}).map(({message: messageText, stack, inner}) => error(messageText, stack, inner))
  }
)

const messageArbitrary: Arbitrary<VFileMessage> = fc
  .record({
    reason: text,
    fatal,
    place,
    ruleId: fc.option(text, {nil: undefined}),
    source: fc.option(text, {nil: undefined}),
    cause
  })
  .map((spec) => message(spec))

const fileArbitrary: Arbitrary<VFile> = fc
  .record({
    path: fc.option(
      text.filter((value) => value.length > 0),
      {nil: undefined, freq: 8}
    ),
    messages: fc.array(messageArbitrary, {maxLength: 6}),
    stored: fc.boolean(),
    renamed: fc.option(
      text.filter((value) => value.length > 0),
      {nil: undefined, freq: 4}
    )
  })
  .map(({path, messages, stored, renamed}) => file(path, messages, {stored, renamed}))

const optionsArbitrary: Arbitrary<ReportOptions> = fc.record({color: fc.boolean(), quiet: fc.boolean(), silent: fc.boolean()})

describe('reportFiles: random files and messages', () => {
  it('equals vfile-reporter’s report', () => {
    fc.assert(
      fc.property(fc.array(fileArbitrary, {maxLength: 5}), optionsArbitrary, (files, options) => {
        expect(reportFiles(files, options)).toBe(reporter(files, options))
      }),
      {seed: 20_240_601, numRuns: 1000}
    )
  })

  it('equals vfile-reporter’s report for many messages in one file (column widths)', () => {
    fc.assert(
      fc.property(fc.array(messageArbitrary, {minLength: 10, maxLength: 40}), optionsArbitrary, (messages, options) => {
        const files = [file('many.md', messages)]
        expect(reportFiles(files, options)).toBe(reporter(files, options))
      }),
      {seed: 7, numRuns: 300}
    )
  })
})
