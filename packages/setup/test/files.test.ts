/**
 * `parseJsonFile`: a configuration file that is not JSON is one `FileReadError`
 * naming the file, and the line and column of jsonc-parser’s first error.
 */
import {describe, expect, it} from 'vitest'
import {FileReadError} from '@verification-tiers/input'
import {parseJsonFile} from '../lib/files.js'

const fix = 'expected JSON; fix it, then run `tiers init` again'

describe('parseJsonFile', () => {
  it('reads JSON, with or without a byte order mark', () => {
    expect(parseJsonFile('package.json', '\uFEFF{"name": "x"}')).toEqual({name: 'x'})
  })

  it.each([
    ['a missing value', '{\n  "hooks": ,\n}', '.claude/settings.json:2:12: Unexpected text that is not JSON (ValueExpected), ' + fix],
    [
      'an unclosed object after a byte order mark',
      '\uFEFF{"hooks": {}',
      '.claude/settings.json:1:13: Unexpected text that is not JSON (CloseBraceExpected), ' + fix
    ],
    ['a comment', '{\n  // the hook\n}', '.claude/settings.json:2:3: Unexpected text that is not JSON (InvalidCommentToken), ' + fix],
    ['lists nested 100,000 deep', '['.repeat(100_000), `.claude/settings.json:1:1: Unexpected text that is not JSON (`]
  ])('names the place of the first error: %s', (_, text, message) => {
    let error: unknown
    try {
      parseJsonFile('.claude/settings.json', text)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(FileReadError)
    expect((error as Error).message.startsWith(message), (error as Error).message).toBe(true)
  })
})
