/**
 * The heading lines of a whole text are those of each of its lines, on any
 * text: LF, CRLF and lone CR endings, `#` and full-width `＃` anywhere. And
 * the lines a block holds: none of the next block's, where a list item ends
 * a fence or comment left open at the first column of the line after it.
 */
import fc from 'fast-check'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {visitParents} from 'unist-util-visit-parents'
import {describe, expect, it} from 'vitest'
import {lastLineOf} from '../lib/lines.js'
import {findUnreadContracts, headingLines} from '../lib/unread.js'

// Text made of what the scans look at: line endings, both heading marks, ids, space and words.
const text = fc
  .array(
    fc.constantFrom('\n', '\r\n', '\r', '\r### ', '#', '\uff03', '### ', 'C-1: Name', 'Contract: X', ' ', '  ', '> ', '- ', '<!-- ', 'word', '\u00a0', ':'),
    {maxLength: 40}
  )
  .map((parts) => parts.join(''))

describe('headingLines', () => {
  it('finds in a whole text the heading lines it finds in each line read alone', () => {
    fc.assert(
      fc.property(text, (source) => {
        const expected = []
        const ending = /\r\n?|\n/g
        let start = 0
        for (const [index, line] of source.split(/\r\n?|\n/).entries()) {
          for (const heading of headingLines(line)) expected.push({...heading, line: index + 1, start: heading.start + start, end: heading.end + start})
          start += line.length + (ending.exec(source)?.[0].length ?? 0)
        }
        expect([...headingLines(source)]).toEqual(expected)
      }),
      {numRuns: 500}
    )
  })
})

// Blocks that open, nest and end one another: list items and quotes, fences and HTML left open, blank lines.
const blocks = fc
  .array(
    fc
      .tuple(
        fc.constantFrom('', '', '- ', '  ', '   ', '> ', '> - ', '1. '),
        fc.constantFrom('```', '~~~', '<!--', '<div>', '### C-2: Two', 'word', '', '', '    code')
      )
      .map(([prefix, text]) => prefix + text),
    {minLength: 1, maxLength: 16}
  )
  .map((lines) => lines.join('\n'))

describe('the block of a heading line', () => {
  it('names a heading markdown made in a list item or a quote by the outermost of them, whatever ends before it', () => {
    fc.assert(
      fc.property(blocks, fc.boolean(), (source, trailing) => {
        const text = trailing ? `${source}\n` : source
        const tree = fromMarkdown(text)
        const expected = new Map<number, string>()
        const lines = text.split('\n')
        visitParents(tree, 'heading', (heading, ancestors) => {
          // A contract heading, not a setext heading made of other words.
          if (!lines[heading.position!.start.line - 1]?.includes('### C-2: Two')) return
          const outer = ancestors.find((node) => node.type === 'listItem' || node.type === 'blockquote')
          if (outer) expected.set(heading.position!.start.line, outer.type === 'listItem' ? 'inside a list item' : 'inside a block quote')
        })
        const found = new Map(findUnreadContracts(text, tree, []).map(({place, reason}) => [place.start.line, reason]))
        for (const [line, reason] of expected) expect(found.get(line), `${JSON.stringify(text)}, line ${line}`).toBe(reason)
      }),
      {numRuns: 1000}
    )
  })

  it('names a heading in a quote after a list item whose fence or comment the list ended, by the quote', () => {
    for (const open of ['```sh', '~~~', '<!--']) {
      const source = `- item\n  ${open}\n  text\n\n> ### C-02: Two\n`
      expect(findUnreadContracts(source, fromMarkdown(source), []).map(({reason}) => reason)).toEqual(['inside a block quote'])
    }
  })

  it('names a heading line in a link definition’s title by the definition, though a setext heading after it starts where it does', () => {
    for (const [source, reason] of [
      ['[spec]: ./spec.md "The login spec\n###C-02: Login\nas agreed"\nNotes\n=====\n', 'without a space after the `#`'],
      ['> [x]: /u "a\n> ###C-2: Two\n> b"\n> word\n> ===\n', 'without a space after the `#`']
    ] as const) {
      expect(findUnreadContracts(source, fromMarkdown(source), []).map((found) => found.reason)).toEqual([reason])
    }
  })

  it('ends a node at the first column of a line on the line before', () => {
    const at = (line: number, column: number) => ({line, column})
    expect([lastLineOf({start: at(2, 3), end: at(5, 1)}), lastLineOf({start: at(2, 3), end: at(5, 2)}), lastLineOf({start: at(5, 1), end: at(5, 1)})]).toEqual([
      4, 5, 5
    ])
  })
})
