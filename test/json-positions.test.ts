/**
 * Positions of JSON errors: every JSON file `tiers` reads, and the stop
 * hook’s input, is parsed with positions taken from jsonc-parser’s errors
 * (offsets turned into line:column by
 * vfile-location), never from the engine’s error message. Each kind of
 * error is placed exactly where it is, as `line:column` counted as an editor
 * counts them (a byte order mark is skipped, as editors hide it); through
 * the cli, the message is `path:line:column: Unexpected …, expected …`.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {describeJsonError, parseJson, parseJsonText} from '@verification-tiers/runtime'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, exampleProject} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example project; `tiers` runs in it with its own cache key folder. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-json-', 'true')

const tiers = (folder: string, args: string[], input = ''): Promise<Run> => runTiers(folder, args, input, {XDG_CACHE_HOME: path.join(folder, 'user-cache')})

const file = (folder: string, ...parts: string[]) => path.join(folder, '.greenlight', ...parts)

/** A failed run: `code`, nothing on stdout, exactly `tiers: <message>` on stderr. */
function expectError(run: Run, code: number, message: string): void {
  expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({code, stdout: '', stderr: `tiers: ${message}\n`})
}

describe('describeJsonError: the place and kind of each JSON error', () => {
  const cases: Array<[string, string, string]> = [
    // Unexpected tokens, at the token.
    ['a closing brace for a value', '{"a":}', '1:6: Unexpected `}`, expected a value'],
    ['a misspelt literal', '{"a": tru}', '1:7: Unexpected `tru`, expected a value'],
    ['a word for a value', 'not json', '1:1: Unexpected `not`, expected a value'],
    ['a property name without quotes', '{a: 1}', '1:2: Unexpected `a`, expected a property name in double quotes or `}`'],
    ['a property name in single quotes', "{'a': 1}", "1:2: Unexpected `'a'`, expected a property name in double quotes or `}`"],
    ['a missing colon', '{"a" 1}', '1:6: Unexpected `1`, expected `:` after the property name'],
    ['a missing comma in an object', '{"a": 1 "b": 2}', '1:9: Unexpected `"b"`, expected `,` or `}`'],
    ['a missing comma in a list', '[1 2]', '1:4: Unexpected `2`, expected `,` or `]`'],
    ['a double comma', '{\n  "version": 1,,\n}', '2:16: Unexpected `,`, expected a property name in double quotes'],
    ['a comma first in a list', '[,1]', '1:2: Unexpected `,`, expected a value or `]`'],
    ['text after the value', '{"a": 1} x', '1:10: Unexpected `x` after the value, expected the end of the file'],
    ['a comment', '{\n  // the threshold\n  "a": 1\n}', '2:3: Unexpected comment, expected JSON, which has no comments'],
    // Unexpected ends, at the end.
    ['an empty file', '', '1:1: Unexpected empty file, expected a value'],
    ['a file of blank lines', '  \n', '2:1: Unexpected empty file, expected a value'],
    ['an unclosed object', '{\n  "version": 1,\n  "slice": "S-01"', '3:18: Unexpected end of file, expected `,` or `}`'],
    ['an unclosed list', '{"a": [1, 2\n', '2:1: Unexpected end of file, expected `,` or `]`'],
    ['an unclosed string', '{"a": "b', '1:9: Unexpected end of file in a string, expected the closing `"`'],
    // Bad strings, at the fault inside them.
    [
      'a line break in a string',
      '{"a": "one\ntwo"}',
      '1:11: Unexpected line break in a string, expected the closing `"` first (or `\\n` for a line break in the text)'
    ],
    [
      'an unknown escape',
      '{"path": "C:\\Users"}',
      '1:13: Unexpected escape `\\U` in a string, expected one of `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\u` and four hexadecimal digits'
    ],
    ['a short unicode escape', '{"a": "\\u12G4"}', '1:8: Unexpected escape `\\u12`, expected `\\u` and four hexadecimal digits'],
    ['a raw tab in a string', '{"a": "b\tc"}', '1:9: Unexpected control character U+0009 in a string, expected it escaped (`\\u0009`)'],
    // Trailing commas, at the comma.
    ['a trailing comma in an object', '{"a": 1,}', '1:8: Unexpected trailing comma before `}`, expected another property after `,`'],
    ['a trailing comma in a list', '{"contracts": ["C-01", "C-02",\n]}', '1:30: Unexpected trailing comma before `]`, expected another value after `,`'],
    // Numbers.
    ['a number without digits after its point', '[1.]', '1:4: Unexpected `]`, expected a digit after `1.`'],
    ['a number with a leading zero', '[01]', '1:2: Unexpected `01`, expected a number without leading zeros'],
    // Line breaks of every kind count as one line each.
    ['CRLF line breaks', '{\r\n  "a": ,\r\n}', '2:8: Unexpected `,`, expected a value'],
    // A byte order mark is skipped: columns on the first line count from after it.
    ['a byte order mark before an error', '\uFEFF{"a":}', '1:6: Unexpected `}`, expected a value'],
    ['a byte order mark, error on line 2', '\uFEFF{\n  "a": tru\n}', '2:8: Unexpected `tru`, expected a value']
  ]

  it.each(cases)('%s', (_, text, expected) => {
    let error: unknown
    try {
      JSON.parse(text.replace(/^\uFEFF/, ''))
    } catch (caught) {
      error = caught
    }
    expect(error, 'the case is not valid JSON').toBeInstanceOf(SyntaxError)
    expect(describeJsonError(text, error)).toBe(expected)
  })

  it('names the byte order mark when it is the only fault (the caller parsed the text as it was)', () => {
    expect(describeJsonError('\uFEFF{"a": 1}')).toBe('1:1: Unexpected byte order mark (U+FEFF), expected JSON without one')
  })

  it('parses JSON with a byte order mark', () => {
    expect(parseJson('\uFEFF{"a": [1, {"b": null}]}')).toEqual({ok: true, value: {a: [1, {b: null}]}})
  })

  it('refuses an error in 100,000 nested lists at the start, without running out of stack', () => {
    const text = '['.repeat(100_000) + '}'
    expect(describeJsonError(text)).toBe('1:1: Unexpected nesting too deep to read, expected JSON nested at most a few thousand levels')
  })

  it('keeps `__proto__` as a key of its own, as JSON.parse does', () => {
    const value = parseJsonText('x.json', '{"__proto__": {"polluted": true}}') as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('JSON errors through the cli: `path:line:column: …`, exit 2', () => {
  it.concurrent('reads a GRAPH.json with a byte order mark as without one', async ({expect}) => {
    const folder = await project()
    const plain = await tiers(folder, ['status'])
    const graph = file(folder, 'GRAPH.json')
    await fs.writeFile(graph, '\uFEFF' + (await fs.readFile(graph, 'utf8')))
    const marked = await tiers(folder, ['status'])
    expect(plain.code).toBe(0)
    expect(marked).toEqual(plain)
  })

  it.concurrent('places an error in a GRAPH.json with a byte order mark where an editor shows it', async () => {
    const folder = await project()
    await fs.writeFile(file(folder, 'GRAPH.json'), '\uFEFF{\n  "slices": {\n    "S-01": {"name": "Cards", "contracts": ["C-01",]}\n  }\n}\n')
    expectError(await tiers(folder, ['status']), 2, '.greenlight/GRAPH.json:3:51: Unexpected trailing comma before `]`, expected another value after `,`')
  })

  it.concurrent('places the errors of config.json exactly', async () => {
    const folder = await project()
    await fs.writeFile(file(folder, 'config.json'), '{"a":}')
    expectError(await tiers(folder, ['status']), 2, '.greenlight/config.json:1:6: Unexpected `}`, expected a value')
    await fs.writeFile(file(folder, 'config.json'), '{"a": tru}')
    expectError(await tiers(folder, ['status']), 2, '.greenlight/config.json:1:7: Unexpected `tru`, expected a value')
  })

  it.concurrent('places the error of a state file and of the status file', async () => {
    const folder = await project()
    await fs.mkdir(file(folder, 'tiers'))
    await fs.writeFile(file(folder, 'tiers', 'S-01.json'), '{\n  "version": 1,\n  "slice": "S-01",\n  "rejectionCount": 0\n  "rejections": []\n}\n')
    expectError(
      await tiers(folder, ['status', 'S-01']),
      2,
      '.greenlight/tiers/S-01.json:5:3: Unexpected `"rejections"`, expected `,` or `}`; fix or remove the file (it is never reset silently)'
    )
    await fs.writeFile(file(folder, 'tiers', 'verification-status.json'), '{"version": 1, "slices": {"S-01": }}')
    expectError(await tiers(folder, ['checkpoint', 'S-02']), 2, '.greenlight/tiers/verification-status.json:1:35: Unexpected `}`, expected a value')
  })

  it.concurrent('places an error in the stop hook’s input', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['stop-hook'], '{"session_id": tru}')
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected stop-hook input (1:16: Unexpected `tru`, expected a value), expected the hook’s JSON on standard input\n'
    })
  })
})
