/**
 * `tiers lint` against the real `remark` CLI: for every scenario both run on
 * the same temporary project with the same arguments (`tiers` through the
 * cli's `main`, in the test process; its bin in `tiers-lint-ci.test.ts`), and `tiers lint` must print byte for byte the report remark
 * prints on stderr — without colours and with them — and exit with the same
 * code.
 *
 * Projects are written to temporary folders outside the repository, with a
 * `node_modules` symlink to the repository’s so that plugins resolve there;
 * the repository’s own `.remarkrc.json` and `.remarkignore` do not reach them.
 * Where a project has no configuration file, `tiers lint` runs
 * remark-preset-lint-verification-tiers, so remark gets `--use` it.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {linesByFile, reportOn} from './helpers/stylish-report.js'
import {linkedProject, remarkBin, runProcess} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const preset = 'remark-preset-lint-verification-tiers'
const strict = 'remark-preset-lint-verification-tiers-strict'
const recommended = 'remark-preset-lint-recommended'

/** Neither bin may be forced into or out of colours by the environment. */
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined}

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Run the real `remark` CLI in `cwd`. */
function runRemark(cwd: string, args: readonly string[]): Promise<Run> {
  return runProcess(remarkBin, args, {cwd, env})
}

/** A temporary project with `files` and `copies`, resolving plugins from the repository’s `node_modules`. */
const project = (files: Record<string, string | Buffer>, copies: Record<string, string> = {}): Promise<string> =>
  linkedProject(folders, 'verification-tiers-lint-', files, copies)

interface Compared {
  /** remark’s run with `--no-color`. */
  plain: Run
  /** remark’s run with colours (its default), when `color` was asked for. */
  colored: Run | undefined
}

interface CompareOptions {
  /** Compare the coloured reports too (each run costs a second; one scenario, of every kind of line, covers colour). */
  color?: boolean
  /** remark’s arguments where they differ from tiers lint’s (default: the same). */
  remarkArgs?: readonly string[]
  /** Make stderr comparable before comparing (default: as is). */
  normalize?: (stderr: string) => string
}

/**
 * Run `remark <args> --no-color --no-stdout` and `tiers lint <args>
 * --list-clean --no-color` (and, with `color`, remark without `--no-color`
 * and tiers lint with `--color`); expect tiers
 * lint’s stderr and exit code to be remark’s, and its stdout empty. Resolves
 * to remark’s runs.
 */
async function compare(cwd: string, args: readonly string[], options: CompareOptions = {}): Promise<Compared> {
  const remarkArgs = options.remarkArgs ?? args
  const normalize = options.normalize ?? ((stderr: string) => stderr)
  // remark lists clean files and colours its report even when piped; tiers lint does so when asked.
  const tiersArgs = options.color
    ? [
        [...args, '--list-clean', '--no-color'],
        [...args, '--list-clean', '--color']
      ]
    : [[...args, '--list-clean', '--no-color']]
  const [plain, colored, ...tiersRuns] = await Promise.all([
    runRemark(cwd, [...remarkArgs, '--no-color', '--no-stdout']),
    options.color ? runRemark(cwd, [...remarkArgs, '--no-stdout']) : undefined,
    ...tiersArgs.map((each) => runTiers(cwd, ['lint', ...each], '', env))
  ])
  // Guard the guard: remark colours its report by default, also when piped.
  if (colored?.stderr.trim()) expect(colored.stderr).toContain('\u001B[')
  expect(plain.stderr).not.toContain('\u001B[')
  tiersRuns.forEach((run, index) => {
    const each = tiersArgs[index] as string[]
    const label = `tiers lint ${each.join(' ')}`
    const expected = each.includes('--no-color') ? plain : colored
    expect({stderr: normalize(run.stderr), code: run.code}, label).toEqual({stderr: normalize(expected!.stderr), code: expected!.code})
    expect(run.stdout, label).toBe('')
  })
  return {plain, colored}
}

const presetConfig = JSON.stringify({plugins: [preset]})

/** Real contract shapes, GRAPH.md projects and the evidence project. */
const shapeCopies = {'real-shapes': 'test/fixtures/real-shapes', 'graph-md': 'test/fixtures/graph-md', 'evidence-project': 'test/fixtures/evidence-project'}
/** Those and the large generated contract file (its five shapes are theirs, two hundred times). */
const fixtureCopies = {...shapeCopies, 'large-contracts.md': 'test/fixtures/large-contracts.md'}
const brokenCopy = {'broken-contracts': 'content/examples/broken-contracts'}

// Contracts -----------------------------------------------------------------

/** A tier in the wrong case: an error. */
const cartTotal = [
  '### C-01: CartTotal',
  '',
  '**Verification:** Verify',
  '**Acceptance Criteria:**',
  '- The total includes tax',
  '- The total is rounded to cents',
  ''
].join('\n')

/** Three criteria, one vague. */
const orderHistory = [
  '### C-02: OrderHistory',
  '',
  '**Verification:** verify',
  '**Acceptance Criteria:**',
  '- The list shows orders -- verified by: `npm test -- orders`',
  '- The list works as expected',
  '- The list pages by 20 -- verified by: `npm test -- paging`',
  ''
].join('\n')

/** No tier, nor criteria or steps. */
const spendHeader = '### C-05: SpendColumnHeader\n\n**Boundary:** Table header -> currency label\n'

/** Steps before Verification (the strict preset reports it). */
const orderEmail = [
  '### C-03: OrderEmail',
  '',
  '**Boundary:** order placed -> confirmation email',
  '**Steps:**',
  '- Place an order',
  '',
  '**Verification:** verify',
  ''
].join('\n')

const contracts = [cartTotal, orderHistory, spendHeader, orderEmail].join('\n')

// The example projects ----------------------------------------------------

/** The report on the example projects, with an ignored file, a missing file (in `cwd`) and a file given a second time. */
const examplesReport = (cwd: string) =>
  [
    'broken-contracts/CONTRACTS.md',
    '11:19-11:25 error   Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`                                                                                                        verification-tier            remark-lint',
    '18:1-18:25  warning Unexpected verify contract C-02 PaymentForm without acceptance criteria or steps, expected at least one criterion or step                                                         verify-tier-criteria         remark-lint',
    '24:3-24:8   warning Unexpected steps on auto contract C-03 OrderEmail, expected none as the `auto` tier ignores them, or `Verification: verify`                                                       auto-tier-ignored-fields     remark-lint',
    '31:3-31:22  warning Unexpected field name `Acceptence Criteria` in C-04 ShippingOptions, expected `Acceptance Criteria`                                                                               contract-field-name          remark-lint',
    '42:5-42:34  warning Unexpected vague criterion `works as expected` in C-05 Receipt, expected an observable outcome or a `-- verified by:` check                                                       acceptance-criteria-specific remark-lint',
    '56:3-56:34  warning Unexpected 6 acceptance criteria on C-07 OrderHistory, expected at most 5                                                                                                         acceptance-criteria-count    remark-lint',
    '66:1-66:48  warning Unexpected paragraph under `Steps` in C-08 ReturnLabel, expected a list of steps                                                                                                  contract-item-list           remark-lint',
    '',
    'broken-contracts/contracts/C-06.md',
    '6:22-6:67   warning Unexpected `acceptance_criteria` as text, expected a list                                                                                                                         contract-frontmatter         remark-lint',
    '',
    // remark lints a file given twice once, and reports it twice: its messages
    // under the first entry, `no issues found` for the second.
    'broken-contracts/contracts/C-06.md: no issues found',
    'greenlight-project/.greenlight/CONTRACTS.md',
    '84:1-84:28  warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria         remark-lint',
    '',
    'greenlight-project/.greenlight/contracts/C-06.md: no issues found',
    'missing.md',
    '            error   No such file or folder',
    '  [cause]:',
    `    Error: ENOENT: no such file or directory, stat '${path.join(cwd, 'missing.md')}'`,
    '',
    'vendor/x.md',
    '            error   Cannot process specified file: it’s ignored',
    '',
    '11 messages (✖ 3 errors, ⚠ 8 warnings)',
    ''
  ].join('\n')

describe('tiers lint and remark: the example projects', {timeout: 180_000}, () => {
  const examplesProject = () =>
    project(
      {'.remarkrc.json': presetConfig, '.remarkignore': 'vendor/\n', 'vendor/x.md': cartTotal},
      {'greenlight-project': 'content/examples/greenlight-project', 'broken-contracts': 'content/examples/broken-contracts'}
    )
  const both = ['broken-contracts', 'greenlight-project/.greenlight']

  // In the same run, with and without colours: files that cannot be linted (an ignored one given, a missing one) and a file given twice.
  it.concurrent('report the same for both projects, and for an explicitly given ignored file, a missing file and a file given twice', async () => {
    const cwd = await examplesProject()
    const {plain, colored} = await compare(cwd, [...both, 'vendor/x.md', 'missing.md', 'broken-contracts/contracts/C-06.md'], {color: true})
    expect(plain).toEqual({code: 1, stdout: '', stderr: examplesReport(cwd)})
    expect(colored?.stderr).toContain('\u001B[4m\u001B[31mbroken-contracts/CONTRACTS.md\u001B[39m\u001B[24m\n')
  })

  // `--quiet` is compared on `.` in the test files' project (which files).
  it.concurrent('report the same with `--silent`', async () => {
    const cwd = await examplesProject()
    const {plain} = await compare(cwd, ['--silent', ...both])
    expect(plain).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'broken-contracts/CONTRACTS.md',
        '11:19-11:25 error Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify` verification-tier remark-lint',
        '',
        '✖ 1 error',
        ''
      ].join('\n')
    })
  })

  // Without `--frail`, warnings only exit 0 as in remark: `a single \`.markdown\` file` (which files).
  it.concurrent('exit the same with `--frail` on warnings only', async () => {
    const cwd = await examplesProject()
    const {plain} = await compare(cwd, ['--frail', 'greenlight-project/.greenlight'])
    expect(plain).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'greenlight-project/.greenlight/CONTRACTS.md',
        '84:1-84:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint',
        '',
        'greenlight-project/.greenlight/contracts/C-06.md: no issues found',
        '',
        '⚠ 1 warning',
        ''
      ].join('\n')
    })
  })
})

// This repository's fixtures ----------------------------------------------

describe('tiers lint and remark: the test fixtures', {timeout: 180_000}, () => {
  // Real contract shapes, GRAPH.md projects, the large generated contract file (with the preset) and the evidence project.
  it.concurrent('report the same, with the preset and with the strict preset', async () => {
    const {plain} = await eachFolderItsConfiguration()
    // Colours are compared on the example projects; here, the reports of many shapes.
    const preset = reportOn(plain.stderr, 'fixtures-preset')
    const strictReport = reportOn(plain.stderr, 'fixtures-strict')
    expect(preset).toMatch(/ error /)
    expect(preset).toContain('fixtures-preset/large-contracts.md\n')
    expect(preset).toContain('fixtures-preset/real-shapes/')
    expect(strictReport).toContain('fixtures-strict/real-shapes/')
    expect(strictReport).toMatch(/ explicit-verification-tier /)
    expect(strictReport.replaceAll('fixtures-strict/', 'fixtures-preset/')).not.toBe(preset)
  })
})

// Configuration -----------------------------------------------------------

describe('tiers lint and remark: configuration', {timeout: 180_000}, () => {
  it.concurrent('the strict preset', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'strict')
    expect(report).toContain('contract-field-order')
    expect(report).toContain('explicit-verification-tier')
    expect(report).toContain('strict/broken-contracts/')
  })

  it.concurrent('the preset with remark-preset-lint-recommended: files without contracts are linted too', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'recommended')
    expect(report).toContain('final-newline')
    expect(report).toContain('recommended/notes/prose.md\n')
  })

  it.concurrent('rule options and a rule turned off', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'options')
    expect(report).toContain('expected at most 2')
    expect(report).not.toContain('verification-tier ')
    // Warnings only: alone, the folder's run exits 0.
    expect(report).not.toMatch(/ error /)
    expect(report).toMatch(/ warning /)
  })

  it.concurrent('`package.json#remarkConfig`', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'package-json')
    expect(report).toContain('explicit-verification-tier')
  })

  it.concurrent('`--rc-path`, beside a `.remarkrc.json`', async () => {
    const cwd = await project(
      {
        '.remarkrc.json': presetConfig,
        'config/lint.json': JSON.stringify({plugins: [strict, ['remark-lint-acceptance-criteria-count', ['error', {max: 1}]]]}),
        'contracts.md': contracts
      },
      brokenCopy
    )
    const [{plain}] = await Promise.all([
      compare(cwd, ['--rc-path', 'config/lint.json', '.']),
      compare(cwd, ['--rc-path', 'config/lint.json', '--no-config', '.'])
    ])
    expect(plain.stderr).toContain('expected at most 1')
  })

  it.concurrent('`--no-config`: tiers lint runs the preset, remark `--use`s it', async () => {
    const cwd = await project(
      {'.remarkrc.json': JSON.stringify({plugins: [recommended, strict]}), 'contracts.md': contracts, 'README.md': 'No final newline'},
      brokenCopy
    )
    const {plain} = await compare(cwd, ['--no-config', '.'], {remarkArgs: ['--no-config', '--use', preset, '.']})
    expect(plain.stderr).not.toContain('final-newline')
    expect(plain.stderr).toContain('README.md: no issues found')
  })
})

// Which files ------------------------------------------------------------

describe('tiers lint and remark: which files', {timeout: 180_000}, () => {
  const files = {
    '.remarkrc.json': presetConfig,
    '.remarkignore': 'vendor/\n',
    '.lintignore': 'docs/b.markdown\n',
    'README.md': '# Project\n\nNothing to see.\n',
    'contracts.md': contracts,
    'docs/a.md': cartTotal,
    'docs/b.markdown': orderHistory,
    'docs/c.mdown': spendHeader,
    'docs/notes.txt': cartTotal,
    'docs/deep/d.md': orderEmail,
    'drafts/e.md': cartTotal,
    'vendor/x.md': cartTotal,
    '.greenlight/CONTRACTS.md': spendHeader,
    '.greenlight/clean.md': '# Clean\n'
  }

  it.concurrent('`.` with `.remarkignore`, and `-q`', async () => {
    const cwd = await project(files)
    const {plain} = await compare(cwd, ['-q', '.'])
    expect(plain.stderr).toContain('docs/b.markdown\n')
    expect(plain.stderr).toContain('docs/c.mdown\n')
    expect(plain.stderr).not.toContain('vendor/')
    expect(plain.stderr).not.toContain('notes.txt')
    // `.` takes in the hidden `.greenlight` folder; `--quiet` leaves out the files without messages.
    expect(plain.stderr).toContain('.greenlight/CONTRACTS.md\n')
    expect(plain.stderr).not.toContain('no issues found')
  })

  // `--ignore-path` and `--ignore-pattern` in one run: each leaves out its own files.
  it.concurrent('`--ignore-pattern` and `--ignore-path`', async () => {
    const cwd = await project(files)
    const {plain} = await compare(cwd, ['--ignore-pattern', 'drafts/**', '--ignore-path', '.lintignore', '--ignore-pattern', 'docs/deep/**,README.md', '.'])
    expect(plain.stderr).not.toContain('drafts/')
    expect(plain.stderr).not.toContain('README.md')
    expect(plain.stderr).not.toContain('docs/b.markdown')
    expect(plain.stderr).toContain('docs/c.mdown\n')
    // `--ignore-path` replaces `.remarkignore`, which is not read then.
    expect(plain.stderr).toContain('vendor/x.md\n')
  })

  it.concurrent('globs, a folder, explicit files; `--no-ignore`', async () => {
    const cwd = await project(files)
    const [glob, given] = await Promise.all([compare(cwd, ['**/*.md']), compare(cwd, ['--no-ignore', 'docs', 'contracts.md', 'docs/notes.txt', 'vendor'])])
    expect(glob.plain.stderr).not.toContain('b.markdown')
    expect(glob.plain.stderr).toMatch(/^vendor\/x\.md\n +error +Cannot process specified file: it’s ignored$/m)
    expect(given.plain.stderr).toContain('docs/b.markdown\n')
    expect(given.plain.stderr).toContain('docs/notes.txt\n')
    // Not ignored, though `.remarkignore` names it.
    expect(given.plain.stderr).toMatch(/^vendor\/x\.md\n3:19-3:25 +error +Unexpected verification tier/m)
  })

  // Warnings only: without `--frail`, exit 0 as in remark.
  it.concurrent('a single `.markdown` file', async () => {
    const cwd = await project(files)
    const {plain} = await compare(cwd, ['docs/b.markdown'])
    expect(plain.code).toBe(0)
    expect(plain.stderr).toMatch(/^docs\/b\.markdown\n.* warning /)
  })
})

// Files without contracts -------------------------------------------------

const withoutContracts = {
  'README.md': '# A project\n\nIt has a readme, in *plain* prose, and `code`.\n\n## Usage\n\n```sh\nnpm test\n```\n',
  'prose.md': 'Just a paragraph\nover two lines.\n',
  'empty.md': '',
  'blank.md': '\n\n   \n',
  'disable-line.md': 'Some text. <!-- lint disable-line foo -->\n\n<!-- lint disable-line foo -->\n',
  'bad-comment.md': '# Title\n\n<!--lint nope-->\n\n<!--lint enable-->\n',
  'bad-frontmatter.md': '---\nid: [C-01\ncontract: "unclosed\n---\n',
  'frontmatter-only.md': '---\ntitle: A page\n---\n',
  'crlf-frontmatter.md': '---\r\nid: C-09\r\ncontract: Crlf\r\nverification: Auto\r\n---\r\n',
  'bom.md': '\uFEFFA file with a byte order mark.\n',
  'mentions.md': 'Prose about a contract, and about C-3PO, but no contract.\n'
}

describe('tiers lint and remark: files without contracts', {timeout: 180_000}, () => {
  it.concurrent('with the preset in `.remarkrc.json`', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'no-contracts')
    expect(report).toContain('no-contracts/README.md: no issues found\n')
    expect(report).toContain('no-contracts/bad-comment.md\n')
    expect(report).toContain('no-contracts/bad-frontmatter.md\n')
    expect(report).toContain('contract-frontmatter')
  })

  // A file given alone is compared in `a single \`.markdown\` file` (which files): the same paths to the engine.
  it.concurrent('without a configuration file', async () => {
    const cwd = await project(withoutContracts)
    const {plain} = await compare(cwd, ['.'], {remarkArgs: ['--use', preset, '.']})
    expect(plain.stderr).toContain('bad-comment.md\n')
  })
})

// Documents beyond plain paragraphs and lists -------------------------------

const crlf = (text: string) => text.replace(/\n/g, '\r\n')

const outside: Record<string, string> = {
  // Without remark-gfm a table is a paragraph.
  'table.md': cartTotal + '\n| Field | Value |\n| ----- | ----- |\n| tier  | `Verify` |\n\n' + orderHistory,
  'quote.md': '> ' + cartTotal.split('\n').join('\n> ') + '\n\n' + spendHeader,
  'setext.md': 'Contracts\n=========\n\nSlice one\n---------\n\n' + cartTotal + '\n***\n\n' + orderEmail,
  'crlf.md': crlf(contracts),
  'cr.md': contracts.replace(/\n/g, '\r'),
  'bom.md': '\uFEFF' + contracts,
  'bom-frontmatter.md': '\uFEFF---\nid: C-06\ncontract: ExportCsv\nverification: Verify\nsteps:\n  - Click Export\n---\n\n# C-06: ExportCsv\n',
  'tabs.md': cartTotal.replace('**Verification:**', '**Verification:**\t') + '\n\tindented code\n\n-\tThe tab item\n',
  'nested.md':
    orderHistory.replace('- The list works as expected', '- The list works as expected\n  - nested one\n    - nested two\n\n  loose') + '\n' + spendHeader,
  'html.md': '<div>\n\n' + cartTotal + '\n</div>\n\n' + spendHeader,
  'code.md': '    indented code\n\n' + cartTotal + '\n~~~\n### C-09: NotAContract\n~~~\n',
  'escapes.md': cartTotal.replace('tax', 'tax \\& _fees_ &amp; <b>more</b>') + '\nSee ![alt](img.png "title") and <https://example.com>.\n',
  'directive.md': ':::note{.wide}\n' + cartTotal + ':::\n\nSee :abbr[C-01]{title="CartTotal"}.\n\n' + spendHeader,
  // Large, with CRLF, tables and quotes.
  'large.md': crlf(
    Array.from(
      {length: 120},
      (_, index) =>
        `## S-${index}: Slice ${index}\n\n` +
        cartTotal.replace('C-01: CartTotal', `C-${index}: CartTotal${index}`) +
        '\n| a | b |\n| - | - |\n| 1 | 2 |\n\n> quoted\nlazy\n\n' +
        (index % 3 === 0 ? spendHeader : orderHistory)
    ).join('\n')
  )
}

describe('tiers lint and remark: documents beyond the plain subset', {timeout: 180_000}, () => {
  it.concurrent('with the preset', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'beyond')
    for (const name of Object.keys(outside)) expect(report).toContain(`beyond/${name}\n`)
  })

  // A syntax extension other than frontmatter, and files without contracts.
  it.concurrent('with remark-preset-lint-recommended, the strict preset and a directive syntax plugin', async () => {
    const report = reportOn((await eachFolderItsConfiguration()).plain.stderr, 'beyond-directive')
    expect(report).toContain('list-item-indent')
    expect(report).toContain('beyond-directive/no-contract.md\n')
  })
})

// Each folder with its configuration, in one run ------------------------------

/**
 * The `[cause]` stacks of a configuration that cannot be read name the files
 * of the code that threw: leave out their `at …` frames, keep every other line.
 */
const frames = (stderr: string) => stderr.replace(/^ *at .*\n/gm, '')

/**
 * Scenarios that differ only in their configuration file, each in a folder
 * of its own: `.` lints them all in one run of remark and one of tiers lint
 * (a run's cost is mostly remark's start), each file with the nearest
 * configuration, its folder's, as remark finds it. Each scenario's test
 * reads its folder's part of the report (`reportOn`).
 */
const folderScenarios: Record<string, {files: Record<string, string>; copies?: Record<string, string>}> = {
  'fixtures-preset': {files: {'.remarkrc.json': presetConfig}, copies: fixtureCopies},
  // The large file with the preset only: its size is the point there, and the strict rules' report is the shapes'.
  'fixtures-strict': {files: {'.remarkrc.json': JSON.stringify({plugins: [strict]})}, copies: shapeCopies},
  strict: {files: {'.remarkrc.json': JSON.stringify({plugins: [strict]}), 'contracts.md': contracts}, copies: brokenCopy},
  recommended: {
    files: {
      '.remarkrc.json': JSON.stringify({plugins: [recommended, preset]}),
      'contracts.md': contracts,
      'README.md': '# Readme\n\n* a list\n* with `*` markers\n\nA [dangling reference][nowhere].\n\nNo final newline',
      'notes/prose.md': 'Some prose,  with two spaces,\nand an ![image]( url ) and a [link][].\n\n[link]: https://example.com\n[unused]: https://example.com\n'
    },
    copies: brokenCopy
  },
  options: {
    files: {
      '.remarkrc.json': JSON.stringify({plugins: [preset, ['remark-lint-acceptance-criteria-count', [1, {max: 2}]], ['remark-lint-verification-tier', false]]}),
      'contracts.md': contracts
    },
    copies: brokenCopy
  },
  'package-json': {
    files: {
      'package.json': JSON.stringify({name: 'contracts', private: true, remarkConfig: {plugins: [strict, ['remark-lint-verification-tier', false]]}}),
      'contracts.md': contracts
    },
    copies: brokenCopy
  },
  'no-contracts': {files: {...withoutContracts, '.remarkrc.json': presetConfig}},
  beyond: {files: {...outside, '.remarkrc.json': presetConfig}},
  'broken-config': {files: {'.remarkrc.json': '{"plugins": [', 'a.md': cartTotal, 'b.md': 'Prose.\n'}},
  'beyond-directive': {
    files: {
      ...outside,
      'no-contract.md': 'Plain prose\n\n*   with a list\n',
      'directive.js': [
        "import {directive} from 'micromark-extension-directive'",
        "import {directiveFromMarkdown} from 'mdast-util-directive'",
        'export default function remarkDirectiveSyntax() {',
        '  const data = this.data()',
        '  ;(data.micromarkExtensions ??= []).push(directive())',
        '  ;(data.fromMarkdownExtensions ??= []).push(directiveFromMarkdown())',
        '}',
        ''
      ].join('\n'),
      '.remarkrc.json': JSON.stringify({plugins: [recommended, strict, './directive.js']})
    }
  }
}

let folderRun: Promise<Compared> | undefined
/** tiers lint and remark on every folder of `folderScenarios`, compared once; remark's runs. */
const eachFolderItsConfiguration = (): Promise<Compared> =>
  (folderRun ??= (async () => {
    const files: Record<string, string> = {}
    const copies: Record<string, string> = {}
    for (const [folder, scenario] of Object.entries(folderScenarios)) {
      for (const [name, value] of Object.entries(scenario.files)) files[`${folder}/${name}`] = value
      for (const [into, from] of Object.entries(scenario.copies ?? {})) copies[`${folder}/${into}`] = from
    }
    const cwd = await project(files, copies)
    const compared = await compare(cwd, ['.'], {normalize: frames})
    // Every folder is in the report: none was left out of the run.
    for (const folder of Object.keys(folderScenarios)) expect(reportOn(compared.plain.stderr, folder), folder).not.toBe('')
    return compared
  })())

// Broken configuration ----------------------------------------------------

describe('tiers lint and remark: a `.remarkrc.json` that is not JSON', {timeout: 180_000}, () => {
  // In a folder of the run of every configuration; colours of a fatal message and its cause are the ignored and missing files' (the example projects).
  it.concurrent('report a fatal error for each file', async () => {
    const {plain} = await eachFolderItsConfiguration()
    expect(plain.code).toBe(1)
    // Columns padded to the widest of the whole report: runs of spaces as one.
    const byFile = linesByFile(plain.stderr)
    for (const name of ['broken-config/a.md', 'broken-config/b.md']) {
      expect(byFile[name]?.slice(0, 4), name).toEqual([
        name,
        ' error Cannot process file',
        ' [cause]:',
        ' Error: Cannot parse file `broken-config/.remarkrc.json`'
      ])
    }
    expect(frames(reportOn(plain.stderr, 'broken-config'))).toContain('  [cause]:\n    JSONError: Unexpected end of JSON input')
  })
})

// Usage -----------------------------------------------------------------------

describe('tiers lint: usage', () => {
  it.concurrent('`--help` prints usage on stdout', async () => {
    const cwd = await project({})
    const [help, short, tiersHelp] = await Promise.all([runTiers(cwd, ['lint', '--help']), runTiers(cwd, ['lint', '-h']), runTiers(cwd, ['--help'])])
    expect(help.code).toBe(0)
    expect(help.stderr).toBe('')
    expect(help.stdout).toMatch(/^Usage: tiers lint/)
    expect(short).toEqual(help)
    expect(tiersHelp.code).toBe(0)
    expect(tiersHelp.stdout).toMatch(/^ {2}lint \[paths…\] /m)
  })

  it.concurrent('bad options: one line on stderr, exit 1', async () => {
    const cwd = await project({'a.md': cartTotal})
    const runs = await Promise.all([
      runTiers(cwd, ['lint', '--format', 'xml']),
      runTiers(cwd, ['lint', '--fix-dry-run', '--format', 'json']),
      runTiers(cwd, ['lint', '--bogus']),
      runTiers(cwd, ['lint', '--rc-path'])
    ])
    expect(runs[0]?.stderr).toBe('tiers: Unexpected `--format xml`, expected one of stylish, github, sarif, junit, json\n')
    expect(runs[1]?.stderr).toBe('tiers: Unexpected `--fix-dry-run` with `--format json`, expected one of them\n')
    for (const run of runs) {
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(/^tiers: [^\n]+\n$/)
    }
    expect(runs[2]?.stderr).toMatch(
      /^tiers: Unexpected option `--bogus`, expected one of --frail, --max-warnings, --list-clean, -q\/--quiet, -S\/--silent, --color, --no-color, [^\n]*, -h\/--help \(see tiers lint --help\)\n$/
    )
    expect(runs[3]?.stderr).toBe('tiers: Unexpected `--rc-path` without a value, expected `--rc-path <file>` (see tiers lint --help)\n')
  })
})
