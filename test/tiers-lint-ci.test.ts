/**
 * End-to-end tests of what `tiers lint` adds for CI: `--format
 * github|sarif|json`, `--fix`, `--fix-dry-run` and `--cache`
 * (`--cache-location`). `tiers` runs through the cli's `main` in this process
 * (loading the engine once); the real bin runs where its own start matters:
 * a cold run, and the warm run that loads no engine in two formats. Where remark has the same output — the stylish
 * report, the JSON report (`remark --report json`) — the real `remark` CLI
 * runs on the same project and its output is the expected one; where a path
 * of tiers lint's own (the cache, fixes) ends in a report, a run without it
 * is (`tiers-lint.test.ts` compares those with remark).
 *
 * Projects are written to temporary folders outside the repository, with a
 * `node_modules` symlink to the repository’s so that plugins resolve there.
 * A few use `local-rules.js`, a plugin that reports what the preset’s rules
 * never do: a reason over two lines, a rule id with `:` and `,`, an info
 * message, and two fixes that overlap.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {readFileSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {VFile} from 'vfile'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {planFixes} from '@verification-tiers/lint'
import {validateSarif, validSarif} from './helpers/sarif.js'
import type {SarifLog, SarifRegion, SarifResult} from './helpers/sarif.js'
import {builtBin, linkedProject, remarkBin, root, runProcess, runTiers} from './helpers/tiers-bin.js'
import {runTiersHere, runTiersPiped} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

// Helpers -------------------------------------------------------------------

const cliVersion = (JSON.parse(readFileSync(path.join(root, 'packages', 'cli', 'package.json'), 'utf8')) as {version: string}).version

/** Neither bin may be forced into or out of colours, nor `tiers lint` into the github format, by the environment. */
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined, GITHUB_ACTIONS: undefined}

const folders: string[] = []

beforeAll(async () => {
  // A clear failure instead of many confusing ones when the build is missing.
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/**
 * Run `tiers lint <args> --list-clean` in `cwd` (listing clean files, as
 * remark does, to compare with it), through the cli's `main` in this process
 * (what the bin's own start changes, the warm run that loads no engine, is
 * tested through the bin below); `extra` adds to (or, as `undefined`,
 * removes from) the environment.
 */
function lint(cwd: string, args: readonly string[], extra: Record<string, string | undefined> = {}): Promise<Run> {
  return runTiersHere(cwd, ['lint', '--list-clean', ...args], '', {...env, ...extra})
}

/** Run the real `remark` CLI in `cwd` (never writing files). */
function remark(cwd: string, args: readonly string[]): Promise<Run> {
  return runProcess(remarkBin, ['--no-stdout', ...args], {cwd, env})
}

/** A temporary project with `files` and `copies`, resolving plugins from the repository’s `node_modules`; its real path. */
const project = (files: Record<string, string | Buffer>, copies: Record<string, string> = {}): Promise<string> =>
  linkedProject(folders, 'verification-tiers-lint-ci-', files, copies)

/** Every file below `folder` (not `node_modules`), by relative path, with its bytes. */
async function snapshot(folder: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const entries = await fs.readdir(folder, {recursive: true, withFileTypes: true})
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name)
    const relative = path.relative(folder, full)
    if (relative.split(path.sep)[0] === 'node_modules' || !entry.isFile()) continue
    files.set(relative, await fs.readFile(full))
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)))
}

/** `text` with each `[from, to]` replaced, each `from` found exactly once (else the test is wrong). */
function substitute(text: string, substitutions: ReadonlyArray<readonly [string, string]>): string {
  for (const [from, to] of substitutions) {
    expect(text.split(from).length - 1, `\`${from}\` once`).toBe(1)
    text = text.replace(from, to)
  }
  return text
}

const crlf = (text: string): string => text.replace(/\n/g, '\r\n')

/** A rule’s docs, as its messages carry them in `url`. */
const ruleUrl = (ruleId: string): string => `https://github.com/verification-tiers/verification-tiers/tree/main/packages/remark-lint-${ruleId}#readme`

// Projects --------------------------------------------------------------------

const preset = 'remark-preset-lint-verification-tiers'
const presetConfig = JSON.stringify({plugins: [preset]})

/** A tier in the wrong case (an error) and a misspelt label (a warning). */
const cartTotal = ['### C-01: CartTotal', '', '**Verification:** Verify', '**Acceptence Criteria:**', '- The total includes tax', ''].join('\n')

/** A vague criterion (a warning). */
const receipt = ['### C-02: Receipt', '', '**Verification:** verify', '**Acceptance Criteria:**', '- The receipt works as expected', ''].join('\n')

/** A tier that could be either (`expected` has two values: no fix). */
const manualTier = ['### C-03: Refund', '', '**Verification:** manual', '**Acceptance Criteria:**', '- A refund is recorded', ''].join('\n')

/** Nothing to report. */
const clean = ['### C-04: Clean', '', '**Verification:** auto', ''].join('\n')

/**
 * Messages no rule of the preset makes, by file name: in `odd.md` a warning
 * whose reason spans two lines and has `%` and `:` in it, from a rule whose id
 * has `:` and `,`, and an info without a place; in `overlap.md` two fixes
 * that overlap, and one that does not.
 */
const localRules = `
const at = (start, end) => ({start: {line: 1, column: start + 1, offset: start}, end: {line: 1, column: end + 1, offset: end}})

export default function localRules() {
  return (tree, file) => {
    if (file.basename === 'odd.md') {
      file.message('First line, 100%\\r\\nsecond: line', {place: {line: 1, column: 1}, ruleId: 'odd:rule,x', source: 'local'})
      file.info('Just so', {ruleId: 'info-rule', source: 'local'})
    }
    if (file.basename === 'overlap.md') {
      Object.assign(file.message('Unexpected \`Hello\`, expected \`Howdy\`', {place: at(0, 5), ruleId: 'greeting', source: 'local'}), {actual: 'Hello', expected: ['Howdy']})
      Object.assign(file.message('Unexpected \`lo wo\`, expected \`LO WO\`', {place: at(3, 8), ruleId: 'shout', source: 'local'}), {actual: 'lo wo', expected: ['LO WO']})
    }
  }
}
`

const withLocalRules = JSON.stringify({plugins: [preset, './local-rules.js']})

/** The project most tests lint: an error and a warning in one file, a warning in another. */
const contractsProject = () => project({'.remarkrc.json': presetConfig, 'contracts.md': cartTotal, 'more/receipt.md': receipt})

let readOnlyContracts: Promise<string> | undefined
let contractsStylish: Promise<Run> | undefined
/** `contractsProject` for the tests that only read it (no `--fix`, no `--cache`), made once. */
const sharedContractsProject = (): Promise<string> => (readOnlyContracts ??= contractsProject())
/** remark's stylish report of `sharedContractsProject`, run once for the tests that compare with it. */
const contractsStylishReport = async (): Promise<Run> => {
  const cwd = await sharedContractsProject()
  return (contractsStylish ??= remark(cwd, ['--no-color', '.']))
}

const examples = {'greenlight-project': 'content/examples/greenlight-project', 'broken-contracts': 'content/examples/broken-contracts'}
const brokenContracts = path.join(root, 'content', 'examples', 'broken-contracts')

// --format github ---------------------------------------------------------------

const githubReport = [
  '::error file=contracts.md,line=3,col=19,endLine=3,endColumn=25,title=verification-tier::Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
  '::warning file=contracts.md,line=4,col=3,endLine=4,endColumn=22,title=contract-field-name::Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`',
  '::warning file=more/receipt.md,line=5,col=3,endLine=5,endColumn=32,title=acceptance-criteria-specific::Unexpected vague criterion `works as expected` in C-02 Receipt, expected an observable outcome or a `-- verified by:` check',
  ''
].join('\n')

describe('tiers lint --format github', {timeout: 120_000}, () => {
  it.concurrent('prints one workflow command per message on stdout, and exits as remark does', async () => {
    const cwd = await sharedContractsProject()
    const [github, stylish] = await Promise.all([lint(cwd, ['--format', 'github']), contractsStylishReport()])
    expect(github).toEqual({code: 1, stdout: githubReport, stderr: ''})
    expect(stylish.code).toBe(1)
  })

  // The codes remark exits with on warnings only, with and without `--frail`, are compared in `tiers-lint.test.ts`.
  it.concurrent('exits 0 on warnings only, 1 with `--frail`', async () => {
    const cwd = await sharedContractsProject()
    const warningsOnly =
      githubReport
        .split('\n')
        .filter((line) => line.includes('receipt.md'))
        .join('\n') + '\n'
    const [normal, frail] = await Promise.all([lint(cwd, ['--format', 'github', 'more']), lint(cwd, ['--format', 'github', '--frail', 'more'])])
    expect(normal).toEqual({code: 0, stdout: warningsOnly, stderr: ''})
    expect(frail).toEqual({code: 1, stdout: warningsOnly, stderr: ''})
  })

  it.concurrent('is the default when `GITHUB_ACTIONS` is `true`; stylish (remark’s report) otherwise', async () => {
    const cwd = await sharedContractsProject()
    const [actions, explicit, unset, other, remarkRun] = await Promise.all([
      lint(cwd, [], {GITHUB_ACTIONS: 'true'}),
      lint(cwd, ['--format', 'stylish', '--no-color'], {GITHUB_ACTIONS: 'true'}),
      lint(cwd, ['--no-color'], {GITHUB_ACTIONS: undefined}),
      lint(cwd, ['--no-color'], {GITHUB_ACTIONS: 'false'}),
      contractsStylishReport()
    ])
    expect(actions).toEqual({code: 1, stdout: githubReport, stderr: ''})
    expect(remarkRun.stderr).toContain('contracts.md\n3:19-3:25 error')
    for (const run of [explicit, unset, other]) expect(run).toEqual({code: 1, stdout: '', stderr: remarkRun.stderr})
  })

  it.concurrent('escapes `%`, `:` and `,` in properties, and `%`, CR and LF in messages; an info is a notice', async () => {
    const cwd = await project({'.remarkrc.json': withLocalRules, 'local-rules.js': localRules, 'a,b:c%.md': cartTotal, 'odd.md': 'Odd.\n'})
    const run = await lint(cwd, ['--format', 'github'])
    expect(run).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        '::error file=a%2Cb%3Ac%25.md,line=3,col=19,endLine=3,endColumn=25,title=verification-tier::Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
        '::warning file=a%2Cb%3Ac%25.md,line=4,col=3,endLine=4,endColumn=22,title=contract-field-name::Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`',
        '::warning file=odd.md,line=1,col=1,title=odd%3Arule%2Cx::First line, 100%25%0D%0Asecond: line',
        '::notice file=odd.md,title=info-rule::Just so',
        ''
      ].join('\n')
    })
  })

  it.concurrent('`--silent` leaves only errors; a file that cannot be read is an error without a place', async () => {
    const cwd = await contractsProject()
    const [silent, missing] = await Promise.all([
      lint(cwd, ['--format', 'github', '--silent']),
      lint(cwd, ['--format', 'github', '--silent', 'more', 'missing.md'])
    ])
    expect(silent).toEqual({code: 1, stdout: (githubReport.split('\n')[0] as string) + '\n', stderr: ''})
    expect(missing).toEqual({code: 1, stdout: '::error file=missing.md::No such file or folder\n', stderr: ''})
  })
})

// --format sarif ----------------------------------------------------------------

/** The parts of results a reader of the log sees: rule, level, message, file and region. */
function resultSummary(log: SarifLog) {
  const run = log.runs[0]
  return run?.results.map((result) => {
    const location = result.locations[0]?.physicalLocation
    // Each result points at its rule.
    expect(run.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId)
    return {ruleId: result.ruleId, level: result.level, text: result.message.text, uri: location?.artifactLocation.uri, region: location?.region}
  })
}

describe('tiers lint --format sarif', {timeout: 120_000}, () => {
  it.concurrent('the validator rejects broken logs (a guard for the tests below)', async () => {
    const cwd = await contractsProject()
    const run = await lint(cwd, ['--format', 'sarif'])
    const log = validSarif(run.stdout)
    const broken = (change: (copy: SarifLog & Record<string, unknown>) => void): boolean => {
      const copy = structuredClone(log) as SarifLog & Record<string, unknown>
      change(copy)
      return validateSarif(copy)
    }
    expect(broken(() => {})).toBe(true)
    expect(broken((copy) => (copy.version = '2.0'))).toBe(false)
    expect(broken((copy) => ((copy.runs[0]!.results[0] as SarifResult).level = 'fatal'))).toBe(false)
    expect(broken((copy) => (((copy.runs[0]!.results[0] as SarifResult).locations[0]!.physicalLocation.region as SarifRegion).startLine = 0))).toBe(false)
    expect(broken((copy) => (copy.extra = true))).toBe(false)
  })

  it.concurrent('prints one valid SARIF 2.1.0 log on stdout: the results at their regions, the rules with their docs', async () => {
    const cwd = await contractsProject()
    const [run, json] = await Promise.all([lint(cwd, ['--format', 'sarif']), lint(cwd, ['--format', 'json'])])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    const log = validSarif(run.stdout)
    expect(log.version).toBe('2.1.0')
    expect(log.runs).toHaveLength(1)
    const driver = log.runs[0]?.tool.driver
    expect({name: driver?.name, version: driver?.version, informationUri: driver?.informationUri}).toEqual({
      name: 'tiers lint',
      version: cliVersion,
      informationUri: 'https://github.com/verification-tiers/verification-tiers'
    })
    expect(driver?.rules).toEqual([
      {id: 'verification-tier', helpUri: ruleUrl('verification-tier')},
      {id: 'contract-field-name', helpUri: ruleUrl('contract-field-name')},
      {id: 'acceptance-criteria-specific', helpUri: ruleUrl('acceptance-criteria-specific')}
    ])
    // The docs are those the messages carry.
    const urls = (JSON.parse(json.stdout) as Array<{messages: Array<{ruleId: string; url: string}>}>).flatMap((file) =>
      file.messages.map((message) => [message.ruleId, message.url])
    )
    expect(Object.fromEntries(urls)).toEqual(Object.fromEntries(driver?.rules.map((rule) => [rule.id, rule.helpUri]) ?? []))
    expect(resultSummary(log)).toEqual([
      {
        ruleId: 'verification-tier',
        level: 'error',
        text: 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
        uri: 'contracts.md',
        region: {startLine: 3, startColumn: 19, endLine: 3, endColumn: 25}
      },
      {
        ruleId: 'contract-field-name',
        level: 'warning',
        text: 'Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`',
        uri: 'contracts.md',
        region: {startLine: 4, startColumn: 3, endLine: 4, endColumn: 22}
      },
      {
        ruleId: 'acceptance-criteria-specific',
        level: 'warning',
        text: 'Unexpected vague criterion `works as expected` in C-02 Receipt, expected an observable outcome or a `-- verified by:` check',
        uri: 'more/receipt.md',
        region: {startLine: 5, startColumn: 3, endLine: 5, endColumn: 32}
      }
    ])
    for (const result of log.runs[0]?.results ?? []) expect(result.locations[0]?.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%')
  })

  it.concurrent('odd names and messages, an info, a missing file and `--silent` stay valid', async () => {
    const cwd = await project({'.remarkrc.json': withLocalRules, 'local-rules.js': localRules, 'a,b:c%.md': cartTotal, 'odd.md': 'Odd.\n', 'clean.md': clean})
    const [run, silent, nothing] = await Promise.all([
      lint(cwd, ['--format', 'sarif', '.', 'missing.md']),
      lint(cwd, ['--format', 'sarif', '--silent', '.']),
      lint(cwd, ['--format', 'sarif', 'clean.md'])
    ])
    expect([run.code, run.stderr]).toEqual([1, ''])
    const log = validSarif(run.stdout)
    expect(log.runs[0]?.tool.driver.rules).toEqual([
      {id: 'verification-tier', helpUri: ruleUrl('verification-tier')},
      {id: 'contract-field-name', helpUri: ruleUrl('contract-field-name')},
      {id: 'unified-engine'},
      {id: 'odd:rule,x'},
      {id: 'info-rule'}
    ])
    expect(resultSummary(log)).toEqual([
      {
        ruleId: 'verification-tier',
        level: 'error',
        text: 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
        uri: 'a%2Cb%3Ac%25.md',
        region: {startLine: 3, startColumn: 19, endLine: 3, endColumn: 25}
      },
      {
        ruleId: 'contract-field-name',
        level: 'warning',
        text: 'Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`',
        uri: 'a%2Cb%3Ac%25.md',
        region: {startLine: 4, startColumn: 3, endLine: 4, endColumn: 22}
      },
      {ruleId: 'unified-engine', level: 'error', text: 'No such file or folder', uri: 'missing.md', region: undefined},
      {ruleId: 'odd:rule,x', level: 'warning', text: 'First line, 100%\r\nsecond: line', uri: 'odd.md', region: {startLine: 1, startColumn: 1}},
      {ruleId: 'info-rule', level: 'note', text: 'Just so', uri: 'odd.md', region: undefined}
    ])
    const silentLog = validSarif(silent.stdout)
    expect(silent.code).toBe(1)
    expect(resultSummary(silentLog)?.map((result) => [result.ruleId, result.level])).toEqual([['verification-tier', 'error']])
    expect(silentLog.runs[0]?.tool.driver.rules).toEqual([{id: 'verification-tier', helpUri: ruleUrl('verification-tier')}])
    const empty = validSarif(nothing.stdout)
    expect([nothing.code, nothing.stderr, empty.runs[0]?.results, empty.runs[0]?.tool.driver.rules]).toEqual([0, '', [], []])
  })
})

// --format json -------------------------------------------------------------------

interface JsonFile {
  path: string
  messages: Array<{ruleId: string | null; line: number | null; column: number | null; reason: string; fatal: boolean | null; source: string | null}>
}

/**
 * remark’s JSON report without the messages’ `ancestors` (the tree’s own
 * nodes, printed whole), which `tiers lint` leaves out: a run its cache
 * answers has the messages, not the trees.
 */
function withoutAncestors(json: string): string {
  const files = JSON.parse(json) as Array<{messages: Array<Record<string, unknown>>}>
  for (const file of files) for (const message of file.messages) delete message.ancestors
  return JSON.stringify(files) + '\n'
}

describe('tiers lint --format json', {timeout: 120_000}, () => {
  let jsonProject: Promise<string> | undefined
  let jsonRuns: Promise<[Run, Run]> | undefined
  /** tiers lint's JSON report and remark's (`remark --report json`) of one project, run once for both tests. */
  const jsonReports = (): Promise<[Run, Run]> =>
    (jsonRuns ??= (async () => {
      const cwd = await (jsonProject ??= project({'.remarkrc.json': presetConfig, 'contracts.md': cartTotal, 'more/receipt.md': receipt, 'clean.md': clean}))
      return Promise.all([lint(cwd, ['--format', 'json']), remark(cwd, ['--report', 'json', '.'])])
    })())

  it.concurrent('prints on stdout what vfile-reporter-json gives remark (`remark --report json`), but the ancestors', async () => {
    const [run, remarkRun] = await jsonReports()
    expect(remarkRun.stderr).toContain('"ancestors":')
    expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({code: remarkRun.code, stdout: withoutAncestors(remarkRun.stderr), stderr: ''})
    const files = JSON.parse(run.stdout) as JsonFile[]
    expect(
      files.map((file) => ({
        path: file.path,
        messages: file.messages.map(({ruleId, line, column, reason, fatal, source}) => ({ruleId, line, column, reason, fatal, source}))
      }))
    ).toEqual([
      {path: 'clean.md', messages: []},
      {
        path: 'contracts.md',
        messages: [
          {
            ruleId: 'verification-tier',
            line: 3,
            column: 19,
            reason: 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
            fatal: true,
            source: 'remark-lint'
          },
          {
            ruleId: 'contract-field-name',
            line: 4,
            column: 3,
            reason: 'Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`',
            fatal: false,
            source: 'remark-lint'
          }
        ]
      },
      {
        path: 'more/receipt.md',
        messages: [
          {
            ruleId: 'acceptance-criteria-specific',
            line: 5,
            column: 3,
            reason: 'Unexpected vague criterion `works as expected` in C-02 Receipt, expected an observable outcome or a `-- verified by:` check',
            fatal: false,
            source: 'remark-lint'
          }
        ]
      }
    ])
  })

  // remark passes `--quiet` and `--silent` to vfile-reporter-json, which then leaves out files without messages, and
  // messages that are not fatal (and then files left without any): remark's whole report, so cut, is the expected one.
  it.concurrent('`--quiet` and `--silent` as remark passes them to the reporter', async () => {
    const [, remarkRun] = await jsonReports()
    const cwd = (await jsonProject)!
    const [quiet, silent] = await Promise.all([lint(cwd, ['--format', 'json', '--quiet']), lint(cwd, ['--format', 'json', '--silent'])])
    const whole = JSON.parse(withoutAncestors(remarkRun.stderr)) as JsonFile[]
    const quietFiles = whole.filter((file) => file.messages.length > 0)
    const silentFiles = whole.map((file) => ({...file, messages: file.messages.filter((message) => message.fatal)})).filter((file) => file.messages.length > 0)
    expect(quiet).toEqual({code: remarkRun.code, stdout: JSON.stringify(quietFiles) + '\n', stderr: ''})
    expect(silent).toEqual({code: remarkRun.code, stdout: JSON.stringify(silentFiles) + '\n', stderr: ''})
    expect((JSON.parse(quiet.stdout) as JsonFile[]).map((file) => file.path)).toEqual(['contracts.md', 'more/receipt.md'])
    // vfile-reporter-json leaves out files without errors then.
    expect((JSON.parse(silent.stdout) as JsonFile[]).map((file) => [file.path, file.messages.map((message) => message.ruleId)])).toEqual([
      ['contracts.md', ['verification-tier']]
    ])
  })
})

// --fix -----------------------------------------------------------------------------

/** The two fixes `--fix` makes in `broken-contracts/CONTRACTS.md`. */
const brokenFixes = [
  ['**Verification:** Verify\n', '**Verification:** verify\n'],
  ['**Acceptence Criteria:**\n', '**Acceptance Criteria:**\n']
] as const

describe('tiers lint --fix', {timeout: 120_000}, () => {
  it.concurrent('fixes the tier and the label in a copy of broken-contracts, changes no other byte, then reports what is left; `--frail` exits 1 on it', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig}, {'broken-contracts': 'content/examples/broken-contracts'})
    const before = await snapshot(cwd)
    const run = await lint(cwd, ['--fix', '--no-color', 'broken-contracts'])
    const after = await snapshot(cwd)
    // The fixed file is the original with exactly the two substitutions; every other file is untouched, and no file is added.
    const contracts = path.join('broken-contracts', 'CONTRACTS.md')
    const original = await fs.readFile(path.join(brokenContracts, 'CONTRACTS.md'), 'utf8')
    expect([...after.keys()]).toEqual([...before.keys()])
    expect(after.get(contracts)?.toString('utf8')).toBe(substitute(original, brokenFixes))
    for (const [name, bytes] of before) if (name !== contracts) expect(after.get(name), name).toEqual(bytes)
    // What is left is what remark reports on the fixed files: warnings only, which `--frail` fails on.
    const left = await remark(cwd, ['--no-color', '--frail', 'broken-contracts'])
    expect(left.stderr).not.toContain('verification-tier')
    expect(left.stderr).not.toContain('contract-field-name')
    expect(left.stderr).toMatch(/ warning /)
    expect(left.stderr).not.toMatch(/ error /)
    expect(left.code).toBe(1)
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'fixed broken-contracts/CONTRACTS.md:11:19: `Verify` → `verify` (verification-tier)\n' +
        'fixed broken-contracts/CONTRACTS.md:31:3: `Acceptence Criteria` → `Acceptance Criteria` (contract-field-name)\n' +
        left.stderr
    })
    // Nothing more to fix: a second run changes nothing and reports the same, and with `--frail` exits 1 on the warnings left.
    const again = await lint(cwd, ['--fix', '--frail', '--no-color', 'broken-contracts'])
    expect(again).toEqual({code: 1, stdout: '', stderr: left.stderr})
    expect(await snapshot(cwd)).toEqual(after)
  })

  it.concurrent('keeps CRLF line endings', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'crlf.md': crlf(cartTotal)})
    const run = await lint(cwd, ['--fix', '--no-color', 'crlf.md'])
    const text = await fs.readFile(path.join(cwd, 'crlf.md'), 'utf8')
    expect(text).toBe(
      crlf(
        substitute(cartTotal, [
          ['Verify\n', 'verify\n'],
          ['Acceptence', 'Acceptance']
        ])
      )
    )
    expect(text.match(/\r\n/g)?.length).toBe(cartTotal.split('\n').length - 1)
    expect(text).not.toMatch(/[^\r]\n/)
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'fixed crlf.md:3:19: `Verify` → `verify` (verification-tier)\n' +
        'fixed crlf.md:4:3: `Acceptence Criteria` → `Acceptance Criteria` (contract-field-name)\n' +
        'crlf.md: no issues found\n'
    })
  })

  it.concurrent('applies no message with several expected values', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'choice.md': manualTier + '\n' + cartTotal.replace('Acceptence', 'Acceptance')})
    const original = await fs.readFile(path.join(cwd, 'choice.md'), 'utf8')
    const run = await lint(cwd, ['--fix', '--no-color', 'choice.md'])
    expect(await fs.readFile(path.join(cwd, 'choice.md'), 'utf8')).toBe(substitute(original, [['Verify', 'verify']]))
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'fixed choice.md:9:19: `Verify` → `verify` (verification-tier)',
        'choice.md',
        '3:19-3:25 error Unexpected verification tier `manual` on C-03 Refund, expected `auto` or `verify` verification-tier remark-lint',
        '',
        '✖ 1 error',
        ''
      ].join('\n')
    })
  })

  it.concurrent('leaves a file whose fixes overlap as it is, and fixes the others', async () => {
    const cwd = await project({'.remarkrc.json': withLocalRules, 'local-rules.js': localRules, 'a.md': cartTotal, 'overlap.md': 'Hello world\n'})
    const run = await lint(cwd, ['--fix', '--no-color', '--silent'])
    expect(await fs.readFile(path.join(cwd, 'overlap.md'), 'utf8')).toBe('Hello world\n')
    expect(await fs.readFile(path.join(cwd, 'a.md'), 'utf8')).toBe(
      substitute(cartTotal, [
        ['Verify', 'verify'],
        ['Acceptence', 'Acceptance']
      ])
    )
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'fixed a.md:3:19: `Verify` → `verify` (verification-tier)',
        'fixed a.md:4:3: `Acceptence Criteria` → `Acceptance Criteria` (contract-field-name)',
        'tiers lint: left overlap.md as it is: the fixes at overlap.md:1:1 and overlap.md:1:4 overlap',
        ''
      ].join('\n')
    })
  })

  // A run without fixes reports the fixed file given twice as remark does (`tiers-lint.test.ts`).
  it.concurrent('reports a file given twice after the fixes as a run without fixes does', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'a.md': cartTotal + '\n' + receipt})
    const run = await lint(cwd, ['--fix', '--no-color', 'a.md', 'a.md'])
    const left = await lint(cwd, ['--no-color', 'a.md', 'a.md'])
    expect(left.code).toBe(0)
    expect(left.stderr).toContain('a.md: no issues found\n')
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'fixed a.md:3:19: `Verify` → `verify` (verification-tier)\n' +
        'fixed a.md:4:3: `Acceptence Criteria` → `Acceptance Criteria` (contract-field-name)\n' +
        left.stderr
    })
  })
})

describe('planFixes', () => {
  /** A message at `start`–`end` (offsets on line 1) that found `actual` and expects `expected`. */
  function fixable(file: VFile, start: number, end: number, actual: string, expected: string[]) {
    const message = file.message(`Unexpected \`${actual}\``, {
      place: {start: {line: 1, column: start + 1, offset: start}, end: {line: 1, column: end + 1, offset: end}},
      ruleId: 'test'
    })
    message.actual = actual
    message.expected = expected
    return message
  }

  it('finds overlapping fixes and offers none of them', () => {
    const file = new VFile({path: 'a.md', value: 'Hello world\n'})
    fixable(file, 0, 5, 'Hello', ['Howdy'])
    fixable(file, 3, 8, 'lo wo', ['LO WO'])
    const plan = planFixes(file)
    expect(plan.overlap?.map((fix) => [fix.start, fix.end, fix.value])).toEqual([
      [0, 5, 'Howdy'],
      [3, 8, 'LO WO']
    ])
  })

  it('keeps one of two identical fixes, and skips several expected values, a stale actual and no change', () => {
    const file = new VFile({path: 'a.md', value: 'Hello world\n'})
    fixable(file, 6, 11, 'world', ['there'])
    fixable(file, 0, 5, 'Hello', ['Howdy'])
    fixable(file, 0, 5, 'Hello', ['Howdy'])
    fixable(file, 0, 5, 'Hello', ['Hi', 'Hey'])
    fixable(file, 0, 5, 'Help!', ['Hi'])
    fixable(file, 6, 11, 'world', ['world'])
    const plan = planFixes(file)
    expect(plan.overlap).toBeUndefined()
    expect(plan.fixes.map((fix) => [fix.start, fix.end, fix.value])).toEqual([
      [0, 5, 'Howdy'],
      [6, 11, 'there']
    ])
  })
})

// --fix-dry-run ---------------------------------------------------------------------

const brokenDiff = [
  '--- a/broken-contracts/CONTRACTS.md',
  '+++ b/broken-contracts/CONTRACTS.md',
  '@@ -8,7 +8,7 @@',
  ' ',
  ' **Boundary:** cartTotal(items) -> money',
  ' **Slice:** S-01',
  '-**Verification:** Verify',
  '+**Verification:** verify',
  ' **Acceptance Criteria:**',
  ' - The total includes tax for the shipping address',
  ' ',
  '@@ -28,7 +28,7 @@',
  ' ',
  ' **Boundary:** ShippingOptions component -> chosen rate',
  ' **Verification:** verify',
  '-**Acceptence Criteria:**',
  '+**Acceptance Criteria:**',
  ' - Three rates are listed, cheapest first',
  ' - The total updates when a rate is chosen',
  ' ',
  ''
].join('\n')

describe('tiers lint --fix-dry-run', {timeout: 120_000}, () => {
  it.concurrent('prints the unified diff on stdout, changes no byte on disk, and exits as without fixes', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'clean.md': clean}, {'broken-contracts': 'content/examples/broken-contracts'})
    const before = await snapshot(cwd)
    // The report of a run without fixes (remark's: `tiers-lint.test.ts`, on broken-contracts).
    const [run, unfixed] = await Promise.all([lint(cwd, ['--fix-dry-run', '--no-color']), lint(cwd, ['--no-color'])])
    expect(await snapshot(cwd)).toEqual(before)
    expect(unfixed.code).toBe(1)
    expect(unfixed.stderr).toContain('clean.md: no issues found\n')
    expect(run).toEqual({code: 1, stdout: brokenDiff, stderr: unfixed.stderr})
    // Applying the diff is what `--fix` does.
    const fixed = await lint(cwd, ['--fix', '--no-color', 'broken-contracts'])
    expect(fixed.code).toBe(0)
    const contracts = await fs.readFile(path.join(brokenContracts, 'CONTRACTS.md'), 'utf8')
    expect(await fs.readFile(path.join(cwd, 'broken-contracts', 'CONTRACTS.md'), 'utf8')).toBe(substitute(contracts, brokenFixes))
  })

  it.concurrent('prints nothing on stdout when there is nothing to fix, and keeps CRLF in the diff', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'clean.md': clean, 'crlf.md': crlf(manualTier + '\n' + cartTotal)})
    const before = await snapshot(cwd)
    const [nothing, crlfRun] = await Promise.all([
      lint(cwd, ['--fix-dry-run', '--no-color', 'clean.md']),
      lint(cwd, ['--fix-dry-run', '--no-color', '--silent', 'crlf.md'])
    ])
    expect(await snapshot(cwd)).toEqual(before)
    expect(nothing).toEqual({code: 0, stdout: '', stderr: 'clean.md: no issues found\n'})
    expect(crlfRun.code).toBe(1)
    expect(crlfRun.stdout).toBe(
      [
        '--- a/crlf.md',
        '+++ b/crlf.md',
        '@@ -6,6 +6,6 @@',
        ' \r',
        ' ### C-01: CartTotal\r',
        ' \r',
        '-**Verification:** Verify\r',
        '-**Acceptence Criteria:**\r',
        '+**Verification:** verify\r',
        '+**Acceptance Criteria:**\r',
        ' - The total includes tax\r',
        ''
      ].join('\n')
    )
  })
})

// --cache ----------------------------------------------------------------------------

interface CacheFile {
  version: number
  entries: Record<string, {content: string; environment: string; messages: Array<Record<string, unknown> & {reason: string}>}>
}

const defaultCache = path.join('.greenlight', 'tiers', '.lint-cache')

async function readCache(file: string): Promise<CacheFile> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as CacheFile
}

/** Rewrite the cache at `file`: each message of `name` (relative to `cwd`) gets its reason in capitals, which keeps the report’s columns. */
async function shoutCached(cwd: string, file: string, name: string): Promise<void> {
  const cache = await readCache(file)
  const entry = cache.entries[path.join(cwd, name)]
  expect(entry, name).toBeDefined()
  for (const message of entry?.messages ?? []) message.reason = message.reason.toUpperCase()
  await fs.writeFile(file, JSON.stringify(cache))
}

/** What the report says when the cached messages of `reasons` were shouted. */
const shout = (report: string, reasons: readonly string[]): string =>
  reasons.reduce((text, reason) => substitute(text, [[reason, reason.toUpperCase()]]), report)

const cartReasons = [
  'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
  'Unexpected field name `Acceptence Criteria` in C-01 CartTotal, expected `Acceptance Criteria`'
]
const receiptReasons = ['Unexpected vague criterion `works as expected` in C-02 Receipt, expected an observable outcome or a `-- verified by:` check']

/** Expect `cache` valid, with an entry of sha-256 digests and messages for each of `names` (relative to `cwd`). */
function expectValidCache(cache: CacheFile, cwd: string, names: readonly string[]): void {
  expect(cache.version).toBe(2)
  expect(Object.keys(cache.entries).sort()).toEqual(names.map((name) => path.join(cwd, name)).sort())
  for (const entry of Object.values(cache.entries)) {
    expect(entry.content).toMatch(/^[\da-f]{64}$/)
    expect(entry.environment).toMatch(/^[\da-f]{64}$/)
    expect(Array.isArray(entry.messages)).toBe(true)
  }
}

describe('tiers lint --cache', {timeout: 120_000}, () => {
  it.concurrent('writes the cache, reports as without it, and replays unchanged files until they or the configuration change', async () => {
    const cwd = await contractsProject()
    const cacheFile = path.join(cwd, defaultCache)
    const plain = await lint(cwd, ['--no-color'])
    expect(plain.code).toBe(1)
    await expect(fs.access(path.join(cwd, '.greenlight'))).rejects.toThrow()

    const cold = await lint(cwd, ['--cache', '--no-color'])
    expect(cold).toEqual(plain)
    expectValidCache(await readCache(cacheFile), cwd, ['contracts.md', 'more/receipt.md'])
    const warm = await lint(cwd, ['--cache', '--no-color'])
    expect(warm).toEqual(plain)

    // The warm run replays: messages edited in the cache are what it shows.
    await shoutCached(cwd, cacheFile, 'contracts.md')
    await shoutCached(cwd, cacheFile, 'more/receipt.md')
    const replayed = await lint(cwd, ['--cache', '--no-color'])
    expect(replayed).toEqual({...plain, stderr: shout(plain.stderr, [...cartReasons, ...receiptReasons])})

    // An edit of one file relints that file only.
    await fs.appendFile(path.join(cwd, 'contracts.md'), '\n')
    const edited = await lint(cwd, ['--cache', '--no-color'])
    expect(edited).toEqual({...plain, stderr: shout(plain.stderr, receiptReasons)})

    // A change of the configuration relints every file.
    await fs.writeFile(path.join(cwd, '.remarkrc.json'), JSON.stringify({plugins: [preset]}, undefined, 2) + '\n')
    const reconfigured = await lint(cwd, ['--cache', '--no-color'])
    expect(reconfigured).toEqual(plain)
    expectValidCache(await readCache(cacheFile), cwd, ['contracts.md', 'more/receipt.md'])
  })

  it.concurrent('with nothing changed, prints what the same run printed, loading no package but the cache’s reader and the names of the files rules read (no vfile, no reporter); any change runs again', async () => {
    const cwd = await contractsProject()
    const forbid = pathToFileURL(path.join(root, 'test', 'helpers', 'forbid-engine.mjs')).href
    const replayOnly = (args: readonly string[]) =>
      runProcess(process.execPath, ['--import', forbid, path.join(root, 'packages', 'cli', 'bin', 'tiers.js'), 'lint', '--list-clean', ...args], {
        cwd,
        env: {...env, TIERS_TEST_FORBID: 'replay'}
      })
    // A report on stderr, and one on stdout that exits 1: each format's own output is the lint cache's property.
    const runs = [['--no-color'], ['--format', 'github', '--frail']]
    for (const [index, args] of runs.entries()) {
      const plain = await lint(cwd, args)
      // The real bin, cold (in one format; the bin's stdout is the replays' below): what it prints and exits with is what `main` does here.
      if (index === 0) expect(await runTiers(cwd, ['lint', '--list-clean', ...args], '', env), args.join(' ')).toEqual(plain)
      // Not yet remembered: the run needs the engine and the reporters (the guard's check, once).
      if (index === 0) expect((await replayOnly(['--cache', ...args])).stderr, args.join(' ')).toContain('forbidden: ')
      expect(await lint(cwd, ['--cache', ...args]), args.join(' ')).toEqual(plain)
      expect(await replayOnly(['--cache', ...args]), args.join(' ')).toEqual(plain)
    }
    // Another option, a changed file: each is another output, not the one remembered. Every other change (new files,
    // ignore files, the baseline, configurations, settings) is the lint cache's property, in `packages/lint/test`.
    expect((await replayOnly(['--cache', '--no-color', '--silent'])).stderr).toContain('forbidden: ')
    const changes: Array<[string, () => Promise<unknown>]> = [['a changed file', () => fs.appendFile(path.join(cwd, 'more', 'receipt.md'), '\n')]]
    for (const [what, change] of changes) {
      await change()
      expect((await replayOnly(['--cache', '--no-color'])).stderr, what).toContain('forbidden: ')
      const again = await lint(cwd, ['--cache', '--no-color'])
      expect(again, what).toEqual(await lint(cwd, ['--no-color']))
      expect(await replayOnly(['--cache', '--no-color']), what).toEqual(again)
    }
  })

  it.concurrent('replays in every format', async () => {
    const cwd = await contractsProject()
    const formats = ['github', 'sarif', 'json'] as const
    const [plain, cold] = await Promise.all([
      Promise.all(formats.map((format) => lint(cwd, ['--format', format]))),
      lint(cwd, ['--cache', '--format', 'github'])
    ])
    expect(cold).toEqual(plain[0])
    expect(cold.stdout).toBe(githubReport)
    // What a run in one format cached, a run in another replays.
    const warm = await Promise.all(formats.map((format) => lint(cwd, ['--cache', '--format', format])))
    expect(warm).toEqual(plain)
  })

  const corrupt: Array<[string, (cwd: string, valid: string) => string, (cwd: string) => string]> = [
    ['not JSON', () => 'not json', () => 'not JSON'],
    ['another version', (_, valid) => JSON.stringify({...(JSON.parse(valid) as CacheFile), version: 1}), () => 'not a version 2 lint cache'],
    ['no entries', () => JSON.stringify({version: 2, entries: []}), () => 'not a version 2 lint cache'],
    [
      'an entry with a bad shape',
      (cwd, valid) => {
        const cache = JSON.parse(valid) as CacheFile
        const message = cache.entries[path.join(cwd, 'contracts.md')]?.messages[0]
        if (message) message.fatal = 'yes'
        return JSON.stringify(cache)
      },
      (cwd) => `its entry for ${path.join(cwd, 'contracts.md')} is not valid`
    ]
  ]

  // One project for every corruption, in turns: each run must rebuild exactly the cache a clean run writes.
  let clean: Promise<{cwd: string; plain: Run; valid: string}> | undefined
  const cleanRun = () =>
    (clean ??= (async () => {
      const cwd = await contractsProject()
      const plain = await lint(cwd, ['--no-color'])
      await lint(cwd, ['--cache', '--no-color'])
      return {cwd, plain, valid: await fs.readFile(path.join(cwd, defaultCache), 'utf8')}
    })())

  /**
   * A cache's content without stamps: those of the files an output was made from (a file changed within two seconds
   * of its stamp gets none, so how soon a run follows the files' writing decides them), and those the code's digest
   * was taken under (the repository's folders change as other tests write beside them). The digests stay.
   */
  const withoutStamps = (text: string): unknown => {
    const cache = JSON.parse(text) as {outputs?: Record<string, {files: Array<[string, unknown]>}>; code?: {stamps?: unknown}}
    for (const output of Object.values(cache.outputs ?? {})) output.files = output.files.map(([shown]) => [shown, null])
    if (cache.code) cache.code.stamps = null
    return cache
  }

  for (const [name, write, why] of corrupt) {
    it(`ignores and rebuilds a cache with ${name}`, async () => {
      const {cwd, plain, valid} = await cleanRun()
      const cacheFile = path.join(cwd, defaultCache)
      await fs.writeFile(cacheFile, write(cwd, valid))
      const run = await lint(cwd, ['--cache', '--no-color'])
      expect(run).toEqual({...plain, stderr: `tiers: warning: ignored the lint cache ${cacheFile} (${why(cwd)}); rebuilding it\n` + plain.stderr})
      expect(withoutStamps(await fs.readFile(cacheFile, 'utf8'))).toEqual(withoutStamps(valid))
      expect(await lint(cwd, ['--cache', '--no-color'])).toEqual(plain)
    })
  }

  it.concurrent('`--cache-location <file>` keeps the cache there; paths are from the folder linted from', async () => {
    const cwd = await contractsProject()
    const [plain, located] = await Promise.all([lint(cwd, ['--no-color']), lint(cwd, ['--cache-location', 'ci/lint.json', '--no-color'])])
    expect(located).toEqual(plain)
    const cacheFile = path.join(cwd, 'ci', 'lint.json')
    expectValidCache(await readCache(cacheFile), cwd, ['contracts.md', 'more/receipt.md'])
    await expect(fs.access(path.join(cwd, '.greenlight'))).rejects.toThrow()
    await shoutCached(cwd, cacheFile, 'contracts.md')
    expect(await lint(cwd, ['--cache-location', 'ci/lint.json', '--no-color'])).toEqual({...plain, stderr: shout(plain.stderr, cartReasons)})
    // `--cache` alone does not read it.
    expect(await lint(cwd, ['--cache', '--no-color'])).toEqual(plain)
    // From a subfolder, the default cache is below it.
    const sub = path.join(cwd, 'more')
    const inSub = await lint(sub, ['--cache', '--no-color'])
    expect(inSub.stderr).toMatch(/^receipt\.md\n/)
    expectValidCache(await readCache(path.join(sub, defaultCache)), sub, ['receipt.md'])
  })

  it.concurrent('in a spec-kit project: the cache goes to specs/tiers/, which tiers init keeps out of git; no .greenlight is made', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig, 'specs/001-cart/spec.md': '# Cart\n', 'specs/contracts.md': cartTotal})
    const tiers = (...args: string[]) => runTiersPiped(cwd, args, '', env)
    const plain = await tiers('lint', '--no-color', 'specs')
    expect(plain.code).toBe(1)
    expect(await tiers('lint', '--cache', '--no-color', 'specs')).toEqual(plain)
    expectValidCache(await readCache(path.join(cwd, 'specs', 'tiers', '.lint-cache')), cwd, ['specs/001-cart/spec.md', 'specs/contracts.md'])
    // The warm run replays what the cold one printed.
    await shoutCached(cwd, path.join(cwd, 'specs', 'tiers', '.lint-cache'), 'specs/contracts.md')
    expect(await tiers('lint', '--cache', '--no-color', 'specs')).toEqual({...plain, stderr: shout(plain.stderr, cartReasons)})
    expect((await fs.readdir(cwd)).sort()).toEqual(['.remarkrc.json', 'node_modules', 'specs'])
    expect((await tiers('init')).code).toBe(0)
    const ignored = (await fs.readFile(path.join(cwd, '.gitignore'), 'utf8')).split('\n')
    expect(ignored).toContain('specs/tiers/.lint-cache')
    expect(ignored.filter((line) => line.includes('.greenlight'))).toEqual([])
  })

  it.concurrent('never writes the cache through a symbolic link: it says so, and reports as without it', async () => {
    const cwd = await contractsProject()
    const outside = path.join(cwd, 'outside')
    await fs.mkdir(outside)
    await fs.mkdir(path.join(cwd, '.greenlight'))
    await fs.symlink(outside, path.join(cwd, '.greenlight', 'tiers'))
    const [plain, linked] = await Promise.all([lint(cwd, ['--no-color']), lint(cwd, ['--cache', '--no-color'])])
    const folder = path.join(cwd, '.greenlight', 'tiers')
    expect(linked).toEqual({
      ...plain,
      stderr: `tiers: warning: could not write the lint cache ${path.join(folder, '.lint-cache')}: ${folder}: Unexpected symbolic link, expected a real folder or file: the cache is never written through a link\n${plain.stderr}`
    })
    expect(await fs.readdir(outside)).toEqual([])
  })

  it.concurrent('with `--fix`: the fixed files are cached as fixed', async () => {
    const cwd = await contractsProject()
    const fixed = await lint(cwd, ['--cache', '--fix', '--no-color'])
    expect(fixed.code).toBe(0)
    // What a run without the cache reports on the fixed files.
    const fresh = await lint(cwd, ['--no-color'])
    expect(fresh.stderr).toContain('more/receipt.md\n')
    expect(fixed.stderr.endsWith(fresh.stderr)).toBe(true)
    expect(await lint(cwd, ['--cache', '--no-color'])).toEqual(fresh)
  })
})

// The cache and remark ------------------------------------------------------------------

describe('tiers lint --cache and remark: the example projects', {timeout: 180_000}, () => {
  const both = ['broken-contracts', 'greenlight-project/.greenlight']

  // What a run without the cache reports is the expected one: `tiers-lint.test.ts` compares it with remark's, on these projects.
  it.concurrent('cold and warm runs report as a run without the cache does; an edit relints; a corrupt cache rebuilds', async () => {
    const cwd = await project({'.remarkrc.json': presetConfig}, examples)
    const expected = (): Promise<Run> => lint(cwd, ['--no-color', ...both])
    const cached = () => lint(cwd, ['--cache', '--no-color', ...both])
    const first = await expected()
    expect(first.code).toBe(1)
    expect(await cached()).toEqual(first)
    expect(await cached()).toEqual(first)

    const contracts = path.join(cwd, 'broken-contracts', 'CONTRACTS.md')
    await fs.writeFile(contracts, substitute(await fs.readFile(contracts, 'utf8'), [brokenFixes[0]]))
    const edited = await expected()
    expect(edited.code).toBe(0)
    expect(await cached()).toEqual(edited)

    const cacheFile = path.join(cwd, defaultCache)
    await fs.writeFile(cacheFile, '{"version": 1, "entries": {')
    expect(await cached()).toEqual({...edited, stderr: `tiers: warning: ignored the lint cache ${cacheFile} (not JSON); rebuilding it\n` + edited.stderr})
    expect(await cached()).toEqual(edited)
  })

  it.concurrent('a file given twice, cold and warm', async () => {
    const cwd = await project({'.remarkrc.json': withLocalRules, 'local-rules.js': localRules, 'odd.md': 'Odd.\n', 'a.md': cartTotal})
    const args = ['--no-color', 'odd.md', 'a.md', 'odd.md', './a.md']
    const remarkRun = await remark(cwd, args)
    expect(remarkRun.stderr).toContain('odd.md: no issues found\n')
    const expected = {code: remarkRun.code, stdout: '', stderr: remarkRun.stderr}
    expect(await lint(cwd, ['--cache', ...args])).toEqual(expected)
    expect(await lint(cwd, ['--cache', ...args])).toEqual(expected)
  })
})

// The README's quick start ------------------------------------------------------------------

describe('npm run lint:examples (the README’s quick start)', {timeout: 120_000}, () => {
  it.concurrent('reports the examples plain when piped or under NO_COLOR, in colour when forced; exits 1 on the broken example’s error', async () => {
    const run = (extra: Record<string, string | undefined>) => runProcess('npm', ['run', '-s', 'lint:examples'], {cwd: root, env: {...env, ...extra}})
    const [piped, noColor, forced] = await Promise.all([run({}), run({NO_COLOR: '1'}), run({FORCE_COLOR: '1'})])
    expect({code: piped.code, stdout: piped.stdout}).toEqual({code: 1, stdout: ''})
    expect(piped.stderr).toMatch(/^content\/examples\/broken-contracts\/CONTRACTS\.md\n11:19-11:25 +error +Unexpected verification tier `Verify`/)
    expect(piped.stderr).toContain('content/examples/greenlight-project/.greenlight/CONTRACTS.md\n')
    expect(piped.stderr).not.toContain('\u001B[')
    expect(noColor).toEqual(piped)
    expect(forced.code).toBe(1)
    expect(forced.stderr).toContain('\u001B[')
    expect(forced.stderr.replace(/\u001B\[[\d;]*m/g, '')).toBe(piped.stderr)
  })
})
