/**
 * Freshness covers every file the checks could read (issue 38, item 3),
 * end to end through the cli's `main`, each class in a real git
 * repository (or a plain folder) of its own in the temporary folder:
 *
 * - outside git, every file of the project tree is a source, not only those
 *   the test command names; the default output folders are left out, and
 *   `tiers verify` says which;
 * - in git, a file git ignores and an untracked file are sources as a
 *   tracked one is; what `freshness.exclude` names is left out;
 * - a broken repository (a worktree whose folder in the main repository was
 *   deleted, or pruned) is a git error: every run is stale, with git’s words;
 *   a detached HEAD is no error;
 * - the files the checks write are no trap: a report with a new name each
 *   run, or one written again under the same name, is named as written by the
 *   checks and the checkpoint opens; an edit of a source after it still
 *   closes it; an edit, while the checks ran, of a file that was there before
 *   names the file and how to leave it out.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, git} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const contracts = `# Contracts

## S-01: Checkout

### C-01: Checkout

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- The total is shown -- verified by: \`grep -q total src/app.txt\`
`

/** A temporary folder (its real path), removed after the tests. */
async function tempFolder(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-freshness-')))
  folders.push(folder)
  return folder
}

/** Write `files` (path from `folder`: text) into `folder`. */
async function write(folder: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), {recursive: true})
    await fs.writeFile(path.join(folder, file), text)
  }
}

/** A new repository in `folder` with its own user, and everything in it committed. */
async function commitAll(folder: string): Promise<void> {
  await git(folder, 'init', '-q', '-b', 'main')
  await git(folder, 'config', 'user.name', 'Tiers Test')
  await git(folder, 'config', 'user.email', 'tiers@example.com')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'checkout')
}

/** A project: `.greenlight` with S-01 and `config.json` (`test.command` `command`, and `settings`), `src/app.txt`, and `files`; in git unless `inGit` is false. */
async function project({
  command = 'test -f src/app.txt',
  settings = {},
  files = {},
  inGit = true
}: {
  command?: string
  settings?: Record<string, unknown>
  files?: Record<string, string>
  inGit?: boolean
} = {}): Promise<string> {
  const folder = await tempFolder()
  await write(folder, {
    '.greenlight/CONTRACTS.md': contracts,
    '.greenlight/config.json': JSON.stringify({test: {command}, ...settings}),
    'src/app.txt': 'total\n',
    ...files
  })
  if (inGit) await commitAll(folder)
  return folder
}

/** `tiers checkpoint S-01` through the cli's `main`: its exit code and first line. */
async function checkpoint(folder: string): Promise<{code: number | null; head: string}> {
  const run = await runTiers(folder, ['checkpoint', 'S-01'])
  return {code: run.code, head: run.stdout.split('\n')[0] ?? ''}
}

const passing = {code: 0, head: 'ALL TESTS PASSING — Slice S-01: Checkout'}

/** The whole refusal of a stale checkpoint, `why` being what changed since the run. */
const stale = (why: string) => ({
  code: 1,
  stdout: `VERIFICATION STALE — Slice S-01: Checkout

The latest run (<time>) passed, but since then ${why}.

Run \`tiers verify S-01\`, then \`tiers checkpoint S-01\` again.
`,
  stderr: ''
})

/** `tiers checkpoint S-01` through the cli's `main`, the run’s time replaced by `<time>`. */
async function refusal(folder: string): Promise<{code: number | null; stdout: string; stderr: string}> {
  const run = await runTiers(folder, ['checkpoint', 'S-01'])
  return {...run, stdout: run.stdout.replace(/\(\d{4}-\d{2}-\d{2}T[\d:.]+Z\)/, '(<time>)')}
}

/** `tiers verify S-01` through the cli's `main`, after checking it passed with nothing on stderr: its output. */
async function verify(folder: string, args: string[] = []): Promise<string> {
  const run = await runTiers(folder, ['verify', 'S-01', ...args])
  expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
  return run.stdout
}

/** The end of `tiers verify S-01`’s summary: what to do next, and the notes on the fingerprint. */
const tail = (stdout: string) => stdout.slice(stdout.indexOf('\nSummary: '))

describe.concurrent('freshness covers every file the checks could read', () => {
  it('outside git: every file of the tree is a source, the default output folders are left out and listed', async ({expect}) => {
    const folder = await project({inGit: false, files: {'docs/notes.md': 'notes\n', 'node_modules/lib/index.js': 'one\n', 'coverage/lcov.info': 'one\n'}})
    expect(tail(await verify(folder))).toBe(`
Summary: 3/3 automated checks pass

Next: tiers checkpoint S-01

Left out of the fingerprint (the defaults and \`freshness.exclude\`): coverage/, node_modules/
`)
    expect(await checkpoint(folder)).toEqual(passing)
    // Installed packages and coverage change without a word.
    await fs.writeFile(path.join(folder, 'node_modules', 'lib', 'index.js'), 'two\n')
    await fs.writeFile(path.join(folder, 'coverage', 'lcov.info'), 'two\n')
    expect(await checkpoint(folder)).toEqual(passing)
    // A file the test command does not name is a source all the same.
    await fs.writeFile(path.join(folder, 'docs', 'notes.md'), 'edited\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (docs/notes.md edited)'))
    await fs.writeFile(path.join(folder, 'docs', 'notes.md'), 'notes\n')
    expect(await checkpoint(folder)).toEqual(passing)
    // And a new one.
    await fs.writeFile(path.join(folder, 'docs', 'more.md'), 'more\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (docs/more.md added)'))
  })

  it('an ignored file edited after the run makes it stale; undone, the checkpoint opens again', async ({expect}) => {
    const folder = await project({files: {'.gitignore': '*.local\n'}})
    await write(folder, {'settings.local': 'debug=false\n'})
    expect(await git(folder, 'status', '--porcelain')).toBe('')
    await verify(folder)
    expect(await checkpoint(folder)).toEqual(passing)
    await fs.writeFile(path.join(folder, 'settings.local'), 'debug=true\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (settings.local edited)'))
    await fs.writeFile(path.join(folder, 'settings.local'), 'debug=false\n')
    expect(await checkpoint(folder)).toEqual(passing)
    // A new ignored file too.
    await write(folder, {'other.local': 'x\n'})
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (other.local added)'))
  })

  it('an untracked file edited after the run makes it stale', async ({expect}) => {
    const folder = await project()
    await write(folder, {'src/draft.txt': 'draft\n'})
    await verify(folder)
    expect(await checkpoint(folder)).toEqual(passing)
    await fs.writeFile(path.join(folder, 'src', 'draft.txt'), 'draft, edited\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (src/draft.txt edited)'))
  })

  it('what `freshness.exclude` names is left out, tracked or not, and listed; the rest is still seen', async ({expect}) => {
    const folder = await project({
      settings: {freshness: {exclude: ['fixtures/generated/', '*.snap']}},
      files: {'fixtures/generated/a.json': '{}\n', 'src/app.snap': 'one\n'}
    })
    await write(folder, {'fixtures/generated/b.json': '{}\n'})
    const run = await runTiers(folder, ['verify', 'S-01', '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).verification_run.left_out).toEqual(['fixtures/generated/', 'src/app.snap'])
    await fs.writeFile(path.join(folder, 'fixtures', 'generated', 'a.json'), '{"edited": true}\n')
    await fs.writeFile(path.join(folder, 'src', 'app.snap'), 'two\n')
    expect(await checkpoint(folder)).toEqual(passing)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'total, edited\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (src/app.txt edited)'))
  })

  it('a broken repository is a git error, not “outside git”: a worktree whose folder was deleted, or pruned, makes every run stale', async ({expect}) => {
    const main = await project()
    const parent = path.dirname(main)
    const worktrees: string[] = []
    for (const name of ['deleted', 'pruned']) {
      const worktree = path.join(parent, `${path.basename(main)}-${name}`)
      folders.push(worktree)
      worktrees.push(worktree)
      await git(main, 'worktree', 'add', '-q', worktree)
      await verify(worktree)
      expect(await checkpoint(worktree)).toEqual(passing)
    }
    const [deleted, pruned] = worktrees as [string, string]
    // The worktree’s folder in the main repository is deleted.
    await fs.rm(path.join(main, '.git', 'worktrees', path.basename(deleted)), {recursive: true})
    // The worktree is moved away, pruned, and moved back.
    await fs.rename(pruned, `${pruned}-away`)
    await git(main, 'worktree', 'prune')
    await fs.rename(`${pruned}-away`, pruned)
    for (const worktree of worktrees) {
      const fatal = `fatal: not a git repository: ${path.join(main, '.git', 'worktrees', path.basename(worktree))}`
      const why = `the sources cannot be fingerprinted: \`git rev-parse\` failed (exit code 128: ${fatal})`
      // Nor can the slice’s committed history be compared: the checkpoint says that first.
      const history = `.greenlight/tiers: Unexpected git error (\`git cat-file\` failed (exit code 128: ${fatal})), expected the state files committed at HEAD: without them nothing proves that no answer was lost`
      const unchecked = {
        code: 1,
        stdout: `VERIFICATION UNCHECKED — Slice S-01: Checkout\n\nThe gate could not read or match part of the project:\n  ${history}\n\nFix these, then run \`tiers verify S-01\` and \`tiers checkpoint S-01\` again.\n`,
        stderr: ''
      }
      expect(await refusal(worktree)).toEqual(unchecked)
      // A new run proves nothing either, and says why.
      expect(tail(await verify(worktree))).toBe(`
Summary: 3/3 automated checks pass

Not fresh: ${why}, so this run proves nothing for the checkpoint.
  Run tiers verify S-01 again while nothing else changes the files
`)
      expect(await refusal(worktree)).toEqual(unchecked)
    }
  })

  it('a detached HEAD is no error: the run is fresh on it, and stale once HEAD moves or a file changes', async ({expect}) => {
    const folder = await project()
    const first = await git(folder, 'rev-parse', 'HEAD')
    await write(folder, {'src/more.txt': 'more\n'})
    await git(folder, 'add', '-A')
    await git(folder, 'commit', '-q', '-m', 'more')
    const second = await git(folder, 'rev-parse', 'HEAD')
    await git(folder, 'checkout', '-q', '--detach', first)
    const run = await runTiers(folder, ['verify', 'S-01', '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).verification_run).toMatchObject({git_head: first, worktree: expect.stringMatching(/^[\da-f]{64}$/)})
    expect(JSON.parse(run.stdout).verification_run.unproven).toBeUndefined()
    expect(await checkpoint(folder)).toEqual(passing)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'total, edited\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (src/app.txt edited)'))
    await git(folder, 'checkout', '-q', '--', 'src/app.txt')
    expect(await checkpoint(folder)).toEqual(passing)
    await git(folder, 'checkout', '-q', 'main')
    expect(await refusal(folder)).toEqual(stale(`git HEAD moved (${first.slice(0, 7)} → ${second.slice(0, 7)})`))
  })

  it('a test command that writes a report with a new name each run, and one under the same name: written by the checks, named, and the checkpoint opens; a source edited after still closes it', async ({
    expect
  }) => {
    // Neither report is ignored by git: `git status` shows both.
    const script =
      'mkdir -p reports && echo "<testsuite time=\\"$(date +%s%N)\\"/>" > "reports/junit-$(date +%s%N).xml" && date +%s%N > results.txt && test -f src/app.txt'
    const folder = await project({command: script})
    const reports = async () => (await fs.readdir(path.join(folder, 'reports'))).map((file) => `reports/${file}`)
    const first = await verify(folder)
    const [report] = await reports()
    expect(tail(first)).toBe(`
Summary: 3/3 automated checks pass

Next: tiers checkpoint S-01

Written by the checks, no change to the sources: ${report}, results.txt
`)
    expect(await checkpoint(folder)).toEqual(passing)
    // Again: a new report beside the first, and results.txt written again.
    const second = await verify(folder)
    const added = (await reports()).filter((file) => file !== report)
    expect(added).toHaveLength(1)
    expect(tail(second)).toBe(`
Summary: 3/3 automated checks pass

Next: tiers checkpoint S-01

Written by the checks, no change to the sources: ${added[0]}, results.txt
`)
    expect(await checkpoint(folder)).toEqual(passing)
    // An edit of a source after the run still closes it; so does an edit of a report.
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'total, edited\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (src/app.txt edited)'))
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'total\n')
    expect(await checkpoint(folder)).toEqual(passing)
    await fs.writeFile(path.join(folder, 'results.txt'), 'forged\n')
    expect(await refusal(folder)).toEqual(stale('uncommitted changes differ (results.txt edited)'))
  })

  it('an edit, while the checks ran, of a file that was there before makes the run stale, naming the file; once `freshness.exclude` names it, the checkpoint opens', async ({
    expect
  }) => {
    const folder = await project({command: 'date +%s%N >> build.log && test -f src/app.txt', files: {'.gitignore': '*.log\n'}})
    await write(folder, {'build.log': 'started\n'})
    const why = 'the sources changed while the checks ran (build.log edited; if the checks write it themselves, name it in `freshness.exclude`)'
    expect(tail(await verify(folder))).toBe(`
Summary: 3/3 automated checks pass

Not fresh: ${why}, so this run proves nothing for the checkpoint.
  Run tiers verify S-01 again while nothing else changes the files
`)
    expect(await refusal(folder)).toEqual(stale(why))
    // The status file keeps the reason.
    const status = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8'))
    expect(status.slices['S-01'].verification_run.unproven).toBe(why)
    await fs.writeFile(
      path.join(folder, '.greenlight', 'config.json'),
      JSON.stringify({test: {command: 'date +%s%N >> build.log && test -f src/app.txt'}, freshness: {exclude: ['*.log']}})
    )
    expect(tail(await verify(folder))).toBe(`
Summary: 3/3 automated checks pass

Next: tiers checkpoint S-01

Left out of the fingerprint (the defaults and \`freshness.exclude\`): build.log
`)
    expect(await checkpoint(folder)).toEqual(passing)
  })

  it('refuses a `freshness.exclude` that is no list of paths, naming the file, line and column (exit 2)', async ({expect}) => {
    const folder = await project({inGit: false})
    const config = path.join(folder, '.greenlight', 'config.json')
    const rule =
      'expected a path from the folder holding the project folder (`reports/`, `test/out`) or a name at any depth (`coverage`, `*.xml`), with `*`, `**` and `?` as wildcards'
    const cases: Array<[string, string]> = [
      [
        '{"freshness": {"exclude": "reports"}}',
        '1:27: Unexpected `freshness.exclude` string `"reports"`, expected a list of what to leave out of the fingerprint, such as `["reports/", "*.xml"]`'
      ],
      [
        '{"freshness": {"exclude": ["reports/", "!keep"]}}',
        `1:40: Unexpected \`"!keep"\` (a leading \`!\`: nothing left out can be taken back in) in \`freshness.exclude\`, ${rule}`
      ],
      ['{"freshness": {"exclude": ["**"]}}', `1:28: Unexpected \`"**"\` (every file left out) in \`freshness.exclude\`, ${rule}`],
      ['{"freshness": {"exclude": ["../up"]}}', `1:28: Unexpected \`"../up"\` (an empty, \`.\` or \`..\` folder) in \`freshness.exclude\`, ${rule}`],
      ['{"freshness": {"exclude": [3]}}', `1:28: Unexpected number \`3\` in \`freshness.exclude\`, ${rule}`],
      ['{"freshness": {"exlude": ["reports/"]}}', '1:26: Unexpected key `freshness.exlude`, expected `freshness.exclude` (did you mean `exclude`?)'],
      ['{"freshness": ["reports/"]}', '1:15: Unexpected `freshness` list, expected an object, such as `{"exclude": ["reports/"]}`']
    ]
    for (const [text, message] of cases) {
      await fs.writeFile(config, text)
      expect(await runTiers(folder, ['verify', 'S-01'])).toEqual({code: 2, stdout: '', stderr: `tiers: .greenlight/config.json:${message}\n`})
    }
  })
})
