import path from 'node:path'
import {DOMParser} from '@xmldom/xmldom'
import type {Element} from '@xmldom/xmldom'
import fc from 'fast-check'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import reporterJunitDefault, {cleanTestCaseName, reporterJunit} from '../index.js'

const cwd = path.resolve('/project')
const docs = 'https://example.com/rules/verification-tier'

/** An error over a range (with docs), a warning at a point, and an info without a place. */
function contracts(): VFile {
  const file = new VFile({cwd, path: 'docs/contracts.md'})
  Object.assign(
    file.message('Unexpected tier `Verify`, expected `verify`', {
      place: {start: {line: 3, column: 19}, end: {line: 3, column: 25}},
      ruleId: 'verification-tier',
      source: 'remark-lint'
    }),
    {
      fatal: true,
      url: docs
    }
  )
  file.message('Unexpected label, expected `Acceptance Criteria`', {place: {line: 4, column: 3}, ruleId: 'contract-field-name', source: 'remark-lint'})
  file.info('Just so')
  return file
}

const clean = () => new VFile({cwd, path: path.join(cwd, 'clean.md')})

/** Parse `xml`, failing on any error of the parser (its warnings, such as a U+FFFD in the text, are about the source, not the XML). */
function parse(xml: string): Element {
  const document = new DOMParser({
    onError(level, message) {
      if (level !== 'warning') throw new Error(`${level}: ${message}`)
    }
  }).parseFromString(xml, 'text/xml')
  const root = document.documentElement
  if (!root) throw new Error('No root element')
  return root
}

/** Every character a well-formed XML 1.0 document may hold (the `Char` production), and no reference to another. */
function expectXmlCharacters(xml: string): void {
  expect(xml).toMatch(/^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u)
  // References only for white space and line ends a parser would change (tab, LF, CR, NEL, U+2028, U+2029).
  for (const reference of xml.match(/&#[^;]*;/g) ?? []) expect(['&#9;', '&#10;', '&#13;', '&#133;', '&#8232;', '&#8233;']).toContain(reference)
}

describe('reporterJunit', () => {
  it('is the default export', () => {
    expect(reporterJunitDefault).toBe(reporterJunit)
  })

  it('writes a testsuite per file, a failing testcase per message, a passing one for a clean file', () => {
    expect(reporterJunit([contracts(), clean()], {name: 'tiers lint'})).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="tiers lint" tests="4" failures="3" errors="0">',
        '  <testsuite name="docs/contracts.md" tests="3" failures="3" errors="0" skipped="0">',
        '    <testcase name="3:19-3:25 verification-tier" classname="docs/contracts.md" file="docs/contracts.md" line="3">',
        '      <failure message="Unexpected tier `Verify`, expected `verify`" type="error">3:19-3:25 error Unexpected tier `Verify`, expected `verify` verification-tier remark-lint',
        docs + '</failure>',
        '    </testcase>',
        '    <testcase name="4:3 contract-field-name" classname="docs/contracts.md" file="docs/contracts.md" line="4">',
        '      <failure message="Unexpected label, expected `Acceptance Criteria`" type="warning">4:3 warning Unexpected label, expected `Acceptance Criteria` contract-field-name remark-lint</failure>',
        '    </testcase>',
        '    <testcase name="Just so" classname="docs/contracts.md" file="docs/contracts.md">',
        '      <failure message="Just so" type="info">info Just so</failure>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="clean.md" tests="1" failures="0" errors="0" skipped="0">',
        `    <testcase name="${cleanTestCaseName}" classname="clean.md" file="clean.md"/>`,
        '  </testsuite>',
        '</testsuites>'
      ].join('\n')
    )
  })

  it('`quiet` leaves clean files out; `silent` keeps fatal messages only, and implies `quiet`', () => {
    const suites = (xml: string) => [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)"/g)].map((match) => match.slice(1).join(' '))
    expect(suites(reporterJunit([contracts(), clean()]))).toEqual(['docs/contracts.md 3 3', 'clean.md 1 0'])
    expect(suites(reporterJunit([contracts(), clean()], {quiet: true}))).toEqual(['docs/contracts.md 3 3'])
    expect(suites(reporterJunit([contracts(), clean()], {silent: true}))).toEqual(['docs/contracts.md 1 1'])
    const warningsOnly = new VFile({cwd, path: 'w.md'})
    warningsOnly.message('Vague')
    expect(reporterJunit([warningsOnly], {silent: true})).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="0" failures="0" errors="0">\n</testsuites>'
    )
  })

  it('takes one file as well as a list; a file without a path is `<stdin>`', () => {
    expect(reporterJunit(contracts())).toBe(reporterJunit([contracts()]))
    expect(reporterJunit(new VFile({cwd}))).toContain('<testsuite name="&lt;stdin&gt;" tests="1"')
  })

  it('escapes markup, keeps CR, tab and LF through a parser, and shows characters XML cannot hold as `\\uXXXX`', () => {
    const file = new VFile({cwd, path: 'a&b<c>"d".md'})
    file.message('Bad <x> & "y"\t\u0001\r\nz\uD800\uFFFF', {place: {line: 1, column: 1}, ruleId: "it's"})
    const xml = reporterJunit(file)
    expectXmlCharacters(xml)
    const suite = parse(xml).getElementsByTagName('testsuite')[0]
    expect(suite?.getAttribute('name')).toBe('a&b<c>"d".md')
    const failure = parse(xml).getElementsByTagName('failure')[0]
    expect(failure?.getAttribute('message')).toBe('Bad <x> & "y"\t\\u0001\r\nz\\uD800\\uFFFF')
    expect(failure?.textContent).toBe('1:1 warning Bad <x> & "y"\t\\u0001\r\nz\\uD800\\uFFFF it\'s')
  })

  it('any reason, rule and path: well-formed XML whose attributes and text read back as given, less what XML cannot hold', () => {
    const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
    const shown = (text: string) => text.replace(notXml, (character) => '\\u' + character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'))
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('<', '>', '&', '"', "'", '\r', '\n', '\t', '\u0085', '\u2028', '\u2029', '\u0000', '\u001F', '\uD800', '\uDC00', '\uFFFE', ']]>'),
        fc.integer({min: 0, max: 0xffff}).map((code) => String.fromCharCode(code)),
        fc.integer({min: 0x10000, max: 0x10ffff}).map((code) => String.fromCodePoint(code))
      )
    })
    fc.assert(
      fc.property(text, fc.stringMatching(/^[\w.-]{1,12}$/), text, (reason, name, ruleId) => {
        const file = new VFile({cwd, path: name + '.md'})
        file.message(reason || 'x', {place: {line: 2, column: 3}, ruleId: ruleId || 'r'})
        const xml = reporterJunit(file)
        expectXmlCharacters(xml)
        const root = parse(xml)
        const testcase = root.getElementsByTagName('testcase')[0]
        const failure = root.getElementsByTagName('failure')[0]
        expect(testcase?.getAttribute('name')).toBe(shown(`2:3 ${ruleId || 'r'}`))
        expect(failure?.getAttribute('message')).toBe(shown(reason || 'x'))
        expect(failure?.textContent).toBe(shown(`2:3 warning ${reason || 'x'} ${ruleId || 'r'}`))
      }),
      {numRuns: 300}
    )
  })
})
