/**
 * End-to-end tests of the presets through the real `remark` CLI: flags,
 * exit codes, the reporter’s output, and configuration the usual remark-lint
 * way (`.remarkrc.json`, `package.json#remarkConfig`, `<!--lint disable-->`).
 *
 * Projects are written to temporary folders outside the repository, with a
 * `node_modules` symlink to the repository’s so that plugins resolve there;
 * the repository’s own `.remarkrc.json` and `.remarkignore` do not reach them.
 */
import fs from 'node:fs/promises'
import {afterAll, describe, expect, it} from 'vitest'
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

// The example project’s `.greenlight` folder is ignored in this repository
// (`.remarkignore`), so it is linted with `--no-ignore`, as `npm run lint:examples` does.
const greenlight = (...args: string[]) => remark(['--no-config', '--no-ignore', ...args, example])

const c05 =
  '84:1-84:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint'

const greenlightReport = [
  `${example}/CONTRACTS.md`,
  c05,
  '',
  `${example}/contracts/C-06.md: no issues found`,
  '',
  '⚠ 1 warning',
  ''
].join('\n')

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

const cartTotalError =
  '3:19-3:25 error Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify` verification-tier remark-lint'

/** `.remarkrc.json` of the task: a looser count, and no tier check. */
const config = {
  plugins: [
    preset,
    ['remark-lint-acceptance-criteria-count', ['warn', {max: 1}]],
    ['remark-lint-verification-tier', false]
  ]
}

const configuredReport = [
  'contracts.md',
  '6:3-6:32 warning Unexpected 2 acceptance criteria on C-01 CartTotal, expected at most 1 acceptance-criteria-count remark-lint',
  '',
  '⚠ 1 warning',
  ''
].join('\n')

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
      expect(await greenlight('--use', 'remark-frontmatter', '--use', preset)).toEqual({
        code: 0,
        stdout: '',
        stderr: greenlightReport
      })
    })

    it.concurrent('reports the same with or without `--use remark-frontmatter`', async () => {
      const [alone, withFrontmatter] = await Promise.all([
        greenlight('--use', preset),
        greenlight('--use', 'remark-frontmatter', '--use', preset)
      ])
      expect(alone).toEqual({code: 0, stdout: '', stderr: greenlightReport})
      expect(withFrontmatter).toEqual(alone)
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
      const cwd = await project({'contracts.md': cartTotal})
      expect(await remark(['--no-config', '--use', preset, '.'], cwd)).toEqual({
        code: 1,
        stdout: '',
        stderr: ['contracts.md', cartTotalError, '', '✖ 1 error', ''].join('\n')
      })
    })

    it.concurrent('read contracts in frontmatter: the preset includes remark-frontmatter', async () => {
      const cwd = await project({'C-06.md': exportCsv})
      const expected = {
        code: 1,
        stdout: '',
        stderr: [
          'C-06.md',
          '4:15-4:21 error Unexpected verification tier `Verify` on C-06 ExportCsv, expected `verify` verification-tier remark-lint',
          '',
          '✖ 1 error',
          ''
        ].join('\n')
      }
      const [alone, withFrontmatter] = await Promise.all([
        remark(['--no-config', '--use', preset, '.'], cwd),
        remark(['--no-config', '--use', 'remark-frontmatter', '--use', preset, '.'], cwd)
      ])
      expect(alone).toEqual(expected)
      expect(withFrontmatter).toEqual(expected)
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

    it.concurrent('differ in field order: only the strict preset reports it', async () => {
      const cwd = await project({'order.md': orderEmail})
      const [normal, strictResult, strictFrail] = await Promise.all([
        remark(['--no-config', '--use', preset, '.'], cwd),
        remark(['--no-config', '--use', strict, '.'], cwd),
        remark(['--no-config', '--use', strict, '--frail', '.'], cwd)
      ])
      expect(normal).toEqual({code: 0, stdout: '', stderr: 'order.md: no issues found\n'})
      const report = [
        'order.md',
        '7:3-7:15 warning Unexpected `Verification` after `Steps` in C-03 OrderEmail, expected `Verification` before `Steps` contract-field-order remark-lint',
        '',
        '⚠ 1 warning',
        ''
      ].join('\n')
      expect(strictResult).toEqual({code: 0, stdout: '', stderr: report})
      expect(strictFrail).toEqual({code: 1, stdout: '', stderr: report})
    })

    it.concurrent('differ in explicit tiers: only the strict preset asks for one', async () => {
      const value = spendHeader + '\n**Steps:**\n- Open /campaigns\n'
      const cwd = await project({'spend.md': value})
      const [normal, strictResult] = await Promise.all([
        remark(['--no-config', '--use', preset, '.'], cwd),
        remark(['--no-config', '--use', strict, '.'], cwd)
      ])
      expect(normal).toEqual({code: 0, stdout: '', stderr: 'spend.md: no issues found\n'})
      expect(strictResult).toEqual({
        code: 0,
        stdout: '',
        stderr: [
          'spend.md',
          '1:1-1:28 warning Unexpected contract C-05 SpendColumnHeader without a verification tier, expected `Verification: auto` or `Verification: verify` explicit-verification-tier remark-lint',
          '',
          '⚠ 1 warning',
          ''
        ].join('\n')
      })
    })
  })

  describe('configuration', () => {
    it.concurrent('reads `.remarkrc.json`: reconfigures and turns off rules of the preset', async () => {
      const cwd = await project({'.remarkrc.json': JSON.stringify(config), 'contracts.md': cartTotal})
      const [configured, frail, ignored] = await Promise.all([
        remark(['.'], cwd),
        remark(['--frail', '.'], cwd),
        remark(['--no-config', '--use', preset, '.'], cwd)
      ])
      expect(configured).toEqual({code: 0, stdout: '', stderr: configuredReport})
      expect(frail).toEqual({code: 1, stdout: '', stderr: configuredReport})
      // The same file with the preset alone: the tier error, and 2 criteria are fine.
      expect(ignored).toEqual({code: 1, stdout: '', stderr: ['contracts.md', cartTotalError, '', '✖ 1 error', ''].join('\n')})
    })

    it.concurrent('reads `package.json#remarkConfig`', async () => {
      const cwd = await project({
        'package.json': JSON.stringify({name: 'contracts', private: true, remarkConfig: config}),
        'contracts.md': cartTotal
      })
      expect(await remark(['.'], cwd)).toEqual({code: 0, stdout: '', stderr: configuredReport})
    })

    it.concurrent('turns the strict preset’s rules on and off in `.remarkrc.json`', async () => {
      const cwd = await project({
        '.remarkrc.json': JSON.stringify({
          plugins: [strict, ['remark-lint-explicit-verification-tier', false], ['remark-lint-verify-tier-criteria', ['error']]]
        }),
        'spend.md': spendHeader
      })
      expect(await remark(['.'], cwd)).toEqual({
        code: 1,
        stdout: '',
        stderr: [
          'spend.md',
          '1:1-1:28 error Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint',
          '',
          '✖ 1 error',
          ''
        ].join('\n')
      })
    })

    it.concurrent('reports an invalid `max` as a message of the rule, and goes on with the other rules', async () => {
      const [warned, failed] = await Promise.all([
        project({
          '.remarkrc.json': JSON.stringify({plugins: [preset, ['remark-lint-acceptance-criteria-count', {max: -1}]]}),
          'contracts.md': cartTotal
        }),
        project({
          '.remarkrc.json': JSON.stringify({
            plugins: [preset, ['remark-lint-acceptance-criteria-count', ['error', {max: 1.5}]], ['remark-lint-verification-tier', false]]
          }),
          'contracts.md': cartTotal
        })
      ]).then((cwds) => Promise.all(cwds.map((cwd) => remark(['.'], cwd))))
      expect(warned).toEqual({
        code: 1,
        stdout: '',
        stderr: [
          'contracts.md',
          '          warning Unexpected value `-1` for `max`, expected a whole number of 0 or more      acceptance-criteria-count remark-lint',
          '3:19-3:25 error   Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify` verification-tier         remark-lint',
          '',
          '2 messages (✖ 1 error, ⚠ 1 warning)',
          ''
        ].join('\n')
      })
      expect(failed).toEqual({
        code: 1,
        stdout: '',
        stderr: [
          'contracts.md',
          ' error Unexpected value `1.5` for `max`, expected a whole number of 0 or more acceptance-criteria-count remark-lint',
          '',
          '✖ 1 error',
          ''
        ].join('\n')
      })
    })

    it.concurrent('honours `<!--lint disable …-->` comments', async () => {
      const cwd = await project({
        'disabled.md': '<!--lint disable verify-tier-criteria-->\n\n' + spendHeader,
        'enabled.md': spendHeader
      })
      const [normal, strictResult] = await Promise.all([
        remark(['--no-config', '--use', preset, '--frail', '.'], cwd),
        remark(['--no-config', '--use', strict, '.'], cwd)
      ])
      expect(normal).toEqual({
        code: 1,
        stdout: '',
        stderr: [
          'disabled.md: no issues found',
          'enabled.md',
          '1:1-1:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint',
          '',
          '⚠ 1 warning',
          ''
        ].join('\n')
      })
      // Only the rule named in the comment is off.
      expect(strictResult.code).toBe(0)
      expect(strictResult.stderr.split('\n').filter((line) => line.startsWith('3:1-3:28') || line.startsWith('1:1-1:28'))).toEqual([
        '3:1-3:28 warning Unexpected contract C-05 SpendColumnHeader without a verification tier, expected `Verification: auto` or `Verification: verify`                                                   explicit-verification-tier remark-lint',
        '1:1-1:28 warning Unexpected contract C-05 SpendColumnHeader without a verification tier, expected `Verification: auto` or `Verification: verify`                                                   explicit-verification-tier remark-lint',
        '1:1-1:28 warning Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria       remark-lint'
      ])
    })
  })
})
