/**
 * The reporters through the real `remark` CLI (remark-cli 12), which loads
 * `@verification-tiers/vfile-reporter-github`, `-sarif` and `-junit` with
 * `--report`; and `tiers lint`, which prints the same reports with
 * `--format`, or writes them with `--output-file` (through the cli's `main`
 * in this process: its bin's start is `tiers-lint-ci.test.ts`'s).
 *
 * Projects are written to temporary folders outside the repository, with a
 * `node_modules` symlink to the repository’s, so that the preset and the
 * reporters resolve there as they would in a project that installed them.
 *
 * Run `npx tsc -b` first: the bin and `main` run the built packages.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {validSarif} from './helpers/sarif.js'
import {builtBin, linkedProject, remarkBin, runProcess} from './helpers/tiers-bin.js'
import {runTiersHere} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

/** No colour forced on or off, and `tiers lint` not pushed into the github format, by the environment. */
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined, GITHUB_ACTIONS: undefined}

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Run the real `remark` CLI in `cwd`, never writing files. */
const remark = (cwd: string, args: readonly string[]): Promise<Run> => runProcess(remarkBin, ['--no-stdout', ...args], {cwd, env})

const lint = (cwd: string, args: readonly string[]): Promise<Run> => runTiersHere(cwd, ['lint', ...args], '', env)

const docs = (rule: string): string => `https://github.com/verification-tiers/verification-tiers/tree/main/packages/remark-lint-${rule}#readme`

/**
 * A contract folder: a tier in the wrong case (an error) and a misspelt label
 * (a warning) in `CONTRACTS.md`, a vague criterion (a warning) in
 * `contracts/C-03.md`, and a clean `contracts/C-04.md`.
 */
const contractFolder = (): Promise<string> =>
  linkedProject(folders, 'verification-tiers-reporters-', {
    '.remarkrc.json': JSON.stringify({plugins: ['remark-preset-lint-verification-tiers']}),
    '.greenlight/CONTRACTS.md': [
      '# Contracts',
      '',
      '### C-01: CartTotal',
      '',
      '**Verification:** Verify',
      '**Acceptence Criteria:**',
      '- The total includes tax',
      ''
    ].join('\n'),
    '.greenlight/contracts/C-03.md': [
      '### C-03: Receipt',
      '',
      '**Verification:** verify',
      '**Acceptance Criteria:**',
      '- The receipt works as expected',
      ''
    ].join('\n'),
    '.greenlight/contracts/C-04.md': ['### C-04: Refund', '', '**Verification:** auto', ''].join('\n')
  })

const contracts = '.greenlight/CONTRACTS.md'
const receipt = '.greenlight/contracts/C-03.md'
const refund = '.greenlight/contracts/C-04.md'
const tierReason = 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`'
const labelReason = 'Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`'
const vagueReason = 'Unexpected vague criterion `works as expected` in C-03 Receipt, expected an observable outcome or a `-- verified by:` check'

const githubReport = [
  `::error file=${contracts},line=5,col=19,endLine=5,endColumn=25,title=verification-tier::${tierReason}`,
  `::warning file=${contracts},line=6,col=3,endLine=6,endColumn=22,title=contract-field-name::${labelReason}`,
  `::warning file=${receipt},line=5,col=3,endLine=5,endColumn=32,title=acceptance-criteria-specific::${vagueReason}`,
  ''
].join('\n')

/** The JUnit report of the contract folder; `name` on `testsuites` as `tiers lint` sets it. */
function junitReport({name, quiet = false}: {name?: string; quiet?: boolean} = {}): string {
  const failure = (place: string, line: number, severity: string, reason: string, rule: string) => [
    `    <testcase name="${place} ${rule}" classname="${place.startsWith('5:3') ? receipt : contracts}" file="${place.startsWith('5:3') ? receipt : contracts}" line="${line}">`,
    `      <failure message="${reason}" type="${severity}">${place} ${severity} ${reason} ${rule} remark-lint`,
    `${docs(rule)}</failure>`,
    '    </testcase>'
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${name ? ` name="${name}"` : ''} tests="${quiet ? 3 : 4}" failures="3" errors="0">`,
    `  <testsuite name="${contracts}" tests="2" failures="2" errors="0" skipped="0">`,
    ...failure('5:19-5:25', 5, 'error', tierReason, 'verification-tier'),
    ...failure('6:3-6:22', 6, 'warning', labelReason, 'contract-field-name'),
    '  </testsuite>',
    `  <testsuite name="${receipt}" tests="1" failures="1" errors="0" skipped="0">`,
    ...failure('5:3-5:32', 5, 'warning', vagueReason, 'acceptance-criteria-specific'),
    '  </testsuite>',
    ...(quiet
      ? []
      : [
          `  <testsuite name="${refund}" tests="1" failures="0" errors="0" skipped="0">`,
          `    <testcase name="no issues found" classname="${refund}" file="${refund}"/>`,
          '  </testsuite>'
        ]),
    '</testsuites>',
    ''
  ].join('\n')
}

/** Rule, level, text, file and region of each result. */
const sarifResults = (text: string) =>
  validSarif(text).runs[0]?.results.map((result) => [
    result.ruleId,
    result.level,
    result.message.text,
    result.locations[0]?.physicalLocation.artifactLocation.uri,
    result.locations[0]?.physicalLocation.region
  ])

const expectedSarifResults = [
  ['verification-tier', 'error', tierReason, contracts, {startLine: 5, startColumn: 19, endLine: 5, endColumn: 25}],
  ['contract-field-name', 'warning', labelReason, contracts, {startLine: 6, startColumn: 3, endLine: 6, endColumn: 22}],
  ['acceptance-criteria-specific', 'warning', vagueReason, receipt, {startLine: 5, startColumn: 3, endLine: 5, endColumn: 32}]
]

describe('remark --report with our reporters', {timeout: 120_000}, () => {
  // The short name, as the readmes write it, loads the package by its full name (remark's `vfile-reporter-` prefix); the
  // exit code is remark's own, the error's (the reporter only formats).
  it.concurrent('`--report @verification-tiers/github` prints GitHub annotations on stderr, and exits as without it', async () => {
    const cwd = await contractFolder()
    expect(await remark(cwd, ['--report', '@verification-tiers/github', '.greenlight'])).toEqual({code: 1, stdout: '', stderr: githubReport})
  })

  // remark passes `--quiet` and `--silent` to a reporter in one options object: `--quiet` shows they reach it. The
  // report without them (a clean file's suite too) and `silent` are the reporter's tests (packages/vfile-reporter-junit),
  // and `tiers lint --format junit`'s below.
  it.concurrent('`--report @verification-tiers/junit` prints JUnit XML; remark’s `--quiet` reaches it', async () => {
    const cwd = await contractFolder()
    expect(await remark(cwd, ['--quiet', '--report', '@verification-tiers/junit', '.greenlight'])).toEqual({
      code: 1,
      stdout: '',
      stderr: junitReport({quiet: true})
    })
  })

  // Without options the tool is `defaultTool` (packages/vfile-reporter-sarif's test); here, options reach it through remark.
  it.concurrent('`--report @verification-tiers/sarif` prints a valid SARIF log; `--report name=tool:{…}` names the tool', async () => {
    const cwd = await contractFolder()
    const named = await remark(cwd, ['--report', '@verification-tiers/sarif=tool:{name:"remark",version:"12.0.1"}', '.greenlight'])
    expect([named.code, named.stdout]).toEqual([1, ''])
    const rules = ['verification-tier', 'contract-field-name', 'acceptance-criteria-specific'].map((id) => ({id, helpUri: docs(id)}))
    expect(validSarif(named.stderr).runs[0]?.tool.driver).toEqual({name: 'remark', version: '12.0.1', rules})
    expect(sarifResults(named.stderr)).toEqual(expectedSarifResults)
  })
})

describe('tiers lint: the same reporters', {timeout: 120_000}, () => {
  it.concurrent('`--format github`, `junit` and `sarif` print on stdout what remark’s `--report` prints', async () => {
    const cwd = await contractFolder()
    const [github, junit, sarif] = await Promise.all([
      lint(cwd, ['--format', 'github', '.greenlight']),
      lint(cwd, ['--format', 'junit', '.greenlight']),
      lint(cwd, ['--format', 'sarif', '.greenlight'])
    ])
    expect(github).toEqual({code: 1, stdout: githubReport, stderr: ''})
    expect(junit).toEqual({code: 1, stdout: junitReport({name: 'tiers lint'}), stderr: ''})
    expect([sarif.code, sarif.stderr]).toEqual([1, ''])
    expect(sarifResults(sarif.stdout)).toEqual(expectedSarifResults)
  })

  it.concurrent('`--format junit` takes `--quiet` and `--silent`', async () => {
    const cwd = await contractFolder()
    const [quiet, silent] = await Promise.all([
      lint(cwd, ['--format', 'junit', '--quiet', '.greenlight']),
      lint(cwd, ['--format', 'junit', '--silent', '.greenlight'])
    ])
    expect(quiet).toEqual({code: 1, stdout: junitReport({name: 'tiers lint', quiet: true}), stderr: ''})
    expect(silent.code).toBe(1)
    expect(silent.stdout.match(/<testcase /g)).toHaveLength(1)
    expect(silent.stdout).toContain(`<testsuites name="tiers lint" tests="1" failures="1" errors="0">\n  <testsuite name="${contracts}" tests="1" failures="1"`)
  })
})

describe('tiers lint --output-file', {timeout: 120_000}, () => {
  it.concurrent('writes the report to the file, creating its folder, prints nothing of it, and exits as without it', async () => {
    const cwd = await contractFolder()
    const runs = await Promise.all([
      lint(cwd, ['--format', 'junit', '--output-file', 'reports/lint.xml', '.greenlight']),
      lint(cwd, ['--format', 'github', '--output-file', 'github.txt', '.greenlight']),
      lint(cwd, ['--format', 'github', '--output-file', 'warnings.txt', receipt]),
      lint(cwd, ['--format', 'sarif', '--output-file', path.join(cwd, 'deep', 'er', 'lint.sarif'), '.greenlight'])
    ])
    expect(runs).toEqual([
      {code: 1, stdout: '', stderr: ''},
      {code: 1, stdout: '', stderr: ''},
      {code: 0, stdout: '', stderr: ''},
      {code: 1, stdout: '', stderr: ''}
    ])
    expect(await fs.readFile(path.join(cwd, 'reports', 'lint.xml'), 'utf8')).toBe(junitReport({name: 'tiers lint'}))
    expect(await fs.readFile(path.join(cwd, 'github.txt'), 'utf8')).toBe(githubReport)
    expect(await fs.readFile(path.join(cwd, 'warnings.txt'), 'utf8')).toBe(githubReport.split('\n').slice(2).join('\n'))
    expect(sarifResults(await fs.readFile(path.join(cwd, 'deep', 'er', 'lint.sarif'), 'utf8'))).toEqual(expectedSarifResults)
  })

  it.concurrent('the stylish report in a file has no colours; an empty report is an empty file, replacing what was there', async () => {
    const cwd = await contractFolder()
    await fs.writeFile(path.join(cwd, 'old.txt'), 'an old report\n')
    const [stylish, plain, empty] = await Promise.all([
      lint(cwd, ['--color', '--output-file', 'stylish.txt', '.greenlight']),
      lint(cwd, ['--no-color', '.greenlight']),
      lint(cwd, ['--format', 'github', '--output-file', 'old.txt', refund])
    ])
    expect([stylish, empty]).toEqual([
      {code: 1, stdout: '', stderr: ''},
      {code: 0, stdout: '', stderr: ''}
    ])
    expect(plain.stderr).toContain(`${contracts}\n5:19-5:25 error`)
    expect(await fs.readFile(path.join(cwd, 'stylish.txt'), 'utf8')).toBe(plain.stderr)
    expect(await fs.readFile(path.join(cwd, 'old.txt'), 'utf8')).toBe('')
  })

  it.concurrent('a file that cannot be written is one line naming it, exit 2; nothing is left behind', async () => {
    const cwd = await contractFolder()
    await fs.mkdir(path.join(cwd, 'a-folder'))
    const before = (await fs.readdir(cwd)).sort()
    const [underFile, isFolder, empty] = await Promise.all([
      lint(cwd, ['--format', 'junit', '--output-file', `${contracts}/lint.xml`, '.greenlight']),
      lint(cwd, ['--format', 'junit', '--output-file', 'a-folder', '.greenlight']),
      lint(cwd, ['--format', 'junit', '--output-file=', '.greenlight'])
    ])
    expect(underFile).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: could not write the report to ${contracts}/lint.xml: Unexpected file in its path, expected folders\n`
    })
    expect(isFolder).toEqual({code: 2, stdout: '', stderr: 'tiers: could not write the report to a-folder: Unexpected folder, expected a file\n'})
    expect(empty).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected empty `--output-file`, expected a file name\n'})
    expect((await fs.readdir(cwd)).sort()).toEqual(before)
    expect(await fs.readdir(path.join(cwd, 'a-folder'))).toEqual([])
  })

  it.concurrent('with `--fix-dry-run`, the diff goes to stdout and the report, in any format, to the file', async () => {
    const cwd = await contractFolder()
    const run = await lint(cwd, ['--fix-dry-run', '--format', 'github', '--output-file', 'github.txt', '.greenlight'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(
      [
        `--- a/${contracts}`,
        `+++ b/${contracts}`,
        '@@ -2,6 +2,6 @@',
        ' ',
        ' ### C-01: CartTotal',
        ' ',
        '-**Verification:** Verify',
        '-**Acceptence Criteria:**',
        '+**Verification:** verify',
        '+**Acceptance Criteria:**',
        ' - The total includes tax',
        ''
      ].join('\n')
    )
    expect(await fs.readFile(path.join(cwd, 'github.txt'), 'utf8')).toBe(githubReport)
  })
})
