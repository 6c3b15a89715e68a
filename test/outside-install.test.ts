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
 * `lint`, remark with each preset and the GitHub reporter, and
 * `generate-protocol`.
 *
 * `my-project` is a git repository, as a user's project is. Last, `tiers
 * init --ci github` writes its workflow there, the project is committed and
 * cloned into a fresh folder, as a runner's checkout, and every step of the
 * workflow runs there, with npm's cache empty: `npm ci` installs the
 * tarballs the project keeps in `vendor/` and the rest from the loopback
 * registry, then `tiers lint`, `tiers verify --all` and `tiers ci` run as
 * GitHub runs them, for a push. A `uses:` step stands for what the runner
 * has: the checkout is the clone, Node.js this one. Slow (a pack and
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
import {parse as parseYaml} from 'yaml'
import {workspaceFolders} from '../scripts/workspaces.mjs'
import {installEnv, startLockRegistry} from './helpers/outside-install.js'
import type {LockRegistry} from './helpers/outside-install.js'
import {exampleDeprecation, git, root as repo, runProcess} from './helpers/tiers-bin.js'
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

  // The user's project, a git repository: a package.json, and the example project with a threshold of its own.
  await fs.mkdir(project)
  await git(project, 'init', '-q', '-b', 'main')
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
  await git(project, 'add', '-A')
  await git(project, 'commit', '-q', '-m', 'The project')

  const started = performance.now()
  let cwd = home
  for (const line of await readmeReleaseCommands()) cwd = await runReadmeLine(line, cwd)
  const installedAt = performance.now()

  // Beyond the README's lines: remark's own CLI, the strict preset and the GitHub reporter, from the same release set, as the README says.
  const remarkCli = (JSON.parse(await fs.readFile(path.join(repo, 'package-lock.json'), 'utf8')) as {packages: Record<string, {version: string}>}).packages[
    'node_modules/remark-cli'
  ]!.version
  const extras = ['remark-preset-lint-verification-tiers-strict.tgz', 'verification-tiers-vfile-reporter-github.tgz']
  for (const tarball of extras) await fs.copyFile(path.join(repo, 'release', tarball), path.join(project, 'vendor', tarball))
  const extra = await runProcess('npm', ['install', '--save-dev', `remark-cli@${remarkCli}`, ...extras.map((tarball) => `./vendor/${tarball}`)], {
    cwd: project,
    env
  })
  if (extra.code !== 0) throw new Error(`npm install remark-cli, the strict preset and the GitHub reporter exited ${extra.code}:\n${extra.stderr}`)
  console.info(
    `outside install: the README's ${ran.length} lines in ${((installedAt - started) / 1000).toFixed(1)} s, remark-cli, the strict preset and the reporter in ${((performance.now() - installedAt) / 1000).toFixed(1)} s`
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
    // From the project's own vendor/, where they were copied: the paths package.json keeps.
    expect(installs).toEqual([
      ['./vendor/verification-tiers-cli.tgz', './vendor/remark-preset-lint-verification-tiers.tgz'],
      ['./vendor/verification-tiers-generate-protocol.tgz']
    ])
    // Only the clone and its `npm ci` are stood in for; every other line ran, and passed.
    expect(ran.filter(({run}) => typeof run === 'string' && run !== 'cd').map(({line, run}) => [line, run])).toEqual([
      [lines[0], 'linked'],
      ['npm ci', 'skipped']
    ])
    for (const {run} of ran) if (typeof run !== 'string') expect(run.code).toBe(0)
    // The release set: one tarball per package, named without its version.
    const pack = ran.find(({line}) => line === 'npm run pack:release')!.run as Run
    for (const name of versions.keys())
      expect(pack.stdout).toContain(`\nrelease/${name.replace(/^@/, '').replace('/', '-')}.tgz: ${name}@${versions.get(name)}`)
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
    expect(manifest.devDependencies).toEqual({
      '@verification-tiers/cli': 'file:vendor/verification-tiers-cli.tgz',
      '@verification-tiers/generate-protocol': 'file:vendor/verification-tiers-generate-protocol.tgz',
      '@verification-tiers/vfile-reporter-github': 'file:vendor/verification-tiers-vfile-reporter-github.tgz',
      'remark-cli': expect.any(String),
      'remark-preset-lint-verification-tiers': 'file:vendor/remark-preset-lint-verification-tiers.tgz',
      'remark-preset-lint-verification-tiers-strict': 'file:vendor/remark-preset-lint-verification-tiers-strict.tgz'
    })
    // Each package of the repository the cli needs, from inside its folder, resolves to a copy inside the project.
    const cli = path.join(project, 'node_modules/@verification-tiers/cli')
    const script = `for (const name of ${JSON.stringify([...versions.keys()])}) { try { console.log(name, import.meta.resolve(name)) } catch { console.log(name, 'none') } }`
    const resolved = await runProcess(process.execPath, ['--input-type=module', '-e', script], {cwd: cli})
    expect(resolved.stderr).toBe('')
    const found = new Map(
      resolved.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ') as [string, string])
    )
    for (const name of [
      '@verification-tiers/contracts',
      '@verification-tiers/lint',
      '@verification-tiers/runtime',
      'remark-preset-lint-verification-tiers',
      'remark-lint-verification-tier'
    ]) {
      expect(found.get(name)!.startsWith(`file://${project}/node_modules/`), `${name}: ${found.get(name)}`).toBe(true)
      expect((await fs.lstat(path.join(fileDir(found.get(name)!, name)))).isSymbolicLink()).toBe(false)
    }
  })

  it('tiers --version prints the version of the release, as tiers --help says', async () => {
    const help = await npx('tiers', '--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('\n  -v, --version     print the version of tiers\n')
    expect(await npx('tiers', '--version')).toEqual({code: 0, stdout: `${versions.get('@verification-tiers/cli')}\n`, stderr: ''})
    // A release, not the placeholder of a package never versioned.
    expect(versions.get('@verification-tiers/cli')).not.toBe('0.0.0')
  })

  it('tiers init (the README’s line) added the preset to the remark configuration and the Stop hook', async () => {
    const init = ran.find(({line}) => line === 'npx tiers init')!.run as Run
    expect(init.code).toBe(0)
    expect(init.stdout).toContain('created .remarkrc.json: lints markdown with remark-preset-lint-verification-tiers\n')
    expect(init.stdout).toContain('created .claude/settings.json: Claude Code’s Stop hook runs `npx tiers stop-hook`\n')
    // The deprecated setting of the example is said here, once.
    expect(init.stdout).toContain(`\nnote: .greenlight/config.json: ${exampleDeprecation}\n`)
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
    expect({code: status.code, stderr: status.stderr}).toEqual({code: 0, stderr: ''})
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
      stderr: ''
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
      stderr: ''
    })
  })

  it('remark with the GitHub reporter, installed from its own tarball as the README says', async () => {
    const result = await installed('remark', '--report', '@verification-tiers/github', '.greenlight')
    expect(result.code).toBe(0)
    expect(result.stderr.split('\n').filter((line) => line.startsWith('::'))).toEqual([
      expect.stringMatching(
        /^::warning file=\.greenlight\/CONTRACTS\.md,line=84,.*verify-tier-criteria::Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps/
      )
    ])
  })

  it('tiers lint reports C-05 with the project’s configuration: exit 0, and 1 with --frail', async () => {
    for (const [args, code] of [
      [[], 0],
      [['--frail'], 1]
    ] as const) {
      const lint = await installed('tiers', 'lint', ...args, '.greenlight')
      expect({code: lint.code, stdout: lint.stdout}).toEqual({code, stdout: ''})
      // Colours and the padding of the columns aside: the report's words.
      const lines = lint.stderr.split('\n').map((line) =>
        line
          .replace(/\u001B\[[\d;]*m/g, '')
          .replace(/ {2,}/g, ' ')
          .trimEnd()
      )
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
        'wrote docs/agents/references/verification-tiers.md (151/151 lines)',
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
    expect(await installed('generate-protocol', '--project', '.', '--out', 'docs/agents', '--check')).toEqual({
      code: 0,
      stdout: 'generate-protocol: up to date\n',
      stderr: ''
    })
  })
})

/** A step of a GitHub Actions job. */
interface WorkflowStep {
  uses?: string
  with?: Record<string, unknown>
  run?: string
}

/** What a push event gives the workflow's expressions: `before`, the commit the push started from (all zeros for a new branch). */
function pushExpressions(before: string): Record<string, string> {
  // The one expression the workflow uses: the pull request's base, else the commit the push started from.
  return {"github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || github.event.before": before}
}

/** A `run:` script with its `${{ … }}` expressions replaced by their values; one not in `values` fails the test, to be added there. */
function substitute(script: string, values: Record<string, string>): string {
  return script.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const value = values[expression]
    if (value === undefined) throw new Error(`Unexpected expression \`${expression}\` in the workflow, expected one this test gives a value for`)
    return value
  })
}

describe('the workflow `tiers init --ci github` writes, run in a fresh clone of the project from an empty npm cache', () => {
  let init: Run | undefined
  let runner = ''
  let runnerEnv: Record<string, string | undefined> = {}
  let steps: WorkflowStep[] = []
  let setUp = ''
  /** Each `run:` step of a push after the set-up commit, and what it did. */
  const pushed: Array<{script: string; run: Run}> = []

  /** Run a `run:` step in the runner's checkout as GitHub does (bash, stopping at the first failing command). */
  const runStep = (script: string, values: Record<string, string>): Promise<Run> =>
    runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', substitute(script, values)], {cwd: runner, env: runnerEnv})

  beforeAll(async () => {
    init = await runProcess('npx', ['tiers', 'init', '--ci', 'github'], {cwd: project, env})
    if (init.code !== 0) throw new Error(`npx tiers init --ci github exited ${init.code}:\n${init.stdout}${init.stderr}`)
    steps = (parseYaml(await fs.readFile(path.join(project, '.github/workflows/verification-tiers.yml'), 'utf8')) as {jobs: {tiers: {steps: WorkflowStep[]}}})
      .jobs.tiers.steps
    // Committed with what the README and init wrote (node_modules/ is ignored: init said so), then a change that touches no contract.
    await git(project, 'add', '-A')
    await git(project, 'commit', '-q', '-m', 'Set up verification tiers')
    setUp = await git(project, 'rev-parse', 'HEAD')
    await fs.writeFile(path.join(project, 'NOTES.md'), 'Notes.\n')
    await git(project, 'add', 'NOTES.md')
    await git(project, 'commit', '-q', '-m', 'Notes')

    // The runner: a clone of the whole history (`fetch-depth: 0`), and an npm cache of its own, empty.
    runner = path.join(home, 'runner')
    await git(home, 'clone', '-q', project, runner)
    const cache = path.join(home, 'runner-npm-cache')
    expect(existsSync(cache)).toBe(false)
    runnerEnv = {...installEnv(registry!, cache), GITHUB_ACTIONS: 'true', CI: 'true'}
    const took: string[] = []
    for (const step of steps) {
      if (step.run === undefined) continue
      const started = performance.now()
      const run = await runStep(step.run, pushExpressions(setUp))
      took.push(`\`${step.run.split('\n')[0]}\` ${((performance.now() - started) / 1000).toFixed(1)} s`)
      pushed.push({script: step.run, run})
      if (run.code !== 0) break
    }
    console.info(`the workflow's run steps: ${took.join(', ')}`)
  }, 600_000)

  it('init says what the workflow runs and needs nothing more of the project', () => {
    expect({code: init!.code, stderr: init!.stderr}).toEqual({code: 0, stderr: ''})
    const notes = init!.stdout.split('\n').filter((line) => line.startsWith('note: ') && !line.startsWith('note: commit '))
    expect(notes).toEqual([
      'note: the workflow’s `npx tiers verify --all` runs the project’s test command, `npm test` (`test.command` in .greenlight/config.json), with Node.js set up by actions/setup-node',
      `note: .greenlight/config.json: ${exampleDeprecation}`
    ])
    expect(init!.stdout).toContain('\ncreated tiers-lint-baseline.json: accepts the 1 warning `tiers lint .greenlight` finds today')
  })

  it('has the steps a runner takes as they are: the checkout of the whole history and Node.js', () => {
    expect(steps.filter((step) => step.uses !== undefined)).toEqual([
      {uses: 'actions/checkout@v4', with: {'fetch-depth': 0}},
      {uses: 'actions/setup-node@v4', with: {'node-version': 20}}
    ])
    expect(steps.map((step) => step.run?.split('\n')[0]).filter((run) => run !== undefined)).toEqual([
      'npm ci',
      'npx tiers lint --frail .greenlight',
      'npx tiers verify --all',
      expect.stringMatching(/^base="\$\{\{/)
    ])
  })

  it('runs every step of a push, each exiting 0', () => {
    expect(pushed.map(({script, run}) => ({step: script.split('\n')[0], code: run.code, output: run.code === 0 ? '' : run.stdout + run.stderr}))).toEqual(
      steps.filter((step) => step.run !== undefined).map((step) => ({step: step.run!.split('\n')[0], code: 0, output: ''}))
    )
  })

  it('npm ci installs the tarballs of vendor/ with the rest, asking the registry for no package of this repository, with no engine warning', async () => {
    const npmCi = pushed[0]!.run
    expect(npmCi.stderr).not.toContain('EBADENGINE')
    const lock = JSON.parse(await fs.readFile(path.join(runner, 'package-lock.json'), 'utf8')) as {packages: Record<string, {resolved?: string}>}
    expect(lock.packages['node_modules/@verification-tiers/cli']?.resolved).toBe('file:vendor/verification-tiers-cli.tgz')
    expect(lock.packages['node_modules/remark-preset-lint-verification-tiers']?.resolved).toBe('file:vendor/remark-preset-lint-verification-tiers.tgz')
    expect(existsSync(path.join(runner, 'node_modules/@verification-tiers/cli/node_modules/@verification-tiers/runtime/package.json'))).toBe(true)
    expect(registry!.refused.filter((name) => versions.has(name))).toEqual([])
    expect(registry!.missing).toEqual([])
  })

  it('lints with the baseline init wrote, verifies with the project’s test command, and lets a push that touches no contract through', () => {
    const [, lint, verify, ci] = pushed.map(({run}) => run)
    expect(lint).toEqual({code: 0, stdout: '', stderr: '1 warning accepted by the baseline tiers-lint-baseline.json\n'})
    expect(verify!.stdout).toContain('\nSummary: 2/2 automated checks pass, 5 for a human to check\n')
    expect(ci!.code).toBe(0)
    expect(ci!.stdout).toMatch(/^MERGE READY — /)
  })

  it('holds the first push of the branch: its verify slices wait for a person’s approval', async () => {
    const first = await runStep(steps.at(-1)!.run!, pushExpressions('0'.repeat(40)))
    expect(first.code).toBe(1)
    expect(first.stdout).toMatch(/^MERGE HELD — /)
    expect(first.stdout).toContain('S-01')
  })
})

/** The folder of package `name`, from the URL of its entry point. */
function fileDir(url: string, name: string): string {
  const file = new URL(url).pathname
  const index = file.lastIndexOf(`/node_modules/${name}/`)
  return file.slice(0, index + `/node_modules/${name}`.length)
}
