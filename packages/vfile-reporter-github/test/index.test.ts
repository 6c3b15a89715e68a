import path from 'node:path'
import fc from 'fast-check'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import reporterGithubDefault, {reporterGithub} from '../index.js'

const cwd = path.resolve('/project')
const range = {start: {line: 3, column: 19}, end: {line: 3, column: 25}}

/** A file with an error over a range, a warning at a point and an info without a place. */
function contracts(): VFile {
  const file = new VFile({cwd, path: 'docs/contracts.md'})
  file.message('Unexpected tier `Verify`, expected `verify`', {place: range, ruleId: 'verification-tier', source: 'remark-lint'}).fatal = true
  file.message('Unexpected label, expected `Acceptance Criteria`', {place: {line: 4, column: 3}, ruleId: 'contract-field-name', source: 'remark-lint'})
  file.info('Just so', {source: 'local'})
  return file
}

describe('reporterGithub', () => {
  it('is the default export', () => {
    expect(reporterGithubDefault).toBe(reporterGithub)
  })

  it('writes one workflow command per message: error, warning and notice, at their places, titled with the rule', () => {
    expect(reporterGithub([contracts(), new VFile({cwd, path: 'clean.md'})])).toBe(
      [
        '::error file=docs/contracts.md,line=3,col=19,endLine=3,endColumn=25,title=verification-tier::Unexpected tier `Verify`, expected `verify`',
        '::warning file=docs/contracts.md,line=4,col=3,title=contract-field-name::Unexpected label, expected `Acceptance Criteria`',
        '::notice file=docs/contracts.md,title=local::Just so'
      ].join('\n')
    )
  })

  it('takes one file as well as a list', () => {
    expect(reporterGithub(contracts())).toBe(reporterGithub([contracts()]))
  })

  it('`silent` keeps fatal messages only; `quiet` changes nothing', () => {
    expect(reporterGithub([contracts()], {silent: true})).toBe(
      '::error file=docs/contracts.md,line=3,col=19,endLine=3,endColumn=25,title=verification-tier::Unexpected tier `Verify`, expected `verify`'
    )
    expect(reporterGithub([contracts()], {quiet: true})).toBe(reporterGithub([contracts()]))
  })

  it('is empty for files without messages, and for no files', () => {
    expect(reporterGithub([new VFile({cwd, path: 'clean.md'})])).toBe('')
    expect(reporterGithub([])).toBe('')
  })

  it('escapes `%`, CR and LF in the message, and `:` and `,` too in properties', () => {
    const file = new VFile({cwd, path: 'a,b:c%.md'})
    file.message('First line, 100%\r\nsecond: line', {place: {line: 1, column: 1}, ruleId: 'odd:rule,x'})
    expect(reporterGithub([file])).toBe('::warning file=a%2Cb%3Ac%25.md,line=1,col=1,title=odd%3Arule%2Cx::First line, 100%25%0D%0Asecond: line')
  })

  it('names files from their `cwd`, given relative or absolute; a file without a path gets no `file`, a message without rule or source no title', () => {
    const absolute = new VFile({cwd, path: path.join(cwd, 'sub', 'a.md')})
    absolute.message('Here', {place: {line: 2, column: 1}})
    const stdin = new VFile({cwd})
    stdin.message('No such file or folder').fatal = true
    expect(reporterGithub([absolute, stdin])).toBe(['::warning file=sub/a.md,line=2,col=1::Here', '::error::No such file or folder'].join('\n'))
  })

  it('any reason, path and rule: one command on one line, whose properties and message read back as given', () => {
    // The runner’s reading of a command: properties split on `,`, each at its first `=`, the message after the second `::`, then `%XX` decoded.
    const decode = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')
    const text = fc.string({unit: fc.oneof(fc.constantFrom('%', ':', ',', '=', '\r', '\n', '::', '%0A', '%25'), fc.string({minLength: 1, maxLength: 1}))})
    fc.assert(
      fc.property(text, text, fc.stringMatching(/^[\w .,:%-]{1,12}$/), (reason, ruleId, name) => {
        const file = new VFile({cwd, path: name + '.md'})
        file.message(reason, {place: {line: 2, column: 3}, ruleId: ruleId || undefined})
        const report = reporterGithub(file)
        expect(report).not.toMatch(/[\r\n]/)
        const match = /^::warning ([^:]*)::(.*)$/.exec(report)
        expect(match).not.toBeNull()
        const properties = Object.fromEntries(
          (match?.[1] ?? '').split(',').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)].map(decode))
        )
        expect(properties).toEqual({file: path.relative(cwd, path.resolve(cwd, name + '.md')), line: '2', col: '3', ...(ruleId ? {title: ruleId} : {})})
        expect(decode(match?.[2] ?? '')).toBe(reason)
      }),
      {numRuns: 300}
    )
  })
})
