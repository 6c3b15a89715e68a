/**
 * End-to-end tests of `tiers init` through the real bin: the files it writes
 * or merges, byte for byte, what it says, that a second run changes nothing,
 * that `--dry-run` writes nothing, and that a file it cannot merge stops it
 * before anything is written. The configuration it writes is then read by the
 * real remark CLI.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {root, runProcess, runTiers} from './helpers/tiers-bin.js'

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

const stopEntry = ['{', '  "hooks": {', '    "Stop": [', '      {', '        "hooks": [', '          {', '            "type": "command",', '            "command": "npx tiers stop-hook"', '          }', '        ]', '      }', '    ]', '  }', '}', ''].join('\n')

/** What a new `.gitignore` holds for a Greenlight project. */
const gitignore = [
  '# verification-tiers: caches and local state',
  '.greenlight/tiers/.contracts-cache.json',
  '.greenlight/tiers/verification-status.json',
  '.greenlight/tiers/stop-hook.json',
  '.greenlight/tiers/*.lock',
  '.greenlight/tiers/.lint-cache',
  ''
].join('\n')

/** The lines init prints for `.gitignore` and what goes to git, on a first run. */
const gitLines = [
  'created .gitignore: ignores 5 caches and local state files',
  'note: commit .greenlight/tiers/<slice>.json (each slice’s answers and history); the contracts cache, the last verification run on this machine, the Stop hook’s count of blocked stops, locks held while a command writes and the lint cache stay out of git'
]

const workflow = [
  'name: Verification tiers',
  'on: [push, pull_request]',
  'jobs:',
  '  tiers:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - uses: actions/setup-node@v4',
  '        with:',
  '          node-version: 20',
  '      - run: npm ci',
  '      - run: npx tiers lint --frail .greenlight',
  '      - run: npx tiers verify --all',
  ''
].join('\n')

describe('tiers init', {timeout: 60_000}, () => {
  it.concurrent('an empty project: writes the configuration and the Stop hook, says so; a second run changes nothing', async () => {
    const cwd = await project()
    const first = await runTiers(cwd, ['init'])
    expect(first).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'created .remarkrc.json: lints markdown with remark-preset-lint-verification-tiers',
        'created .claude/settings.json: the agent’s Stop hook runs `npx tiers stop-hook`',
        ...gitLines,
        ''
      ].join('\n')
    })
    expect(await snapshot(cwd)).toEqual({
      '.claude/settings.json': stopEntry,
      '.gitignore': gitignore,
      '.remarkrc.json': '{\n  "plugins": [\n    "remark-preset-lint-verification-tiers"\n  ]\n}\n'
    })
    const second = await runTiers(cwd, ['init'])
    expect(second).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'unchanged .remarkrc.json: the preset is already there',
        'unchanged .claude/settings.json: the Stop hook already runs tiers stop-hook',
        'unchanged .gitignore: it already ignores the caches and local state',
        gitLines[1],
        'nothing to change',
        ''
      ].join('\n')
    })
  })

  it.concurrent('merges into an existing .remarkrc.json and hooks, keeping what is there', async () => {
    const remarkrc = '{\n    "plugins": [\n        "remark-preset-lint-recommended",\n        ["remark-lint-list-item-indent", "space"]\n    ],\n    "settings": {"bullet": "*"}\n}\n'
    const settings = '{\n  "permissions": {"allow": ["Bash(npm test)"]},\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "echo hi"\n          }\n        ]\n      }\n    ],\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "say done"\n          }\n        ]\n      }\n    ]\n  }\n}\n'
    const cwd = await project({'.remarkrc.json': remarkrc, '.claude/settings.json': settings})
    const run = await runTiers(cwd, ['init'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(
      [
        'updated .remarkrc.json: added remark-preset-lint-verification-tiers to its plugins',
        'updated .claude/settings.json: the agent’s Stop hook runs `npx tiers stop-hook`',
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
    expect((await runTiers(cwd, ['init'])).stderr).toMatch(/\nnothing to change\n$/)
  })

  it.concurrent('package.json#remarkConfig is merged; a hook that already runs tiers stop-hook is kept as the one', async () => {
    const manifest = JSON.stringify({name: 'shop', private: true, remarkConfig: {plugins: ['remark-gfm']}}, undefined, 2) + '\n'
    const settings = JSON.stringify({hooks: {Stop: [{hooks: [{type: 'command', command: 'node node_modules/.bin/tiers stop-hook --dir docs'}]}]}}, undefined, 2) + '\n'
    const cwd = await project({'package.json': manifest, '.claude/settings.json': settings})
    const run = await runTiers(cwd, ['init'])
    expect(run.stderr).toBe(
      [
        'updated package.json: added remark-preset-lint-verification-tiers to the plugins of `remarkConfig`',
        'unchanged .claude/settings.json: the Stop hook already runs tiers stop-hook',
        ...gitLines,
        ''
      ].join('\n')
    )
    const files = await snapshot(cwd)
    expect(JSON.parse(files['package.json'] ?? '')).toEqual({name: 'shop', private: true, remarkConfig: {plugins: ['remark-gfm', 'remark-preset-lint-verification-tiers']}})
    expect(files['.claude/settings.json']).toBe(settings)
    expect(files['.remarkrc.json']).toBeUndefined()
  })

  it.concurrent('a configuration in JavaScript is not rewritten: a note says what to add', async () => {
    const cwd = await project({'.remarkrc.mjs': 'export default {plugins: []}\n'})
    const run = await runTiers(cwd, ['init'])
    expect(run.code).toBe(0)
    expect(run.stderr.split('\n')[0]).toBe('note: .remarkrc.mjs is read first: add `remark-preset-lint-verification-tiers` to its plugins yourself')
    expect((await snapshot(cwd))['.remarkrc.mjs']).toBe('export default {plugins: []}\n')
  })

  it.concurrent('--ci github adds the workflow once; an existing different workflow is left as it is', async () => {
    const cwd = await project()
    const run = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(run.stderr.split('\n').slice(4)).toEqual([
      'created .github/workflows/verification-tiers.yml: runs `npx tiers lint --frail .greenlight` and `npx tiers verify --all` on every push and pull request',
      'note: .greenlight does not exist yet: the workflow’s `tiers lint` fails until it holds the contracts',
      ''
    ])
    expect((await snapshot(cwd))['.github/workflows/verification-tiers.yml']).toBe(workflow)
    expect((await runTiers(cwd, ['init', '--ci', 'github'])).stderr.split('\n')[4]).toBe('unchanged .github/workflows/verification-tiers.yml: the workflow is already there')
    const other = await project({'.github/workflows/verification-tiers.yml': 'name: mine\n'})
    const kept = await runTiers(other, ['init', '--ci', 'github'])
    expect(kept.stderr).toContain('note: .github/workflows/verification-tiers.yml exists and differs: left as it is')
    expect((await snapshot(other))['.github/workflows/verification-tiers.yml']).toBe('name: mine\n')
  })

  it.concurrent('--dry-run prints the diff and writes nothing', async () => {
    const cwd = await project({'.remarkrc.json': '{"plugins": []}\n'})
    const before = await snapshot(cwd)
    const run = await runTiers(cwd, ['init', '--dry-run'])
    expect(await snapshot(cwd)).toEqual(before)
    expect(run.code).toBe(0)
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
        ...stopEntry.split('\n').slice(0, -1).map((line) => '+' + line),
        '--- /dev/null',
        '+++ b/.gitignore',
        '@@ -0,0 +1,6 @@',
        ...gitignore.split('\n').slice(0, -1).map((line) => '+' + line),
        ''
      ].join('\n')
    )
    expect(run.stderr).toBe(
      [
        'would update .remarkrc.json: added remark-preset-lint-verification-tiers to its plugins',
        'would create .claude/settings.json: the agent’s Stop hook runs `npx tiers stop-hook`',
        gitLines[0]!.replace('created', 'would create'),
        gitLines[1],
        ''
      ].join('\n')
    )
  })

  it.concurrent('a file it cannot merge stops it before anything is written: one line, exit 2', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{'.claude/settings.json': '{"hooks": '}, 'tiers: .claude/settings.json: Unexpected text that is not JSON'],
      [{'.claude/settings.json': '{"hooks": 5}'}, 'tiers: .claude/settings.json: Unexpected `hooks` that is not an object, expected an object of hook events'],
      [{'.claude/settings.json': '{"hooks": {"Stop": {}}}'}, 'tiers: .claude/settings.json: Unexpected `hooks.Stop` that is not a list, expected a list of hook entries'],
      [{'.remarkrc.json': '{"plugins": "x"}'}, 'tiers: .remarkrc.json: Unexpected `plugins` in the configuration that is not a list, expected a list of plugins']
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
    expect(unknown).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected option `--force`, expected one of --ci, --dry-run, -h/--help (see tiers init --help)\n'})
    expect(near).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected option `--dryrun`, expected `--dry-run` (see tiers init --help)\n'})
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: tiers init \[options\]\n/)
    expect(await snapshot(cwd)).toEqual({})
  })

  it.concurrent('the configuration it writes is what the remark CLI reads', async () => {
    const cwd = await project({'CONTRACTS.md': '### C-01: CartTotal\n\n**Verification:** Verify\n**Acceptance Criteria:**\n- The total includes tax\n'})
    await fs.symlink(path.join(root, 'node_modules'), path.join(cwd, 'node_modules'), 'dir')
    expect((await runTiers(cwd, ['init'])).code).toBe(0)
    const remark = await runProcess(path.join(root, 'node_modules', '.bin', 'remark'), ['--no-color', '--no-stdout', 'CONTRACTS.md'], {cwd})
    expect(remark.code).toBe(1)
    expect(remark.stderr).toContain('verification-tier')
  })
})
