/**
 * What the reader works out by position, on any text: fenced fields and
 * items point at the source they were read from (in lists and quotes, with
 * every line ending), and a point is where counting every line ending puts
 * it. (A tool's file found by its path: `spec-tools`' own property.)
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {visit} from 'unist-util-visit'
import type {Code} from 'mdast'
import {readBlockFields} from '../lib/block.js'
import {splitAtLineEndings} from '../lib/lines.js'
import {fenceDialects} from '../lib/dialects/index.js'
import type {Position} from 'unist'
import {createLocator} from '../lib/locate.js'
import {parse} from './helpers.js'
import {location} from 'vfile-location'
import {advance} from '../lib/locate.js'

// Pieces of what the readers look at: labels and their marks, white space of every kind, dashes, astral letters.
const piece = fc.constantFrom(
  '1234567890',
  '123456789',
  '12',
  '0)',
  '9.',
  '**',
  '*',
  ':',
  '：',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\n',
  '\r',
  '\r\n',
  '//',
  '/',
  '-',
  '--',
  '—',
  '–',
  '+',
  '1',
  '12.',
  '3)',
  'Verification',
  'Steps',
  'acceptance criteria',
  'verified by',
  'VERIFIED BY',
  'Ünïcode',
  'İD',
  '\u212a',
  '𝐀',
  '𝟏',
  '_',
  '&',
  '(',
  ')',
  "'",
  '.',
  'a',
  'Y',
  'x'.repeat(41),
  '`',
  '[ ]'
)
const text = fc.oneof(
  fc.array(piece, {maxLength: 12}).map((parts) => parts.join('')),
  fc.string({unit: 'binary', maxLength: 50})
)

describe('fenced field positions', () => {
  // Fences of fields and items, in lists and quotes, indented with spaces and tabs, with each kind of line ending
  // and NULs (which the block's text holds as U+FFFD).
  // (One kind per document: a lone CR, then a line of spaces, then an LF comes out of an indented fence as one CRLF.)
  const line = fc.constantFrom(
    'Verification: verify',
    'Steps:',
    '- [ ] Open the page',
    '- [x] Done  ',
    '  1. Second',
    '   wrapped text',
    '**Tier:** auto',
    'Acceptance Criteria:',
    '',
    ' ',
    '\tTabbed',
    'Steps: a\u0000b',
    '- \u0000 item',
    '\u0000'
  )
  const ending = fc.constantFrom('\n', '\r\n', '\r')
  const container = fc.constantFrom('', '> ', '- ', '  ', '>\t', '1. ')

  it('point at the source the label and items were read from', () => {
    fc.assert(
      fc.property(fc.array(line, {minLength: 1, maxLength: 8}), container, ending, (lines, into, close) => {
        const inner = into === '' ? '' : into.startsWith('>') ? into : ' '.repeat(into.length)
        const body = lines.map((text) => inner + text + close).join('')
        const source = `${into}\`\`\`text${close}${body}${inner}\`\`\`${close}`
        const {file, tree} = parse(source)
        const locator = createLocator(file)
        const place = location(source)
        visit(tree, 'code', (code: Code) => {
          const blockLinesRead = splitAtLineEndings(code.value)
          const dialect = fenceDialects.find((candidate) => candidate.claims(blockLinesRead, code.lang ?? null))
          const fields = dialect ? readBlockFields(code, blockLinesRead, locator, dialect) : null
          for (const field of fields ?? []) {
            const spans = [field.position, field.labelPosition, field.valuePosition, ...field.items.map((item) => item.position)]
            for (const span of spans) {
              if (!span) continue
              // Every point is where vfile-location puts its offset.
              expect(place.toPoint(span.start.offset!)).toEqual(span.start)
              expect(place.toPoint(span.end.offset!)).toEqual(span.end)
            }
            // The block's text holds a NUL of the source as U+FFFD.
            const read = (span: Position) => source.slice(span.start.offset, span.end.offset).replaceAll('\u0000', '\uFFFD')
            expect(read(field.labelPosition)).toBe(field.label)
            for (const item of field.items) expect(read(item.position).startsWith(item.text.split(' ')[0]!)).toBe(true)
          }
        })
      }),
      {numRuns: 1000}
    )
  })
})

describe('advance', () => {
  it('gives the point that counting every line ending gives', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(60),
        fc.integer({min: 1, max: 9}),
        fc.integer({min: 1, max: 9}),
        fc.option(fc.nat(100), {nil: undefined}),
        (value, at, line, column, offset) => {
          const index = Math.min(at, value.length)
          const start = offset === undefined ? {line, column} : {line, column, offset}
          expect(advance(start, value, index)).toEqual(countedPoint(start, value, index))
        }
      ),
      {numRuns: 1000}
    )
  })
})

/** The point `index` characters into `text`, every line ending before it counted. */
function countedPoint(start: {line: number; column: number; offset?: number}, text: string, index: number) {
  let line = start.line
  let column = start.column
  let lineBegin = 0
  const ending = /\r\n?|\n/g
  for (let match = ending.exec(text); match && match.index + match[0].length <= index; match = ending.exec(text)) {
    line++
    column = 1
    lineBegin = match.index + match[0].length
  }
  const result: {line: number; column: number; offset?: number} = {line, column: column + (index - lineBegin)}
  if (start.offset !== undefined) result.offset = start.offset + index
  return result
}
