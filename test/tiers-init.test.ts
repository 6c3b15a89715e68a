/**
 * End-to-end tests of `tiers init` through the cli (its `main`, in the test process): the files it writes
 * or merges, byte for byte, what it says, that a second run changes nothing,
 * that `--dry-run` writes nothing, and that a file it cannot merge stops it
 * before anything is written. The configuration it writes is then read by the
 * real remark CLI.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {parse as parseYaml} from 'yaml'
import {exampleDeprecation, exampleProject, git, linkedProject, remarkBin, root, runProcess} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers, runTiersPiped} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary project with `files` written. */
async function project(files: Record<string, string> = {}): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-init-')))
  folders.push(folder)
  for (const [name, value] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), value)
  }
  return folder
}

/** Every file below `folder` with its text. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const names = (await fs.readdir(folder, {recursive: true, withFileTypes: true})).filter((entry) => entry.isFile())
  const entries = await Promise.all(
    names.map(async (entry) => {
      const full = path.join(entry.parentPath, entry.name)
      return [path.relative(folder, full), await fs.readFile(full, 'utf8')] as const
    })
  )
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)))
}

const stopEntry = [
  '{',
  '  "hooks": {',
  '    "Stop": [',
  '      {',
  '        "hooks": [',
  '          {',
  '            "type": "command",',
  '            "command": "npx tiers stop-hook"',
  '          }',
  '        ]',
  '      }',
  '    ]',
  '  }',
  '}',
  ''
].join('\n')

/** What a new `.gitignore` holds for a Greenlight project. */
const gitignore = [
  '# verification-tiers: caches and local state',
  '.greenlight/tiers/verification-status.json',
  '.greenlight/tiers/stop-hook.json',
  '.greenlight/tiers/.verify-lint-cache',
  '.greenlight/tiers/*.lock',
  '.greenlight/tiers/.lint-cache',
  ''
].join('\n')

/** The lines init prints for `.gitignore` and what goes to git, on a first run. */
const gitLines = [
  'created .gitignore: ignores 5 caches and local state files',
  'note: commit .greenlight/tiers/<slice>.json (each slice’s answers and history); the last verification run on this machine, the Stop hook’s count of blocked stops, `tiers verify`’s lint cache, locks held while a command writes and `tiers lint`’s cache stay out of git'
]

/** The note of `--ci github` for a project whose settings set no test command. */
const noTestCommand = (file: string) =>
  `note: no test command is set (\`test.command\` in ${file}): the workflow’s \`npx tiers verify --all\` runs only the checks the criteria name, no test suite; set one, such as \`{"test": {"command": "npm test"}}\`, to run the project’s tests too`

/** The note of `--ci github` for a project without package.json. */
const noPackageJson =
  'note: the workflow installs tiers with `npm ci`, which needs package.json and package-lock.json here: install tiers in the project (`npm install --save-dev @verification-tiers/cli remark-preset-lint-verification-tiers`) and commit both'

const workflow = [
  'name: Verification tiers',
  'on: [push, pull_request]',
  'jobs:',
  '  tiers:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '        with:',
  '          fetch-depth: 0',
  '      - uses: actions/setup-node@v4',
  '        with:',
  '          node-version: 20',
  '      - run: npm ci',
  '      - run: npx tiers lint --frail .greenlight',
  '      - run: npx tiers verify --all',
  '      - run: |',
  "          base=\"${{ github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || github.event.before }}\"",
  '          if git rev-parse -q --verify "$base^{commit}" > /dev/null; then npx tiers ci --base "$base"; else npx tiers ci; fi',
  ''
].join('\n')

describe('tiers init', {timeout: 60_000}, () => {
  it.concurrent('an empty project: writes the configuration and the Stop hook, says so; a second run changes nothing', async () => {
    const cwd = await project()
    const first = await runTiers(cwd, ['init'])
    // What was done is the output: stdout, nothing on stderr.
    expect(first).toEqual({
      code: 0,
      stdout: [
        'created .remarkrc.json: lints markdown with remark-preset-lint-verification-tiers',
        'created .claude/settings.json: Claude Code’s Stop hook runs `npx tiers stop-hook`',
        ...gitLines,
        ''
      ].join('\n'),
      stderr: ''
    })
    expect(await snapshot(cwd)).toEqual({
      '.claude/settings.json': stopEntry,
      '.gitignore': gitignore,
      '.remarkrc.json': '{\n  "plugins": [\n    "remark-preset-lint-verification-tiers"\n  ]\n}\n'
    })
    const second = await runTiers(cwd, ['init'])
    expect(second).toEqual({
      code: 0,
      stdout: [
        'unchanged .remarkrc.json: the preset is already there',
        'unchanged .claude/settings.json: the Claude Code Stop hook already runs tiers stop-hook',
        'unchanged .gitignore: it already ignores the caches and local state',
        gitLines[1],
        'nothing to change',
        ''
      ].join('\n'),
      stderr: ''
    })
  })

  it.concurrent('ignores the node_modules that installing tiers made, unless a line of the user’s already does', async () => {
    const cwd = await project({'package.json': '{}\n', 'node_modules/.package-lock.json': '{}\n'})
    expect((await runTiers(cwd, ['init'])).code).toBe(0)
    expect((await fs.readFile(path.join(cwd, '.gitignore'), 'utf8')).split('\n')).toContain('node_modules/')
    const ignored = await project({'package.json': '{}\n', 'node_modules/.package-lock.json': '{}\n', '.gitignore': '/node_modules\n'})
    expect((await runTiers(ignored, ['init'])).code).toBe(0)
    expect((await fs.readFile(path.join(ignored, '.gitignore'), 'utf8')).split('\n').filter((line) => line.includes('node_modules'))).toEqual(['/node_modules'])
  })

  it.concurrent('merges into an existing .remarkrc.json and hooks, keeping what is there', async () => {
    const remarkrc =
      '{\n    "plugins": [\n        "remark-preset-lint-recommended",\n        ["remark-lint-list-item-indent", "space"]\n    ],\n    "settings": {"bullet": "*"}\n}\n'
    const settings =
      '{\n  "permissions": {"allow": ["Bash(npm test)"]},\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "echo hi"\n          }\n        ]\n      }\n    ],\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "say done"\n          }\n        ]\n      }\n    ]\n  }\n}\n'
    const cwd = await project({'.remarkrc.json': remarkrc, '.claude/settings.json': settings})
    const run = await runTiers(cwd, ['init'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        'updated .remarkrc.json: added remark-preset-lint-verification-tiers to its plugins',
        'updated .claude/settings.json: Claude Code’s Stop hook runs `npx tiers stop-hook`',
        ...gitLines,
        ''
      ].join('\n')
    )
    const files = await snapshot(cwd)
    expect(JSON.parse(files['.remarkrc.json'] ?? '')).toEqual({
      plugins: ['remark-preset-lint-recommended', ['remark-lint-list-item-indent', 'space'], 'remark-preset-lint-verification-tiers'],
      settings: {bullet: '*'}
    })
    // Every byte but the new plugin is as it was, the new line in the file's four-space indentation.
    expect(files['.remarkrc.json']).toBe(remarkrc.replace('"space"]\n', '"space"],\n        "remark-preset-lint-verification-tiers"\n'))
    const merged = JSON.parse(files['.claude/settings.json'] ?? '') as {hooks: {Stop: unknown[]; PreToolUse: unknown[]}; permissions: unknown}
    expect(merged.permissions).toEqual({allow: ['Bash(npm test)']})
    expect(merged.hooks.PreToolUse).toEqual([{matcher: 'Bash', hooks: [{type: 'command', command: 'echo hi'}]}])
    expect(merged.hooks.Stop).toEqual([{hooks: [{type: 'command', command: 'say done'}]}, {hooks: [{type: 'command', command: 'npx tiers stop-hook'}]}])
    expect(files['.claude/settings.json']).toBe(
      settings.replace(
        '            "command": "say done"\n          }\n        ]\n      }\n',
        '            "command": "say done"\n          }\n        ]\n      },\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "npx tiers stop-hook"\n          }\n        ]\n      }\n'
      )
    )
    expect((await runTiers(cwd, ['init'])).stdout).toMatch(/\nnothing to change\n$/)
  })

  it.concurrent('package.json#remarkConfig is merged; a hook that already runs tiers stop-hook is kept as the one', async () => {
    const manifest = JSON.stringify({name: 'shop', private: true, remarkConfig: {plugins: ['remark-gfm']}}, undefined, 2) + '\n'
    const settings =
      JSON.stringify({hooks: {Stop: [{hooks: [{type: 'command', command: 'node node_modules/.bin/tiers stop-hook --dir docs'}]}]}}, undefined, 2) + '\n'
    const cwd = await project({'package.json': manifest, '.claude/settings.json': settings})
    const run = await runTiers(cwd, ['init'])
    expect(run.stdout).toBe(
      [
        'updated package.json: added remark-preset-lint-verification-tiers to the plugins of `remarkConfig`',
        'unchanged .claude/settings.json: the Claude Code Stop hook already runs tiers stop-hook',
        ...gitLines,
        ''
      ].join('\n')
    )
    const files = await snapshot(cwd)
    expect(JSON.parse(files['package.json'] ?? '')).toEqual({
      name: 'shop',
      private: true,
      remarkConfig: {plugins: ['remark-gfm', 'remark-preset-lint-verification-tiers']}
    })
    expect(files['.claude/settings.json']).toBe(settings)
    expect(files['.remarkrc.json']).toBeUndefined()
  })

  it.concurrent('a configuration in JavaScript is not rewritten: a note says what to add', async () => {
    const cwd = await project({'.remarkrc.mjs': 'export default {plugins: []}\n'})
    const run = await runTiers(cwd, ['init'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe('note: .remarkrc.mjs is read first: add `remark-preset-lint-verification-tiers` to its plugins yourself')
    expect((await snapshot(cwd))['.remarkrc.mjs']).toBe('export default {plugins: []}\n')
  })

  it.concurrent('--ci github adds the workflow once; an existing different workflow is left as it is', async () => {
    const cwd = await project()
    const run = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(run.stdout.split('\n').slice(4)).toEqual([
      'created .github/workflows/verification-tiers.yml: runs `npx tiers lint --frail .greenlight`, `npx tiers verify --all` and `npx tiers ci` on every push and pull request',
      noTestCommand('.greenlight/config.json'),
      noPackageJson,
      'note: .greenlight does not exist yet: the workflow’s `tiers lint` fails until it holds the contracts',
      ''
    ])
    expect((await snapshot(cwd))['.github/workflows/verification-tiers.yml']).toBe(workflow)
    expect((await runTiers(cwd, ['init', '--ci', 'github'])).stdout.split('\n')[4]).toBe(
      'unchanged .github/workflows/verification-tiers.yml: the workflow is already there'
    )
    const other = await project({'.github/workflows/verification-tiers.yml': 'name: mine\n'})
    const kept = await runTiers(other, ['init', '--ci', 'github'])
    expect(kept.stdout).toContain('note: .github/workflows/verification-tiers.yml exists and differs: left as it is')
    expect((await snapshot(other))['.github/workflows/verification-tiers.yml']).toBe('name: mine\n')
  })

  it.concurrent('--dry-run prints the diff and writes nothing', async () => {
    const cwd = await project({'.remarkrc.json': '{"plugins": []}\n'})
    const before = await snapshot(cwd)
    const run = await runTiers(cwd, ['init', '--dry-run'])
    expect(await snapshot(cwd)).toEqual(before)
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(
      [
        '--- a/.remarkrc.json',
        '+++ b/.remarkrc.json',
        '@@ -1,1 +1,5 @@',
        '-{"plugins": []}',
        '+{',
        '+  "plugins": [',
        '+    "remark-preset-lint-verification-tiers"',
        '+  ]',
        '+}',
        '--- /dev/null',
        '+++ b/.claude/settings.json',
        '@@ -0,0 +1,14 @@',
        ...stopEntry
          .split('\n')
          .slice(0, -1)
          .map((line) => '+' + line),
        '--- /dev/null',
        '+++ b/.gitignore',
        '@@ -0,0 +1,6 @@',
        ...gitignore
          .split('\n')
          .slice(0, -1)
          .map((line) => '+' + line),
        'would update .remarkrc.json: added remark-preset-lint-verification-tiers to its plugins',
        'would create .claude/settings.json: Claude Code’s Stop hook runs `npx tiers stop-hook`',
        gitLines[0]!.replace('created', 'would create'),
        gitLines[1],
        ''
      ].join('\n')
    )
  })

  it.concurrent('a file it cannot merge stops it before anything is written: one line, exit 2', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{'.claude/settings.json': '{"hooks": '}, 'tiers: .claude/settings.json:1:11: Unexpected text that is not JSON (ValueExpected), expected JSON'],
      [{'.claude/settings.json': '{"hooks": 5}'}, 'tiers: .claude/settings.json: Unexpected `hooks` that is not an object, expected an object of hook events'],
      [
        {'.claude/settings.json': '{"hooks": {"Stop": {}}}'},
        'tiers: .claude/settings.json: Unexpected `hooks.Stop` that is not a list, expected a list of hook entries'
      ],
      [
        {'.remarkrc.json': '{"plugins": "x"}'},
        'tiers: .remarkrc.json: Unexpected `plugins` in the configuration that is not a list, expected a list of plugins'
      ]
    ]
    for (const [files, message] of cases) {
      const cwd = await project(files)
      const before = await snapshot(cwd)
      const run = await runTiers(cwd, ['init'])
      expect(run.code, message).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr.startsWith(message), run.stderr).toBe(true)
      expect(run.stderr.split('\n').length, run.stderr).toBe(2)
      expect(await snapshot(cwd)).toEqual(before)
    }
  })

  it.concurrent('bad options: one line, exit 1; --help', async () => {
    const cwd = await project()
    const [ci, unknown, near, help] = await Promise.all([
      runTiers(cwd, ['init', '--ci', 'gitlab']),
      runTiers(cwd, ['init', '--force']),
      runTiers(cwd, ['init', '--dryrun']),
      runTiers(cwd, ['init', '--help'])
    ])
    expect(ci).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected `--ci gitlab`, expected one of github\n'})
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected option `--force`, expected one of --agent, --ci, --dry-run, -h/--help (see tiers init --help)\n'
    })
    expect(near).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected option `--dryrun`, expected `--dry-run` (see tiers init --help)\n'})
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: tiers init \[options\]\n/)
    expect(await snapshot(cwd)).toEqual({})
  })

  it.concurrent('the configuration it writes is what the remark CLI reads', async () => {
    const cwd = await project({'CONTRACTS.md': '### C-01: CartTotal\n\n**Verification:** Verify\n**Acceptance Criteria:**\n- The total includes tax\n'})
    await fs.symlink(path.join(root, 'node_modules'), path.join(cwd, 'node_modules'), 'dir')
    expect((await runTiers(cwd, ['init'])).code).toBe(0)
    const remark = await runProcess(remarkBin, ['--no-color', '--no-stdout', 'CONTRACTS.md'], {cwd})
    expect(remark.code).toBe(1)
    expect(remark.stderr).toContain('verification-tier')
  })
})

// A first CI run --------------------------------------------------------------

/** Contracts with three warnings today: two contracts without criteria or steps, one vague criterion. */
const ledger = [
  '# Ledger',
  '',
  '### C-01: OpenAccount',
  '',
  '**Boundary:** form -> account row',
  '',
  '### C-02: CloseAccount',
  '',
  '**Boundary:** button -> archived row',
  '',
  '### C-03: MonthlyStatement',
  '',
  '**Verification:** verify',
  '**Acceptance Criteria:**',
  '- The statement lists every entry of the month -- verified by: `npm test -- statement`',
  '- The statement works as expected',
  ''
].join('\n')

/** An agent's prompt outside the contracts, showing a contract as an example, with a tier no contract may have. */
const prompt = ['# Wrap up a slice', '', 'Write each contract as in this example:', '', '### C-07: Example', '', '**Verification:** whenever', ''].join('\n')

/** The workflow's `tiers lint` step, as arguments of `tiers`. */
function workflowLint(text: string): string[] {
  const workflow = parseYaml(text) as {jobs: {tiers: {steps: Array<{run?: string}>}}}
  const run = workflow.jobs.tiers.steps.map((step) => step.run ?? '').find((each) => each.startsWith('npx tiers lint'))
  expect(run).toBeDefined()
  return run!.split(' ').slice(2)
}

describe('tiers init --ci github: a first CI run', {timeout: 120_000}, () => {
  it.concurrent('lints the contracts’ folder, accepts today’s warnings in a baseline, passes; a new warning fails it, named', async () => {
    const cwd = await linkedProject(folders, 'verification-tiers-init-ci-', {'.greenlight/CONTRACTS.md': ledger, 'prompts/wrap.md': prompt})
    const init = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(init.code).toBe(0)
    expect(init.stdout.split('\n').slice(-5)).toEqual([
      'created .github/workflows/verification-tiers.yml: runs `npx tiers lint --frail .greenlight`, `npx tiers verify --all` and `npx tiers ci` on every push and pull request',
      noTestCommand('.greenlight/config.json'),
      noPackageJson,
      'created tiers-lint-baseline.json: accepts the 3 warnings `tiers lint .greenlight` finds today, so the workflow fails on new ones only; `npx tiers lint --update-baseline .greenlight` updates it',
      ''
    ])
    const criteria = (id: string) =>
      `Unexpected contract ${id} without acceptance criteria or steps (its tier defaults to \`verify\`), expected at least one criterion or step, or \`Verification: auto\``
    expect(JSON.parse(await fs.readFile(path.join(cwd, 'tiers-lint-baseline.json'), 'utf8'))).toEqual({
      '.greenlight/CONTRACTS.md': {
        'remark-lint:acceptance-criteria-specific': {
          'Unexpected vague criterion `works as expected` in C-03 MonthlyStatement, expected an observable outcome or a `-- verified by:` check': 1
        },
        'remark-lint:verify-tier-criteria': {[criteria('C-01 OpenAccount')]: 1, [criteria('C-02 CloseAccount')]: 1}
      }
    })
    const lint = workflowLint(await fs.readFile(path.join(cwd, '.github/workflows/verification-tiers.yml'), 'utf8'))
    expect(lint).toEqual(['lint', '--frail', '.greenlight'])
    // As CI runs it (GitHub's format), and at a terminal's place (stylish): it passes.
    const [ci, local, whole] = await Promise.all([
      runTiers(cwd, lint, '', {GITHUB_ACTIONS: 'true'}),
      runTiers(cwd, lint, '', {NO_COLOR: '1'}),
      runTiers(cwd, ['lint', '--frail', '--no-color'])
    ])
    expect(ci).toEqual({code: 0, stdout: '', stderr: '3 warnings accepted by the baseline tiers-lint-baseline.json\n'})
    expect(local).toEqual(ci)
    // The whole repository would read the prompt's example as a contract: that is why the folder is given.
    expect(whole.code).toBe(1)
    expect(whole.stderr).toMatch(/^prompts\/wrap\.md\n(?:.*\n)*7:19-7:27 +error +Unexpected verification tier `whenever`/)

    // Renamed, a contract's warning is a new one: the run fails and names it.
    await fs.writeFile(path.join(cwd, '.greenlight/CONTRACTS.md'), ledger.replace('C-02: CloseAccount', 'C-02: ArchiveAccount'))
    const [failing, failingLocal] = await Promise.all([runTiers(cwd, lint, '', {GITHUB_ACTIONS: 'true'}), runTiers(cwd, [...lint, '--no-color'])])
    expect(failing.code).toBe(1)
    // One annotation, on the new warning only (the format's other properties are the GitHub reporter's).
    expect(failing.stdout.split('\n')).toEqual([expect.stringMatching(/^::warning file=\.greenlight\/CONTRACTS\.md,line=7,[^:]*verify-tier-criteria::/), ''])
    expect(failing.stdout).toContain(`::${criteria('C-02 ArchiveAccount')}\n`)
    expect(failing.stderr).toBe(
      '2 warnings accepted by the baseline tiers-lint-baseline.json\n1 warning in the baseline tiers-lint-baseline.json no longer occurs: `tiers lint --update-baseline .greenlight` prunes them\n'
    )
    expect(failingLocal.code).toBe(1)
    expect(failingLocal.stderr).toMatch(
      new RegExp(
        `^\\.greenlight/CONTRACTS\\.md\\n7:1-7:25 +warning ${criteria('C-02 ArchiveAccount').replace(/[()`]/g, '\\$&')} +verify-tier-criteria +remark-lint\\n\\n⚠ 1 warning\\n2 warnings accepted`
      )
    )

    // Accepted again with the command the report gives: passes, and the old entry is pruned.
    const update = await runTiers(cwd, ['lint', '--update-baseline', '.greenlight', '--no-color'])
    expect(update).toEqual({code: 0, stdout: '', stderr: 'wrote tiers-lint-baseline.json: it accepts 3 warnings in 1 file\n'})
    expect(
      Object.keys(
        (JSON.parse(await fs.readFile(path.join(cwd, 'tiers-lint-baseline.json'), 'utf8')) as Record<string, Record<string, object>>)[
          '.greenlight/CONTRACTS.md'
        ]!['remark-lint:verify-tier-criteria']!
      )
    ).toEqual([criteria('C-01 OpenAccount'), criteria('C-02 ArchiveAccount')])
    expect((await runTiers(cwd, lint)).code).toBe(0)
  })

  it.concurrent('errors are never accepted: a note says the workflow fails until they are fixed; an existing baseline is kept, with what it misses', async () => {
    const broken = ledger.replace('**Verification:** verify', '**Verification:** someday')
    const cwd = await linkedProject(folders, 'verification-tiers-init-ci-', {'.greenlight/CONTRACTS.md': broken, 'tiers-lint-baseline.json': '{}\n'})
    const init = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(init.code).toBe(0)
    expect(init.stdout.split('\n').slice(-3)).toEqual([
      'note: `tiers lint .greenlight` finds 1 error today, which no baseline accepts: the workflow fails until they are fixed (the first: .greenlight/CONTRACTS.md:13:19: Unexpected verification tier `someday` on C-03 MonthlyStatement, expected `auto` or `verify`)',
      'note: tiers-lint-baseline.json does not accept 3 warnings `tiers lint .greenlight` finds today: the workflow fails until they are fixed, or `npx tiers lint --update-baseline .greenlight` accepts them',
      ''
    ])
    expect(await fs.readFile(path.join(cwd, 'tiers-lint-baseline.json'), 'utf8')).toBe('{}\n')
    // The preset not installed yet: the lint cannot run, and the note says why.
    const bare = await project({'.greenlight/CONTRACTS.md': ledger})
    const first = await runTiers(bare, ['init', '--ci', 'github'])
    expect(first.code).toBe(0)
    expect(first.stdout.split('\n').slice(-2)).toEqual([
      'note: `tiers lint .greenlight` finds 1 error today, which no baseline accepts: the workflow fails until they are fixed (the first: .greenlight/CONTRACTS.md: Cannot process file: Cannot find module `remark-preset-lint-verification-tiers`)',
      ''
    ])
    await expect(fs.stat(path.join(bare, 'tiers-lint-baseline.json'))).rejects.toThrow()
  })

  it.concurrent('--dry-run shows the baseline it would write, and writes nothing', async () => {
    const cwd = await linkedProject(folders, 'verification-tiers-init-ci-', {
      '.greenlight/CONTRACTS.md': ledger,
      '.remarkrc.json': '{"plugins": ["remark-preset-lint-verification-tiers"]}\n'
    })
    const run = await runTiers(cwd, ['init', '--ci', 'github', '--dry-run'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('--- /dev/null\n+++ b/tiers-lint-baseline.json\n@@ -0,0 +1,11 @@\n+{\n+  ".greenlight/CONTRACTS.md": {\n')
    expect(run.stdout).toContain('would create tiers-lint-baseline.json: accepts the 3 warnings')
    await expect(fs.stat(path.join(cwd, 'tiers-lint-baseline.json'))).rejects.toThrow()
    await expect(fs.stat(path.join(cwd, '.gitignore'))).rejects.toThrow()
  })
})

describe('tiers init and git', {timeout: 120_000}, () => {
  it.concurrent('after verify, the Stop hook, an answer and a cached lint, only the slice’s answers and history are left for git', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-init-git-', 'true')
    await git(cwd, 'init', '-q')
    expect((await runTiers(cwd, ['init'])).code).toBe(0)
    await git(cwd, 'add', '-A')
    await git(cwd, 'commit', '-q', '-m', 'Set up')
    expect((await runTiers(cwd, ['verify', '--all'])).code).toBe(0)
    await runTiers(cwd, ['stop-hook'], '{}')
    expect((await runTiers(cwd, ['respond', 'S-01', 'The cards are in the wrong order'])).code).toBe(0)
    await runTiers(cwd, ['lint', '--cache', '.greenlight'])
    const state = (await fs.readdir(path.join(cwd, '.greenlight', 'tiers'))).sort()
    expect(state).toEqual(['.lint-cache', '.verify-lint-cache', 'S-01.json', 'stop-hook.json', 'verification-status.json'])
    expect(await git(cwd, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .greenlight/tiers/S-01.json')
  })

  it.concurrent('merges into an existing .gitignore: the user’s lines as they were, an entry already there not added again', async () => {
    const before = '# mine\nnode_modules/\n.greenlight/tiers/.lint-cache\n!important.log'
    const cwd = await project({'.gitignore': before})
    const run = await runTiers(cwd, ['init'])
    expect(run.stdout.split('\n')[2]).toBe('updated .gitignore: ignores 4 caches and local state files')
    expect((await snapshot(cwd))['.gitignore']).toBe(
      before +
        '\n\n' +
        gitignore
          .split('\n')
          .filter((line) => line !== '.greenlight/tiers/.lint-cache')
          .join('\n')
    )
    expect((await runTiers(cwd, ['init'])).stdout.split('\n')[2]).toBe('unchanged .gitignore: it already ignores the caches and local state')
  })
})

// What the workflow runs ------------------------------------------------------

/** The steps of the workflow `tiers init --ci github` wrote in `cwd`. */
async function workflowSteps(cwd: string): Promise<Array<{uses?: string; run?: string; with?: Record<string, unknown>}>> {
  const text = await fs.readFile(path.join(cwd, '.github/workflows/verification-tiers.yml'), 'utf8')
  return (parseYaml(text) as {jobs: {tiers: {steps: Array<{uses?: string; run?: string; with?: Record<string, unknown>}>}}}).jobs.tiers.steps
}

/** The `uses:` steps of a workflow, with their settings. */
const actions = (steps: Awaited<ReturnType<typeof workflowSteps>>) =>
  steps.filter((step) => step.uses !== undefined).map((step) => ({uses: step.uses, with: step.with}))

const checkout = {uses: 'actions/checkout@v4', with: {'fetch-depth': 0}}
const setupNode = {uses: 'actions/setup-node@v4', with: {'node-version': 20}}

/** A project with settings in `.greenlight/config.json`, a package.json and its lockfile, and `files`. */
const settled = (config: Record<string, unknown>, files: Record<string, string> = {}) =>
  project({
    '.greenlight/config.json': JSON.stringify(config),
    '.greenlight/CONTRACTS.md': ledger,
    'package.json': '{}\n',
    'package-lock.json': '{}\n',
    ...files
  })

/** The notes `tiers init --ci github` printed, but the baseline’s (the preset is not installed in these projects). */
const notes = (run: {stdout: string}) =>
  run.stdout.split('\n').filter((line) => line.startsWith('note: ') && !line.startsWith('note: commit ') && !/^note: `tiers lint \S+` finds/.test(line))

describe('tiers init --ci github: the test command the workflow runs', {timeout: 120_000}, () => {
  it.concurrent('a Go test command, its standard input a pipe: the workflow sets Go up from go.mod, and says what verify runs', async () => {
    const cwd = await settled({test: {command: 'go test ./...'}}, {'go.mod': 'module example.com/shop\n\ngo 1.23\n'})
    const run = await runTiersPiped(cwd, ['init', '--ci', 'github'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    expect(notes(run)).toEqual([
      'note: the workflow’s `npx tiers verify --all` runs the project’s test command, `go test ./...` (`test.command` in .greenlight/config.json), with Node.js set up by actions/setup-node, Go set up by actions/setup-go (the version go.mod names)'
    ])
    const steps = await workflowSteps(cwd)
    expect(actions(steps)).toEqual([checkout, setupNode, {uses: 'actions/setup-go@v5', with: {'go-version-file': 'go.mod'}}])
    // Set up before anything runs.
    expect(steps.findIndex((step) => step.uses?.startsWith('actions/setup-go'))).toBeLessThan(steps.findIndex((step) => step.run === 'npm ci'))
    expect((await runTiersPiped(cwd, ['init', '--ci', 'github'])).stdout).toContain(
      'unchanged .github/workflows/verification-tiers.yml: the workflow is already there\n'
    )
  })

  it.concurrent('Python without a version file; a command the workflow sets nothing up for; Node.js alone', async () => {
    const [python, make, node] = await Promise.all([
      settled({test: {command: 'cd api && CI=1 python -m pytest'}}),
      settled({test: {command: 'make check && cargo test'}}),
      settled({test: {command: 'npm test'}})
    ])
    const [pythonRun, makeRun, nodeRun] = await Promise.all([python, make, node].map((cwd) => runTiers(cwd, ['init', '--ci', 'github'])))
    expect(notes(pythonRun)).toEqual([
      'note: the workflow’s `npx tiers verify --all` runs the project’s test command, `cd api && CI=1 python -m pytest` (`test.command` in .greenlight/config.json), with Node.js set up by actions/setup-node, Python set up by actions/setup-python (version 3.x); it installs no packages: add the step that installs what the tests import'
    ])
    expect(actions(await workflowSteps(python))).toEqual([checkout, setupNode, {uses: 'actions/setup-python@v5', with: {'python-version': '3.x'}}])
    expect(notes(makeRun)).toEqual([
      'note: the workflow’s `npx tiers verify --all` runs the project’s test command, `make check && cargo test` (`test.command` in .greenlight/config.json), with Node.js set up by actions/setup-node; the workflow sets up nothing for `make`, `cargo`: if the runner (ubuntu-latest) lacks them, add the steps that install them to .github/workflows/verification-tiers.yml'
    ])
    expect(actions(await workflowSteps(make))).toEqual([checkout, setupNode])
    expect(notes(nodeRun)).toEqual([
      'note: the workflow’s `npx tiers verify --all` runs the project’s test command, `npm test` (`test.command` in .greenlight/config.json), with Node.js set up by actions/setup-node'
    ])
    expect(await fs.readFile(path.join(node, '.github/workflows/verification-tiers.yml'), 'utf8')).toBe(workflow)
  })

  it.concurrent('no test command: said, for Greenlight and for a spec-kit project, whose settings are specs/tiers.json', async () => {
    const [greenlight, speckit] = await Promise.all([
      settled({}),
      project({'specs/001-cart/spec.md': '# Cart\n', 'package.json': '{}\n', 'package-lock.json': '{}\n'})
    ])
    const [greenlightRun, speckitRun] = await Promise.all([greenlight, speckit].map((cwd) => runTiers(cwd, ['init', '--ci', 'github'])))
    expect(notes(greenlightRun)).toEqual([noTestCommand('.greenlight/config.json')])
    expect(notes(speckitRun).filter((line) => !line.startsWith('note: found a spec-kit project'))).toEqual([noTestCommand('specs/tiers.json')])
  })

  it.concurrent('settings that cannot be read stop it before anything is written, named from the project folder', async () => {
    const cwd = await project({'.greenlight/config.json': '{"test": {"command": 5}}\n'})
    const run = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/config.json:1:22: Unexpected `test.command` number `5`, expected the project’s test command as a string\n'
    })
    expect(Object.keys(await snapshot(cwd))).toEqual(['.greenlight/config.json'])
  })
})

describe('tiers init --ci github: what the workflow’s npm ci needs', {timeout: 120_000}, () => {
  it.concurrent('a tarball installed from outside the project is named: a runner’s checkout has no such file', async () => {
    const manifest = {
      devDependencies: {
        '@verification-tiers/cli': 'file:../verification-tiers/release/verification-tiers-cli.tgz',
        'remark-preset-lint-verification-tiers': 'file:vendor/remark-preset-lint-verification-tiers.tgz'
      }
    }
    const outside = await settled({test: {command: 'npm test'}}, {'package.json': JSON.stringify(manifest)})
    expect(notes(await runTiers(outside, ['init', '--ci', 'github'])).slice(1)).toEqual([
      'note: package.json installs @verification-tiers/cli (`file:../verification-tiers/release/verification-tiers-cli.tgz`) from outside the project: a runner’s checkout has no such file, so the workflow’s `npm ci` fails; keep the tarball in the project, such as in vendor/, and install from there (`npm install --save-dev ./vendor/<file>.tgz`)'
    ])
    // Inside the project, with its lockfile: nothing to say.
    manifest.devDependencies['@verification-tiers/cli'] = 'file:vendor/verification-tiers-cli.tgz'
    const inside = await settled({test: {command: 'npm test'}}, {'package.json': JSON.stringify(manifest)})
    expect(notes(await runTiers(inside, ['init', '--ci', 'github'])).slice(1)).toEqual([])
    // Without its lockfile, `npm ci` cannot run.
    const unlocked = await settled({test: {command: 'npm test'}})
    await fs.rm(path.join(unlocked, 'package-lock.json'))
    expect(notes(await runTiers(unlocked, ['init', '--ci', 'github'])).slice(1)).toEqual([
      'note: the workflow’s `npm ci` needs package-lock.json, which is not here: run `npm install` and commit it'
    ])
  })
})

describe('the deprecated `workflow.visual_checkpoint`, standard input a pipe', {timeout: 120_000}, () => {
  it.concurrent('is said by init, contracts and report, once each, and by no command an agent runs again and again', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-init-deprecated-', 'true')
    const init = await runTiersPiped(cwd, ['init'])
    expect({code: init.code, stderr: init.stderr}).toEqual({code: 0, stderr: ''})
    expect(init.stdout.split('\n').filter((line) => line.includes('visual_checkpoint'))).toEqual([`note: .greenlight/config.json: ${exampleDeprecation}`])
    const contracts = await runTiersPiped(cwd, ['contracts'])
    expect({code: contracts.code, stderr: contracts.stderr}).toEqual({code: 0, stderr: `tiers: warning: ${exampleDeprecation}\n`})
    const report = await runTiersPiped(cwd, ['report', 'S-01'])
    expect(report.stdout.split(exampleDeprecation)).toHaveLength(2)
    for (const args of [['status'], ['verify', '--all'], ['checkpoint', 'S-01'], ['stop-hook']]) {
      const run = await runTiersPiped(cwd, args, '{}')
      expect({args, stderr: run.stderr}).toEqual({args, stderr: ''})
    }
  })
})
