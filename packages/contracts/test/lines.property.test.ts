/**
 * The heading lines of a whole text are those of each of its lines, on any
 * text: LF, CRLF and lone CR endings, `#` and full-width `＃` anywhere.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {headingLines} from '../lib/unread.js'

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
