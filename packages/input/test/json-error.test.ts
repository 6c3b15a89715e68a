import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {FileReadError, parseJsonText} from '@verification-tiers/input'

/** JSON text with one fault put in at `at`: a character taken out, or one of JSON’s own put in. */
const brokenJson = fc
  .record({
    value: fc.json({maxDepth: 4}).map((text) => JSON.stringify(JSON.parse(text), null, 2)),
    at: fc.nat(),
    change: fc.oneof(fc.constant(''), fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '\n', '\t', 'x', '0', '/'))
  })
  .map(({value, at, change}) => {
    const index = at % (value.length + 1)
    return change === '' ? value.slice(0, index) + value.slice(index + 1) : value.slice(0, index) + change + value.slice(index)
  })

describe('parseJsonText: a syntax error anywhere', () => {
  it('is one FileReadError naming the file and a line:column inside the text', () => {
    fc.assert(
      fc.property(brokenJson, (text) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        fc.pre(!valid)
        let error: unknown
        try {
          parseJsonText('broken.json', text)
        } catch (caught) {
          error = caught
        }
        expect(error).toBeInstanceOf(FileReadError)
        const {place, message} = error as FileReadError
        const lines = text.split(/\r\n|\r|\n/)
        expect(place).not.toBeNull()
        expect(place!.line).toBeGreaterThanOrEqual(1)
        expect(place!.line).toBeLessThanOrEqual(lines.length)
        expect(place!.column).toBeGreaterThanOrEqual(1)
        expect(place!.column).toBeLessThanOrEqual(lines[place!.line - 1]!.length + 1)
        expect(message).toMatch(new RegExp(`^broken\\.json:${place!.line}:${place!.column}: Unexpected .+, expected .+`))
      }),
      {numRuns: 500}
    )
  })
})
