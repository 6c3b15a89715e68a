import path from 'node:path'
import fc from 'fast-check'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {validateSarif, validSarif} from '../../../test/helpers/sarif.js'
import reporterSarifDefault, {defaultTool, engineRuleId, reporterSarif} from '../index.js'

const cwd = path.resolve('/project')
const docs = (rule: string) => `https://example.com/rules/${rule}`

/** Two files: an error over a range and an info without a place in one, the same rule as a warning at a point in another. */
function files(): VFile[] {
  const one = new VFile({cwd, path: 'docs/one two.md'})
  Object.assign(
    one.message('Unexpected tier `Verify`, expected `verify`', {
      place: {start: {line: 3, column: 19}, end: {line: 3, column: 25}},
      ruleId: 'verification-tier',
      source: 'remark-lint'
    }),
    {
      fatal: true,
      url: docs('verification-tier')
    }
  )
  one.info('Just so', {ruleId: 'info-rule', source: 'local'})
  const two = new VFile({cwd, path: path.join(cwd, 'a,b%.md')})
  Object.assign(two.message('Unexpected tier `Auto`, expected `auto`', {place: {line: 5, column: 2}, ruleId: 'verification-tier', source: 'remark-lint'}), {
    url: docs('verification-tier')
  })
  return [one, two]
}

describe('reporterSarif', () => {
  it('is the default export', () => {
    expect(reporterSarifDefault).toBe(reporterSarif)
  })

  it('writes one valid SARIF 2.1.0 log: each rule once with its docs, a result per message at its region', () => {
    const text = reporterSarif(files())
    validSarif(text)
    expect(JSON.parse(text)).toEqual({
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {driver: {...defaultTool, rules: [{id: 'verification-tier', helpUri: docs('verification-tier')}, {id: 'info-rule'}]}},
          results: [
            {
              ruleId: 'verification-tier',
              ruleIndex: 0,
              level: 'error',
              message: {text: 'Unexpected tier `Verify`, expected `verify`'},
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: {uri: 'docs/one%20two.md', uriBaseId: '%SRCROOT%'},
                    region: {startLine: 3, startColumn: 19, endLine: 3, endColumn: 25}
                  }
                }
              ]
            },
            {
              ruleId: 'info-rule',
              ruleIndex: 1,
              level: 'note',
              message: {text: 'Just so'},
              locations: [{physicalLocation: {artifactLocation: {uri: 'docs/one%20two.md', uriBaseId: '%SRCROOT%'}}}]
            },
            {
              ruleId: 'verification-tier',
              ruleIndex: 0,
              level: 'warning',
              message: {text: 'Unexpected tier `Auto`, expected `auto`'},
              locations: [{physicalLocation: {artifactLocation: {uri: 'a%2Cb%25.md', uriBaseId: '%SRCROOT%'}, region: {startLine: 5, startColumn: 2}}}]
            }
          ]
        }
      ]
    })
    // Indented, as people read it too, with no final line ending (the engine adds one).
    expect(text.split('\n').slice(0, 3)).toEqual(['{', '  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",', '  "version": "2.1.0",'])
    expect(text.endsWith('}')).toBe(true)
  })

  it('names the tool given, leaving out what it does not have', () => {
    const withVersion = JSON.parse(reporterSarif(files(), {tool: {name: 'tiers lint', version: '1.2.3', informationUri: 'https://example.com'}})) as {
      runs: Array<{tool: {driver: object}}>
    }
    expect(withVersion.runs[0]?.tool.driver).toMatchObject({name: 'tiers lint', version: '1.2.3', informationUri: 'https://example.com'})
    const bare = validSarif(reporterSarif(files(), {tool: {name: 'remark'}}))
    expect(Object.keys(bare.runs[0]?.tool.driver ?? {})).toEqual(['name', 'rules'])
  })

  it('`silent` keeps fatal messages and their rules only; `quiet` changes nothing', () => {
    const silent = validSarif(reporterSarif(files(), {silent: true}))
    expect(silent.runs[0]?.results.map((result) => [result.ruleId, result.level])).toEqual([['verification-tier', 'error']])
    expect(silent.runs[0]?.tool.driver.rules).toEqual([{id: 'verification-tier', helpUri: docs('verification-tier')}])
    expect(reporterSarif(files(), {quiet: true})).toBe(reporterSarif(files()))
  })

  it('an engine message (no rule, no source) has the engine’s rule; a file without a path has no location; no messages is an empty run', () => {
    const missing = new VFile({cwd, path: 'missing.md'})
    missing.message('No such file or folder').fatal = true
    const stdin = new VFile({cwd})
    stdin.message('From standard input', {source: 'local'})
    const log = validSarif(reporterSarif([missing, stdin]))
    expect(log.runs[0]?.results).toEqual([
      {
        ruleId: engineRuleId,
        ruleIndex: 0,
        level: 'error',
        message: {text: 'No such file or folder'},
        locations: [{physicalLocation: {artifactLocation: {uri: 'missing.md', uriBaseId: '%SRCROOT%'}}}]
      },
      {ruleId: 'local', ruleIndex: 1, level: 'warning', message: {text: 'From standard input'}, locations: []}
    ])
    const empty = validSarif(reporterSarif([new VFile({cwd, path: 'clean.md'})]))
    expect([empty.runs[0]?.results, empty.runs[0]?.tool.driver.rules]).toEqual([[], []])
  })

  it('the schema check rejects broken logs (a guard for the checks above)', () => {
    const log = JSON.parse(reporterSarif(files())) as Record<string, unknown> & {version: string; runs: Array<{results: Array<{level: string}>}>}
    expect(validateSarif(log)).toBe(true)
    const broken = (change: (copy: typeof log) => void): boolean => {
      const copy = structuredClone(log)
      change(copy)
      return validateSarif(copy)
    }
    expect(broken((copy) => (copy.version = '2.0'))).toBe(false)
    expect(broken((copy) => ((copy.runs[0]?.results[0] as {level: string}).level = 'fatal'))).toBe(false)
    expect(broken((copy) => (copy.extra = true))).toBe(false)
  })

  it('any folder and file name: a valid log whose URI, decoded, is the path from `cwd`', () => {
    const segment = fc
      .string({
        unit: fc.oneof(fc.constantFrom('%', '#', '?', ' ', ':', ',', '&', 'é', '😀'), fc.string({minLength: 1, maxLength: 1})),
        minLength: 1,
        maxLength: 8
      })
      .filter((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..')
    fc.assert(
      fc.property(fc.array(segment, {minLength: 1, maxLength: 3}), (segments) => {
        const file = new VFile({cwd, path: path.join(cwd, ...segments)})
        file.message('Here', {place: {line: 1, column: 1}, ruleId: 'r'})
        const uri = validSarif(reporterSarif(file)).runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation.uri ?? ''
        expect(uri).not.toMatch(/[\s%?#](?![0-9A-F]{2})/)
        expect(uri.split('/').map((part) => decodeURIComponent(part))).toEqual(segments)
      }),
      {numRuns: 200}
    )
  })
})
