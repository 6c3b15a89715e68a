/**
 * The frontmatter fast path: text that `plainFrontmatterKeys` accepts must be
 * YAML that parses without an error to a mapping of exactly those keys, so
 * skipping the parser for frontmatter without contract keys loses nothing.
 */
import fc from 'fast-check'
import {isMap, isScalar, parseDocument} from 'yaml'
import {describe, expect, it} from 'vitest'
import {resolveFieldKey} from '../lib/fields.js'
import {plainFrontmatterKeys} from '../lib/frontmatter.js'
import {analyze} from './helpers.js'

const keyWord = fc.constantFrom('k'.repeat(201), 'k'.repeat(1030), 'title', 'slice', 'owner', 'tags', 'true', 'null', 'Null', 'yes', 'on', 'id', 'contract', 'Verification', 'steps', 'a_b', 'x-y', 'k9')
const valueText = fc.constantFrom('', 'Slice 1', 'S-0001', 'team-3', '1.0', '0x1A', 'true', 'null', '~', 'a, b', 'a (b) c', '12:30', 'a: b', 'a #b', '- a', '[a]', '"q"', "'q'", '&x', '*x', '!t', '|', '>', '@a', '`a`', 'a\tb', '  lead', 'trail  ')
const line = fc.oneof(
  fc.tuple(keyWord, valueText).map(([key, value]) => (value === '' ? `${key}:` : `${key}: ${value}`)),
  fc.constantFrom('', '# comment', '#', '  indented: x', '- item', 'key:value', 'a b: c', ':', '...', '? x', 'k: v\r')
)
const frontmatter = fc.array(line, {maxLength: 8}).map((lines) => lines.join('\n'))

function parsedKeys(value: string): string[] | 'error' {
  const document = parseDocument(value, {prettyErrors: false, uniqueKeys: false})
  if (document.errors.length > 0) return 'error'
  if (document.contents === null) return []
  if (!isMap(document.contents)) return 'error'
  return document.contents.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '?'))
}

describe('plainFrontmatterKeys', () => {
  it('accepts plain `key: value` lines, comments and blank lines', () => {
    expect(plainFrontmatterKeys('title: Slice 1\nslice: S-0001\n# note\n\nowner: team-3')).toEqual(['title', 'slice', 'owner'])
    expect(plainFrontmatterKeys('')).toEqual([])
  })

  it('refuses what YAML could read otherwise', () => {
    for (const value of ['k'.repeat(1100) + ': v', 'a: b: c', 'a: - b', 'a: "q"', '  a: b', 'a:\tb', 'a: b\r\nc: d', 'a: [b]', '- a', 'a: #b', 'a: b #c']) {
      expect(plainFrontmatterKeys(value), value).toBeNull()
    }
  })

  it('gives only text that YAML parses without error, to those keys', () => {
    let accepted = 0
    fc.assert(
      fc.property(frontmatter, (value) => {
        const keys = plainFrontmatterKeys(value)
        if (keys === null) return
        accepted++
        const parsed = parsedKeys(value)
        expect(parsed, JSON.stringify(value)).not.toBe('error')
        expect((parsed as string[]).map((key) => resolveFieldKey(key)), JSON.stringify(value)).toEqual(keys.map((key) => resolveFieldKey(key)))
      }),
      {seed: 11, numRuns: 3000}
    )
    expect(accepted).toBeGreaterThan(300)
  })

  it('still reads contracts and reports bad YAML in frontmatter it does not skip', () => {
    const contract = analyze(['---', 'id: C-01', 'contract: Cart', 'verification: auto', '---', ''].join('\n'))
    expect(contract.contracts.map((each) => each.label)).toEqual(['C-01 Cart'])
    const plain = analyze(['---', 'title: Slice 1', 'owner: team-3', '---', '', '# Notes', ''].join('\n'))
    expect(plain).toEqual({contracts: [], problems: []})
    const broken = analyze(['---', 'id: C-02', 'title: a: b', '---', ''].join('\n'))
    expect(broken.problems.map((problem) => problem.kind)).toEqual(['yaml-syntax'])
    // Broken frontmatter that names no contract (an agent definition) is not a contract’s problem.
    expect(analyze(['---', 'title: a: b', '---', ''].join('\n'))).toEqual({contracts: [], problems: []})
  })
})
