/**
 * The packages as a user installs them: every workspace package packed with
 * `npm pack`, the tarballs installed with `npm ci --offline` into a fresh
 * project under the OS temp folder (outside the repository, so nothing
 * resolves from its node_modules), with remark-cli beside them. There, on a
 * copy of the example project: `tiers init`, `remark` with each preset,
 * `tiers status`, `verify`, `checkpoint` and `lint`, and `generate-protocol`
 * with the project's threshold. Slow (a pack and an install): it has its own file.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {consumerEnvChanges, installOffline, packWorkspaces, writeConsumer} from './helpers/outside-install.js'
import type {Packed} from './helpers/outside-install.js'
import {exampleWarning, root as repo, runProcess} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'

/** What a user adds to a project: the CLI, both presets, the generator, and remark's own CLI. */
const direct = ['@verification-tiers/cli', '@verification-tiers/generate-protocol', 'remark-preset-lint-verification-tiers', 'remark-preset-lint-verification-tiers-strict']
const tools = ['remark-cli']

let consumer = ''
let packed: Packed[] = []
let init: Run | undefined

beforeAll(async () => {
  consumer = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-outside-install-')))
  const started = performance.now()
  packed = await packWorkspaces(repo, consumer)
  const packedAt = performance.now()
  await writeConsumer(repo, consumer, packed, direct, tools)
  await installOffline(consumer)
  const installedAt = performance.now()
  console.info(
    `outside install: packed ${packed.length} packages in ${((packedAt - started) / 1000).toFixed(1)} s, installed offline in ${((installedAt - packedAt) / 1000).toFixed(1)} s`
  )

  // The example project, with a threshold of its own, set up as the README says: `npx tiers init`.
  await fs.cp(path.join(repo, 'content/examples/greenlight-project/.greenlight'), path.join(consumer, '.greenlight'), {recursive: true})
  await fs.rm(path.join(consumer, '.greenlight/tiers'), {recursive: true, force: true})
  const configFile = path.join(consumer, '.greenlight/config.json')
  const config = JSON.parse(await fs.readFile(configFile, 'utf8')) as {workflow: Record<string, unknown>}
  config.workflow.rejection_threshold = 5
  await fs.writeFile(configFile, JSON.stringify(config, null, 2) + '\n')
  init = await bin('tiers', 'init')
}, 600_000)

afterAll(async () => {
  if (consumer) await fs.rm(consumer, {recursive: true, force: true})
})

/** Run an installed bin in the consumer, without colours. */
function bin(name: string, ...args: string[]): Promise<Run> {
  return runProcess(path.join(consumer, 'node_modules', '.bin', name), args, {
    cwd: consumer,
    env: {...consumerEnvChanges(), NO_COLOR: '1', FORCE_COLOR: undefined, TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined}
  })
}

const deprecated =
  exampleWarning

const c05Criteria =
  'Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto`'
const c05Tier = 'Unexpected contract C-05 SpendColumnHeader without a verification tier, expected `Verification: auto` or `Verification: verify`'

/** remark's report of the example project with the preset. */
const presetReport = [
  '.greenlight/CONTRACTS.md',
  `84:1-84:28 warning ${c05Criteria} verify-tier-criteria remark-lint`,
  '',
  '.greenlight/contracts/C-06.md: no issues found',
  '',
  '⚠ 1 warning',
  ''
].join('\n')

describe('installed from the packed tarballs, outside the repository', () => {
  it('every package resolves inside the fresh project, as a copy, not the workspace', async () => {
    expect(path.relative(repo, consumer).startsWith('..')).toBe(true)
    for (let dir = path.dirname(consumer); ; dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules')), `${dir}/node_modules would be found from the project`).toBe(false)
      if (dir === path.dirname(dir)) break
    }
    const installed = await Promise.all(
      packed.map(async (pkg) => {
        const folder = path.join(consumer, 'node_modules', pkg.name)
        const manifest = JSON.parse(await fs.readFile(path.join(folder, 'package.json'), 'utf8')) as {version: string}
        return {name: pkg.name, symlink: (await fs.lstat(folder)).isSymbolicLink(), version: manifest.version}
      })
    )
    expect(installed).toEqual(packed.map((pkg) => ({name: pkg.name, symlink: false, version: pkg.manifest.version})))
    const script = `for (const name of ${JSON.stringify(direct)}) console.log(import.meta.resolve(name))`
    const resolved = await runProcess(process.execPath, ['--input-type=module', '-e', script], {cwd: consumer})
    expect(resolved.stderr).toBe('')
    for (const url of resolved.stdout.trim().split('\n')) expect(url.startsWith(`file://${consumer}/node_modules/`), url).toBe(true)
  })

  it('tiers init adds the preset to the remark configuration and the Stop hook', async () => {
    expect(init).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'created .remarkrc.json: lints markdown with remark-preset-lint-verification-tiers',
        'created .claude/settings.json: the agent’s Stop hook runs `npx tiers stop-hook`',
        'created .gitignore: ignores 5 caches and local state files',
        'note: commit .greenlight/tiers/<slice>.json (each slice’s answers and history); the contracts cache, the last verification run on this machine, the Stop hook’s count of blocked stops, locks held while a command writes and the lint cache stay out of git',
        ''
      ].join('\n')
    })
    expect(JSON.parse(await fs.readFile(path.join(consumer, '.remarkrc.json'), 'utf8'))).toEqual({plugins: ['remark-preset-lint-verification-tiers']})
  })

  it('remark with the preset, from the .remarkrc.json tiers init wrote: the report, exit 0, and 1 with --frail', async () => {
    expect(await bin('remark', '--no-color', '.greenlight')).toEqual({code: 0, stdout: '', stderr: presetReport})
    expect(await bin('remark', '--no-color', '--frail', '.greenlight')).toEqual({code: 1, stdout: '', stderr: presetReport})
  })

  it('remark with the strict preset also asks C-05 for an explicit tier', async () => {
    const result = await bin('remark', '--no-color', '--no-config', '--use', 'remark-preset-lint-verification-tiers-strict', '.greenlight')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    // The reporter pads the messages to one width: compare without the padding.
    expect(result.stderr.split('\n').map((line) => line.replace(/ {2,}/g, ' '))).toEqual([
      '.greenlight/CONTRACTS.md',
      `84:1-84:28 warning ${c05Tier} explicit-verification-tier remark-lint`,
      `84:1-84:28 warning ${c05Criteria} verify-tier-criteria remark-lint`,
      '',
      '.greenlight/contracts/C-06.md: no issues found',
      '',
      '⚠ 2 warnings',
      ''
    ])
  })

  it('tiers status shows the project’s threshold of 5', async () => {
    expect(await bin('tiers', 'status')).toEqual({
      code: 0,
      stdout: [
        'S-01 Campaign Cards: verify, 0/5 rejections, undecided, next: checkpoint',
        'S-02 Currency Formatting: verify, 0/5 rejections, undecided, next: checkpoint; nothing to check in C-05 SpendColumnHeader (verify, no acceptance criteria or steps)',
        ''
      ].join('\n'),
      stderr: deprecated
    })
  })

  it('tiers checkpoint waits for a passing run, then shows the slice’s criteria and steps', async () => {
    const missing = await bin('tiers', 'checkpoint', 'S-01')
    expect(missing).toEqual({
      code: 1,
      stdout: [
        'VERIFICATION MISSING — Slice S-01: Campaign Cards',
        '',
        'No verification run is recorded for this slice: the checkpoint opens only',
        'on a passing run.',
        '',
        'Run `tiers verify S-01`, then `tiers checkpoint S-01` again.',
        ''
      ].join('\n'),
      stderr: deprecated
    })

    // The project's test command (`npm test`, here `node --version`) passes; the criteria are for a human.
    const verified = await bin('tiers', 'verify', 'S-01')
    expect(verified.code).toBe(0)
    expect(verified.stdout).toContain('\nSummary: 2/2 automated checks pass, 5 for a human to check\n')

    expect(await bin('tiers', 'checkpoint', 'S-01')).toEqual({
      code: 0,
      stdout: [
        'ALL TESTS PASSING — Slice S-01: Campaign Cards',
        '',
        'Please verify the output matches your intent.',
        '',
        'Acceptance criteria:',
        '  [ ] Campaigns render as cards in a 3-column grid on a 1280px wide screen',
        '  [ ] Each card shows the campaign name, its status and its spend',
        '  [ ] Clicking a card opens /campaigns/{id}',
        '  [ ] A paused campaign shows a grey "Paused" badge',
        '  [ ] A live campaign shows a green "Live" badge',
        '',
        'Steps to verify:',
        '  1. Run `npm run dev` and open http://localhost:3000/campaigns',
        '  2. Resize the window to 1280px wide and count the columns',
        '  3. Open /campaigns and pause one campaign',
        '',
        'Does this match what you intended?',
        '  1) Yes — mark complete and continue',
        "  2) No — I'll describe what's wrong",
        "  3) Partially — some criteria met, I'll describe the gaps",
        ''
      ].join('\n'),
      stderr: deprecated
    })
  })

  it('tiers lint reports as remark does, with the project’s configuration', async () => {
    expect(await bin('tiers', 'lint', '--list-clean', '--no-color', '.greenlight')).toEqual({code: 0, stdout: '', stderr: presetReport})
    expect(await bin('tiers', 'lint', '--list-clean', '--no-color', '--frail', '.greenlight')).toEqual({code: 1, stdout: '', stderr: presetReport})
  })

  it('generate-protocol renders the project’s docs with its threshold, and --check passes', async () => {
    expect(await bin('generate-protocol', '--project', '.', '--out', 'docs/agents')).toEqual({
      code: 0,
      stdout: [
        'wrote docs/agents/CLAUDE.md (8/10 lines)',
        'wrote docs/agents/references/checkpoint-protocol.md (99/120 lines)',
        'wrote docs/agents/references/verification-tiers.md (150/151 lines)',
        ''
      ].join('\n'),
      stderr: ''
    })
    const doc = (await fs.readFile(path.join(consumer, 'docs/agents/references/verification-tiers.md'), 'utf8')).split('\n')
    expect(doc[0]).toBe(
      '<!-- Generated by generate-protocol from @verification-tiers/generate-protocol/templates/references/verification-tiers.md.hbs with the settings of .greenlight/config.json: run it again instead of editing this file. -->'
    )
    expect(doc).toContain('At 5 rejections of one slice, stop looping and escalate:')
    expect(doc).toContain('This slice has been rejected 5 times. The verification criteria may not match')
    expect(await bin('generate-protocol', '--project', '.', '--out', 'docs/agents', '--check')).toEqual({code: 0, stdout: 'generate-protocol: up to date\n', stderr: ''})
  })
})
