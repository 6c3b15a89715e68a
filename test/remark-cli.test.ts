/**
 * End-to-end tests of the presets through the real `remark` CLI: flags,
 * exit codes, the reporter’s output, and configuration the usual remark-lint
 * way (`.remarkrc.json`, `package.json#remarkConfig`, `<!--lint disable-->`).
 *
 * Projects are written to temporary folders outside the repository, with a
 * `node_modules` symlink to the repository’s so that plugins resolve there;
 * the repository’s own `.remarkrc.json` and `.remarkignore` do not reach them.
 *
 * A run's cost is mostly remark's start, so the scenarios share runs: one
 * project holds a file or a folder for each, and each test reads its files'
 * part of the report of a run over them all (remark reports file by file).
 */
import fs from 'node:fs/promises'
import {afterAll, describe, expect, it} from 'vitest'
import {linesByFile, reportSummary} from './helpers/stylish-report.js'
import {linkedProject, remarkBin, root, runProcess} from './helpers/tiers-bin.js'

const example = 'content/examples/greenlight-project/.greenlight'
const preset = 'remark-preset-lint-verification-tiers'
const strict = 'remark-preset-lint-verification-tiers-strict'

interface Result {
  code: number | null
  stdout: string
  stderr: string
}

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Run `remark` (without colours) in `cwd`. */
function remark(args: string[], cwd = root): Promise<Result> {
  return runProcess(remarkBin, ['--no-color', ...args], {cwd, env: {NO_COLOR: '1', FORCE_COLOR: undefined}})
}

/** A temporary project with `files`, resolving plugins from the repository’s `node_modules`. */
const project = (files: Record<string, string>): Promise<string> => linkedProject(folders, 'verification-tiers-cli-', files)

const runs = new Map<string, Promise<Result>>()
/** `remark args` in `cwd`, run once for every test that asks for it. */
const remarkOnce = (args: string[], cwd = root): Promise<Result> => {
  const key = JSON.stringify([cwd, args])
  if (!runs.has(key)) runs.set(key, remark(args, cwd))
  return runs.get(key)!
}

// The example project’s `.greenlight` folder is ignored in this repository
// (`.remarkignore`), so it is linted with `--no-ignore`, as `npm run lint:examples` does.
const greenlight = (...args: string[]) => remarkOnce(['--no-config', '--no-ignore', ...args, example])

const c05 =
  '84:1-84:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint'

const greenlightReport = [`${example}/CONTRACTS.md`, c05, '', `${example}/contracts/C-06.md: no issues found`, '', '⚠ 1 warning', ''].join('\n')

/** Two criteria and a tier in the wrong case. */
const cartTotal = [
  '### C-01: CartTotal',
  '',
  '**Verification:** Verify',
  '**Acceptance Criteria:**',
  '- The total includes tax',
  '- The total is rounded to cents',
  ''
].join('\n')

/** A contract with no tier, nor criteria or steps. */
const spendHeader = '### C-05: SpendColumnHeader\n\n**Boundary:** Table header -> currency label\n'

/** Steps before Verification. */
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

/** A frontmatter contract with a tier in the wrong case. */
const exportCsv = '---\nid: C-06\ncontract: ExportCsv\nverification: Verify\nsteps:\n  - Click Export\n---\n\n# C-06: ExportCsv\n'

const cartTotalError = '3:19-3:25 error Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify` verification-tier remark-lint'

/** `.remarkrc.json` of the task: a looser count, and no tier check. */
const config = {
  plugins: [preset, ['remark-lint-acceptance-criteria-count', ['warn', {max: 1}]], ['remark-lint-verification-tier', false]]
}

const configuredLine = '6:3-6:32 warning Unexpected 2 acceptance criteria on C-01 CartTotal, expected at most 1 acceptance-criteria-count remark-lint'

const c05Criteria =
  '1:1-1:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint'
const c05Tier = (line: number) =>
  `${line}:1-${line}:28 warning Unexpected contract C-05 SpendColumnHeader without a verification tier, expected \`Verification: auto\` or \`Verification: verify\` explicit-verification-tier remark-lint`

/**
 * The shared project: at its root, no configuration and a file per
 * scenario of the presets (linted with `--no-config --use …`); in each
 * folder, a configuration file of its own and the file it is about.
 */
const scenarios: Record<string, string> = {
  'contracts.md': cartTotal,
  'C-06.md': exportCsv,
  'order.md': orderEmail,
  'spend.md': spendHeader + '\n**Steps:**\n- Open /campaigns\n',
  'disabled.md': '<!--lint disable verify-tier-criteria-->\n\n' + spendHeader,
  'enabled.md': spendHeader,
  'configured/.remarkrc.json': JSON.stringify(config),
  'configured/contracts.md': cartTotal,
  'package/package.json': JSON.stringify({name: 'contracts', private: true, remarkConfig: config}),
  'package/contracts.md': cartTotal,
  'strict-rules/.remarkrc.json': JSON.stringify({
    plugins: [strict, ['remark-lint-explicit-verification-tier', false], ['remark-lint-verify-tier-criteria', ['error']]]
  }),
  'strict-rules/spend.md': spendHeader,
  'max-warned/.remarkrc.json': JSON.stringify({plugins: [preset, ['remark-lint-acceptance-criteria-count', {max: -1}]]}),
  'max-warned/contracts.md': cartTotal,
  'max-failed/.remarkrc.json': JSON.stringify({
    plugins: [preset, ['remark-lint-acceptance-criteria-count', ['error', {max: 1.5}]], ['remark-lint-verification-tier', false]]
  }),
  'max-failed/contracts.md': cartTotal
}

let scenariosProject: Promise<string> | undefined
/** `remark args` in the shared project. */
const inScenarios = async (...args: string[]): Promise<Result> => remarkOnce(args, await (scenariosProject ??= project(scenarios)))

/** `--no-config --use <preset> .` in the shared project: every file with the preset alone. */
const withPreset = (...use: string[]) => inScenarios('--no-config', ...use.flatMap((name) => ['--use', name]), '.')

/** The folders with a configuration of their own, each file with its folder's. */
const configuredFolders = () => inScenarios('configured', 'package', 'strict-rules', 'max-warned', 'max-failed')

describe('remark CLI', () => {
  describe('the example project', () => {
    it.concurrent('reports C-05 and exits 1 with `--frail`', async () => {
      expect(await greenlight('--use', 'remark-frontmatter', '--use', preset, '--frail')).toEqual({
        code: 1,
        stdout: '',
        stderr: greenlightReport
      })
    })

    it.concurrent('reports C-05 and exits 0 without `--frail`', async () => {
      expect(await greenlight('--use', preset)).toEqual({
        code: 0,
        stdout: '',
        stderr: greenlightReport
      })
    })

    // The two runs above: the one with `--frail` also has `--use remark-frontmatter`.
    it.concurrent('reports the same with or without `--use remark-frontmatter`', async () => {
      const [alone, withFrontmatter] = await Promise.all([greenlight('--use', preset), greenlight('--use', 'remark-frontmatter', '--use', preset, '--frail')])
      expect(alone).toEqual({code: 0, stdout: '', stderr: greenlightReport})
      expect(withFrontmatter).toEqual({...alone, code: 1})
    })

    it.concurrent('reports the missing tier of C-05 too with the strict preset', async () => {
      expect(await greenlight('--use', strict)).toEqual({
        code: 0,
        stdout: '',
        stderr: [
          `${example}/CONTRACTS.md`,
          '84:1-84:28 warning Unexpected contract C-05 SpendColumnHeader without a verification tier, expected `Verification: auto` or `Verification: verify`                                                   explicit-verification-tier remark-lint',
          '84:1-84:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria       remark-lint',
          '',
          `${example}/contracts/C-06.md: no issues found`,
          '',
          '⚠ 2 warnings',
          ''
        ].join('\n')
      })
    })
  })

  describe('the presets', () => {
    it.concurrent('report an invalid tier as an error, exiting 1 without `--frail`', async () => {
      const run = await withPreset(preset)
      expect([run.code, run.stdout]).toEqual([1, ''])
      expect(linesByFile(run.stderr)['contracts.md']).toEqual(['contracts.md', cartTotalError])
      // The tier error of each CartTotal (at the root and in four folders) and of C-06.md; the
      // warning of each C-05 without steps (enabled.md, strict-rules/spend.md).
      expect(reportSummary(run.stderr)).toBe('8 messages (✖ 6 errors, ⚠ 2 warnings)')
    })

    // The preset alone finds the tier in frontmatter; that `--use remark-frontmatter` beside it changes nothing is the example project's test.
    it.concurrent('read contracts in frontmatter: the preset includes remark-frontmatter', async () => {
      const alone = await withPreset(preset)
      expect(linesByFile(alone.stderr)['C-06.md']).toEqual([
        'C-06.md',
        '4:15-4:21 error Unexpected verification tier `Verify` on C-06 ExportCsv, expected `verify` verification-tier remark-lint'
      ])
    })

    it.concurrent('print the document to stdout for a single file without errors', async () => {
      const value = '### C-02: CampaignSummaryApi\n\n**Verification:** auto\n'
      const cwd = await project({'contracts.md': value})
      expect(await remark(['--no-config', '--use', preset, 'contracts.md'], cwd)).toEqual({
        code: 0,
        stdout: value,
        stderr: 'contracts.md: no issues found\n'
      })
    })

    // A warning, not an error: `--frail` fails on it as on any warning (the example project's test).
    it.concurrent('differ in field order: only the strict preset reports it', async () => {
      const [normal, strictResult] = await Promise.all([withPreset(preset), withPreset(strict)])
      expect(linesByFile(normal.stderr)['order.md']).toEqual(['order.md: no issues found'])
      expect(linesByFile(strictResult.stderr)['order.md']).toEqual([
        'order.md',
        '7:3-7:15 warning Unexpected `Verification` after `Steps` in C-03 OrderEmail, expected `Verification` before `Steps` contract-field-order remark-lint'
      ])
    })

    it.concurrent('differ in explicit tiers: only the strict preset asks for one', async () => {
      const [normal, strictResult] = await Promise.all([withPreset(preset), withPreset(strict)])
      expect(linesByFile(normal.stderr)['spend.md']).toEqual(['spend.md: no issues found'])
      expect(linesByFile(strictResult.stderr)['spend.md']).toEqual(['spend.md', c05Tier(1)])
    })
  })

  describe('configuration', () => {
    it.concurrent('reads `.remarkrc.json`: reconfigures and turns off rules of the preset', async () => {
      const [configured, ignored] = await Promise.all([configuredFolders(), withPreset(preset)])
      // The tier check off, and the count a warning at 2 criteria (its exit code is the folders' run's).
      expect(linesByFile(configured.stderr)['configured/contracts.md']).toEqual(['configured/contracts.md', configuredLine])
      // The same file with the preset alone (`--no-config`): the tier error, and 2 criteria are fine.
      expect(linesByFile(ignored.stderr)['configured/contracts.md']).toEqual(['configured/contracts.md', cartTotalError])
    })

    it.concurrent('reads `package.json#remarkConfig`', async () => {
      const run = await configuredFolders()
      expect(linesByFile(run.stderr)['package/contracts.md']).toEqual(['package/contracts.md', configuredLine])
    })

    it.concurrent('turns the strict preset’s rules on and off in `.remarkrc.json`', async () => {
      const run = await configuredFolders()
      expect(linesByFile(run.stderr)['strict-rules/spend.md']).toEqual([
        'strict-rules/spend.md',
        '1:1-1:28 error Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint'
      ])
    })

    it.concurrent('reports an invalid `max` as a message of the rule, and goes on with the other rules', async () => {
      const run = await configuredFolders()
      expect([run.code, run.stdout]).toEqual([1, ''])
      const byFile = linesByFile(run.stderr)
      expect(byFile['max-warned/contracts.md']).toEqual([
        'max-warned/contracts.md',
        ' warning Unexpected value `-1` for `max`, expected a whole number of 0 or more acceptance-criteria-count remark-lint',
        '3:19-3:25 error Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify` verification-tier remark-lint'
      ])
      expect(byFile['max-failed/contracts.md']).toEqual([
        'max-failed/contracts.md',
        ' error Unexpected value `1.5` for `max`, expected a whole number of 0 or more acceptance-criteria-count remark-lint'
      ])
      // Nothing but the five folders' files: configured, package, strict-rules, max-warned, max-failed.
      expect(Object.keys(byFile)).toEqual([
        'configured/contracts.md',
        'max-failed/contracts.md',
        'max-warned/contracts.md',
        'package/contracts.md',
        'strict-rules/spend.md'
      ])
      expect(reportSummary(run.stderr)).toBe('6 messages (✖ 3 errors, ⚠ 3 warnings)')
    })

    it.concurrent('honours `<!--lint disable …-->` comments', async () => {
      const [normal, strictResult] = await Promise.all([withPreset(preset), withPreset(strict)])
      const byFile = linesByFile(normal.stderr)
      expect(byFile['disabled.md']).toEqual(['disabled.md: no issues found'])
      expect(byFile['enabled.md']).toEqual(['enabled.md', c05Criteria])
      // Only the rule named in the comment is off.
      const strictByFile = linesByFile(strictResult.stderr)
      expect(strictByFile['disabled.md']).toEqual(['disabled.md', c05Tier(3)])
      expect(strictByFile['enabled.md']).toEqual(['enabled.md', c05Tier(1), c05Criteria])
    })
  })

  describe('the slice graph', () => {
    // C-01 states no tier; GRAPH.md puts it in S-01, on `auto`.
    const graphProject = () =>
      linkedProject(folders, 'verification-tiers-graph-', {
        '.greenlight/CONTRACTS.md': '### C-01: PlantStore\n\n**Boundary:** Command handler -> SQLite file\n',
        '.greenlight/GRAPH.md': '## S-01: Storage\n\nVerification: auto\nContract: C-01\n'
      })
    const c01 =
      '1:1-1:21 warning Unexpected contract C-01 PlantStore without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint'

    it.concurrent('is given to the rules by the preset, or by its plugin before a rule; a rule alone reads the document alone', async () => {
      const cwd = await graphProject()
      const [alone, withGraph, withPreset] = await Promise.all([
        remark(['--no-config', '--quiet', '--use', 'remark-lint-verify-tier-criteria', '.greenlight'], cwd),
        remark(['--no-config', '--quiet', '--use', '@verification-tiers/graph/remark', '--use', 'remark-lint-verify-tier-criteria', '.greenlight'], cwd),
        remark(['--no-config', '--quiet', '--use', preset, '.greenlight'], cwd)
      ])
      expect({...alone, stderr: alone.stderr.replace(/ +/g, ' ')}).toEqual({
        code: 0,
        stdout: '',
        stderr: ['.greenlight/CONTRACTS.md', c01, '', '⚠ 1 warning', ''].join('\n')
      })
      expect(withGraph).toEqual({code: 0, stdout: '', stderr: ''})
      expect(withPreset).toEqual({code: 0, stdout: '', stderr: ''})
    })
  })
})
