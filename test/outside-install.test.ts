/**
 * The packages as a user installs them, by the README's own commands: every
 * `sh` block of README.md that uses the release set (`npm run pack:release`,
 * `release/…`) is run line by line, in document order, in a fresh folder
 * under the OS temp folder (outside the repository, so nothing resolves
 * from its node_modules) that holds `my-project`, the user's project. So an
 * edit of those blocks changes what this test runs.
 *
 * Two lines stand for what a test cannot do: `git clone <url>` (the URL must
 * be the repository's) makes `verification-tiers` a link to this checkout,
 * and `npm ci` there is skipped, as this checkout is installed and built
 * already (the tests run on it). Every other line runs as written, with
 * `/bin/sh` (so `npm run pack:release` writes this checkout's `release/`).
 * npm's registry is the loopback registry of what the
 * repository's lockfile locks (`startLockRegistry`): no network, and no
 * package of this repository on it, as on npm today.
 *
 * Then, in `my-project`, on a copy of the example project with a threshold of
 * its own: `tiers --version`, `init`, `status`, `checkpoint`, `verify` and
 * `lint`, remark with each preset, and `generate-protocol`. Slow (a pack and
 * installs): it has its own file.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {visit} from 'unist-util-visit'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {workspaceFolders} from '../scripts/workspaces.mjs'
import {installEnv, startLockRegistry} from './helpers/outside-install.js'
import type {LockRegistry} from './helpers/outside-install.js'
import {exampleWarning, root as repo, runProcess} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'

/** The packages of this repository, by name. */
const internal = async (): Promise<Map<string, string>> => {
  const names = new Map<string, string>()
  for (const folder of await workspaceFolders(repo)) {
    const manifest = JSON.parse(await fs.readFile(path.join(repo, folder, 'package.json'), 'utf8')) as {name: string; version: string}
    names.set(manifest.name, manifest.version)
  }
  return names
}

/** The lines of README.md's `sh` blocks that use the release set, in order. */
async function readmeReleaseCommands(): Promise<string[]> {
  const tree = unified()
    .use(remarkParse)
    .parse(await fs.readFile(path.join(repo, 'README.md'), 'utf8'))
  const lines: string[] = []
  visit(tree, 'code', (node) => {
    if (node.lang !== 'sh' || !/pack:release|\brelease\//.test(node.value)) return
    for (const line of node.value.split('\n')) if (line.trim() !== '' && !line.trim().startsWith('#')) lines.push(line.trim())
  })
  return lines
}

let home = ''
let project = ''
let registry: LockRegistry | undefined
let env: Record<string, string | undefined> = {}
let versions = new Map<string, string>()
/** Each README line and what it did, in order. */
const ran: Array<{line: string; run: Run | 'linked' | 'skipped' | 'cd'}> = []

/** Run one README line in `cwd`; `cd` returns the new folder. */
async function runReadmeLine(line: string, cwd: string): Promise<string> {
  const clone = /^git clone (\S+)(?: (\S+))?$/.exec(line)
  if (clone) {
    const {repository} = JSON.parse(await fs.readFile(path.join(repo, 'package.json'), 'utf8')) as {repository: {url: string}}
    expect(clone[1], 'the README clones the repository package.json names').toBe(repository.url.replace(/^git\+/, ''))
    await fs.symlink(repo, path.join(cwd, clone[2] ?? path.basename(clone[1]!, '.git')))
    ran.push({line, run: 'linked'})
    return cwd
  }
  const cd = /^cd (\S+)$/.exec(line)
  if (cd) {
    const to = path.resolve(cwd, cd[1]!)
    expect(existsSync(to), `${line}: no such folder`).toBe(true)
    ran.push({line, run: 'cd'})
    return to
  }
  if (line === 'npm ci' && (await fs.realpath(cwd)) === (await fs.realpath(repo))) {
    ran.push({line, run: 'skipped'})
    return cwd
  }
  const run = await runProcess('/bin/sh', ['-c', line], {cwd, env})
  ran.push({line, run})
  if (run.code !== 0) throw new Error(`\`${line}\` exited ${run.code}:\n${run.stdout}${run.stderr}`)
  return cwd
}

beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-outside-install-')))
  project = path.join(home, 'my-project')
  versions = await internal()
  registry = await startLockRegistry(repo)
  env = installEnv(registry, path.join(home, 'npm-cache'))

  // The user's project: a package.json, and the example project with a threshold of its own.
  await fs.mkdir(project)
  await fs.writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({name: 'my-project', version: '1.0.0', private: true, type: 'module', scripts: {test: 'node --version'}}, null, 2) + '\n'
  )
  await fs.cp(path.join(repo, 'content/examples/greenlight-project/.greenlight'), path.join(project, '.greenlight'), {recursive: true})
  await fs.rm(path.join(project, '.greenlight/tiers'), {recursive: true, force: true})
  const configFile = path.join(project, '.greenlight/config.json')
  const config = JSON.parse(await fs.readFile(configFile, 'utf8')) as {workflow: Record<string, unknown>}
  config.workflow.rejection_threshold = 5
  await fs.writeFile(configFile, JSON.stringify(config, null, 2) + '\n')

  const started = performance.now()
  let cwd = home
  for (const line of await readmeReleaseCommands()) cwd = await runReadmeLine(line, cwd)
  const installedAt = performance.now()

  // Beyond the README's lines: remark's own CLI and the strict preset, from the same release set.
  const remarkCli = (JSON.parse(await fs.readFile(path.join(repo, 'package-lock.json'), 'utf8')) as {packages: Record<string, {version: string}>})
    .packages['node_modules/remark-cli']!.version
  const extra = await runProcess('npm', ['install', '--save-dev', `remark-cli@${remarkCli}`, '../verification-tiers/release/remark-preset-lint-verification-tiers-strict.tgz'], {
    cwd: project,
    env
  })
  if (extra.code !== 0) throw new Error(`npm install remark-cli and the strict preset exited ${extra.code}:\n${extra.stderr}`)
  console.info(
    `outside install: the README's ${ran.length} lines in ${((installedAt - started) / 1000).toFixed(1)} s, remark-cli and the strict preset in ${((performance.now() - installedAt) / 1000).toFixed(1)} s`
  )
}, 600_000)

afterAll(async () => {
  await registry?.close()
  if (home) await fs.rm(home, {recursive: true, force: true})
})

/** `npx <args>` in the project, as the README writes it. */
function npx(...args: string[]): Promise<Run> {
  return runProcess('npx', args, {cwd: project, env})
}

/**
 * The installed bin `name` run with `args` in the project: what `npx` runs
 * for a package the project installed (`npx` itself is run by the README's
 * lines and by the `--version` test), without starting npm for each check.
 */
function installed(name: string, ...args: string[]): Promise<Run> {
  return runProcess(path.join(project, 'node_modules', '.bin', name), args, {cwd: project, env})
}

const deprecated = exampleWarning

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

describe('installed by the README’s commands, outside the repository', () => {
  it('runs the README’s lines: pack the release set, install the cli and the preset with one command of two tarballs, tiers init', () => {
    const lines = ran.map(({line}) => line)
    expect(lines[0]).toMatch(/^git clone /)
    expect(lines).toContain('npm run pack:release')
    expect(lines).toContain('npx tiers init')
    const installs = lines.filter((line) => line.startsWith('npm install ')).map((line) => line.split(/\s+/).filter((word) => word.endsWith('.tgz')))
    expect(installs).toEqual([
      ['../verification-tiers/release/verification-tiers-cli.tgz', '../verification-tiers/release/remark-preset-lint-verification-tiers.tgz'],
      ['../verification-tiers/release/verification-tiers-generate-protocol.tgz']
    ])
    // Only the clone and its `npm ci` are stood in for; every other line ran, and passed.
    expect(ran.filter(({run}) => typeof run === 'string' && run !== 'cd').map(({line, run}) => [line, run])).toEqual([
      [lines[0], 'linked'],
      ['npm ci', 'skipped']
    ])
    for (const {run} of ran) if (typeof run !== 'string') expect(run.code).toBe(0)
    // The release set: one tarball per package, named without its version.
    const pack = ran.find(({line}) => line === 'npm run pack:release')!.run as Run
    for (const name of versions.keys()) expect(pack.stdout).toContain(`\nrelease/${name.replace(/^@/, '').replace('/', '-')}.tgz: ${name}@${versions.get(name)}`)
  })

  it('asks the registry for no package of this repository, and finds every tarball it serves', () => {
    expect(registry!.refused.filter((name) => versions.has(name))).toEqual([])
    expect(registry!.missing).toEqual([])
  })

  it('installs the packages in the project, as copies, each at the repository’s version, not linked to the workspace', async () => {
    expect(path.relative(repo, home).startsWith('..')).toBe(true)
    for (let dir = path.dirname(home); ; dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules')), `${dir}/node_modules would be found from the project`).toBe(false)
      if (dir === path.dirname(dir)) break
    }
    const manifest = JSON.parse(await fs.readFile(path.join(project, 'package.json'), 'utf8')) as {devDependencies: Record<string, string>}
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      '@verification-tiers/cli',
      '@verification-tiers/generate-protocol',
      'remark-cli',
      'remark-preset-lint-verification-tiers',
      'remark-preset-lint-verification-tiers-strict'
    ])
    // Each package of the repository the cli needs, from inside its folder, resolves to a copy inside the project.
    const cli = path.join(project, 'node_modules/@verification-tiers/cli')
    const script = `for (const name of ${JSON.stringify([...versions.keys()])}) { try { console.log(name, import.meta.resolve(name)) } catch { console.log(name, 'none') } }`
    const resolved = await runProcess(process.execPath, ['--input-type=module', '-e', script], {cwd: cli})
    expect(resolved.stderr).toBe('')
    const found = new Map(resolved.stdout.trim().split('\n').map((line) => line.split(' ') as [string, string]))
    for (const name of ['@verification-tiers/contracts', '@verification-tiers/lint', '@verification-tiers/runtime', 'remark-preset-lint-verification-tiers', 'remark-lint-verification-tier']) {
      expect(found.get(name)!.startsWith(`file://${project}/node_modules/`), `${name}: ${found.get(name)}`).toBe(true)
      expect((await fs.lstat(path.join(fileDir(found.get(name)!, name)))).isSymbolicLink()).toBe(false)
    }
  })

  it('tiers --version prints the version, when tiers --help lists it', async () => {
    const help = await npx('tiers', '--help')
    expect(help.code).toBe(0)
    if (!help.stdout.includes('--version')) return
    const version = await npx('tiers', '--version')
    expect({code: version.code, stderr: version.stderr}).toEqual({code: 0, stderr: ''})
    expect(version.stdout.trim().endsWith(versions.get('@verification-tiers/cli')!)).toBe(true)
  })

  it('tiers init (the README’s line) added the preset to the remark configuration and the Stop hook', async () => {
    const init = ran.find(({line}) => line === 'npx tiers init')!.run as Run
    expect(init.code).toBe(0)
    expect(init.stderr).toContain('created .remarkrc.json: lints markdown with remark-preset-lint-verification-tiers\n')
    expect(init.stderr).toContain('created .claude/settings.json: the agent’s Stop hook runs `npx tiers stop-hook`\n')
    expect(JSON.parse(await fs.readFile(path.join(project, '.remarkrc.json'), 'utf8'))).toEqual({plugins: ['remark-preset-lint-verification-tiers']})
  })

  it('remark with the preset, from the .remarkrc.json tiers init wrote: the report, exit 0, and 1 with --frail', async () => {
    expect(await installed('remark', '--no-color', '.greenlight')).toEqual({code: 0, stdout: '', stderr: presetReport})
    expect(await installed('remark', '--no-color', '--frail', '.greenlight')).toEqual({code: 1, stdout: '', stderr: presetReport})
  })

  it('remark with the strict preset also asks C-05 for an explicit tier', async () => {
    const result = await installed('remark', '--no-color', '--no-config', '--use', 'remark-preset-lint-verification-tiers-strict', '.greenlight')
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

  it('tiers status shows each slice with the project’s threshold of 5', async () => {
    const status = await installed('tiers', 'status')
    expect({code: status.code, stderr: status.stderr}).toEqual({code: 0, stderr: deprecated})
    const lines = status.stdout.split('\n')
    expect(lines.find((line) => line.includes('S-01'))).toMatch(/S-01 .*Campaign Cards.*0\/5/)
    expect(lines.find((line) => line.includes('S-02'))).toMatch(/S-02 .*Currency Formatting.*0\/5/)
  })

  it('tiers checkpoint waits for a passing run, then shows the slice’s criteria and steps', async () => {
    const missing = await installed('tiers', 'checkpoint', 'S-01')
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
    const verified = await installed('tiers', 'verify', 'S-01')
    expect(verified.code).toBe(0)
    expect(verified.stdout).toContain('\nSummary: 2/2 automated checks pass, 5 for a human to check\n')

    expect(await installed('tiers', 'checkpoint', 'S-01')).toEqual({
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

  it('tiers lint reports C-05 with the project’s configuration: exit 0, and 1 with --frail', async () => {
    for (const [args, code] of [[[], 0], [['--frail'], 1]] as const) {
      const lint = await installed('tiers', 'lint', ...args, '.greenlight')
      expect({code: lint.code, stdout: lint.stdout}).toEqual({code, stdout: ''})
      // Colours and the padding of the columns aside: the report's words.
      const lines = lint.stderr.split('\n').map((line) => line.replace(/\u001B\[[\d;]*m/g, '').replace(/ {2,}/g, ' ').trimEnd())
      expect(lines).toContain('.greenlight/CONTRACTS.md')
      expect(lines).toContain(`84:1-84:28 warning ${c05Criteria} verify-tier-criteria remark-lint`)
      expect(lines).toContain('⚠ 1 warning')
    }
  })

  it('generate-protocol --help, then the project’s docs with its threshold, and --check passes', async () => {
    const help = await installed('generate-protocol', '--help')
    expect({code: help.code, stderr: help.stderr}).toEqual({code: 0, stderr: ''})
    expect(help.stdout).toMatch(/^Usage: generate-protocol /)
    expect(help.stdout).toContain('generate-protocol --project <dir> --out <dir>')

    expect(await installed('generate-protocol', '--project', '.', '--out', 'docs/agents')).toEqual({
      code: 0,
      stdout: [
        'wrote docs/agents/CLAUDE.md (8/10 lines)',
        'wrote docs/agents/references/checkpoint-protocol.md (99/120 lines)',
        'wrote docs/agents/references/verification-tiers.md (150/151 lines)',
        ''
      ].join('\n'),
      stderr: ''
    })
    const doc = (await fs.readFile(path.join(project, 'docs/agents/references/verification-tiers.md'), 'utf8')).split('\n')
    expect(doc[0]).toBe(
      '<!-- Generated by generate-protocol from @verification-tiers/templates/references/verification-tiers.md.hbs with the settings of .greenlight/config.json: run it again instead of editing this file. -->'
    )
    expect(doc).toContain('At 5 rejections of one slice, stop looping and escalate:')
    expect(doc).toContain('This slice has been rejected 5 times. The verification criteria may not match')
    expect(await installed('generate-protocol', '--project', '.', '--out', 'docs/agents', '--check')).toEqual({code: 0, stdout: 'generate-protocol: up to date\n', stderr: ''})
  })
})

/** The folder of package `name`, from the URL of its entry point. */
function fileDir(url: string, name: string): string {
  const file = new URL(url).pathname
  const index = file.lastIndexOf(`/node_modules/${name}/`)
  return file.slice(0, index + `/node_modules/${name}`.length)
}
