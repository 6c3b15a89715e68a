/**
 * `sourceFingerprint`: what a run saw of the sources (git’s HEAD and a hash
 * of the uncommitted changes), so a later edit, commit or new file makes the
 * run stale, while staging alone, or tiers’ own state, does not.
 */
import {execFile} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {sourceFingerprint} from '@verification-tiers/evidence'
import {afterAll, describe, it} from 'vitest'

const run = promisify(execFile)
const folders: string[] = []
const exclude = ['.greenlight/tiers']

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function tempFolder(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-fingerprint-'))
  folders.push(folder)
  return folder
}

function git(cwd: string, ...args: string[]) {
  return run('git', ['-c', 'user.name=Tiers Test', '-c', 'user.email=tiers@example.com', '-c', 'commit.gpgsign=false', ...args], {cwd})
}

/** A repository with `src/app.txt` committed, `.greenlight/tiers/` ignored by nothing. */
async function repository(): Promise<string> {
  const folder = await tempFolder()
  await fs.mkdir(path.join(folder, 'src'))
  await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'one\n')
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'init')
  return folder
}

const fingerprint = (folder: string) => sourceFingerprint(folder, exclude)

describe.concurrent('sourceFingerprint', () => {
  it('outside git, hashes the test command and every file of the tree, but the default output folders, which it lists', async ({expect}) => {
    const folder = await tempFolder()
    await fs.writeFile(path.join(folder, 'file.txt'), 'x')
    await fs.writeFile(path.join(folder, 'check.sh'), 'exit 0\n')
    const outside = (command: string) => sourceFingerprint(folder, exclude, {command})
    const first = await outside('sh check.sh --quiet')
    expect(first).toEqual({gitHead: null, worktree: expect.stringMatching(/^[\da-f]{64}$/), unproven: null, leftOut: [], files: expect.any(Map)})
    expect([...first.files.keys()]).toEqual(['check.sh', 'file.txt'])
    expect(await outside('sh check.sh --quiet')).toEqual(first)
    // A file the command does not name is a source all the same.
    await fs.writeFile(path.join(folder, 'file.txt'), 'y')
    const edited = await outside('sh check.sh --quiet')
    expect(edited.worktree).not.toBe(first.worktree)
    expect((await outside('sh check.sh')).worktree).not.toBe(edited.worktree)
    // Installed packages, build output and tiers’ own state are left out; the first two are listed.
    await fs.mkdir(path.join(folder, 'node_modules', 'x'), {recursive: true})
    await fs.writeFile(path.join(folder, 'node_modules', 'x', 'index.js'), 'x')
    await fs.mkdir(path.join(folder, 'packages', 'a', 'dist'), {recursive: true})
    await fs.writeFile(path.join(folder, 'packages', 'a', 'dist', 'a.js'), 'a')
    await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
    await fs.writeFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), '{}')
    const outputs = await outside('sh check.sh --quiet')
    expect(outputs).toEqual({...edited, leftOut: ['node_modules/', 'packages/a/dist/']})
    // What `freshness.exclude` names too.
    const named = await sourceFingerprint(folder, exclude, {command: 'sh check.sh --quiet', freshnessExclude: ['*.txt']})
    expect(named.leftOut).toEqual(['file.txt', 'node_modules/', 'packages/a/dist/'])
    expect([...named.files.keys()]).toEqual(['check.sh'])
  })

  it('gives HEAD and the hash of nothing for a clean checkout, the same each time', async ({expect}) => {
    const folder = await repository()
    const {stdout} = await git(folder, 'rev-parse', 'HEAD')
    const first = await fingerprint(folder)
    expect(first).toEqual({gitHead: stdout.trim(), worktree: expect.stringMatching(/^[\da-f]{64}$/), unproven: null, leftOut: [], files: new Map()})
    expect(await fingerprint(folder)).toEqual(first)
  })

  it('changes with an edit, and is back when the edit is undone', async ({expect}) => {
    const folder = await repository()
    const clean = await fingerprint(folder)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'two\n')
    const edited = await fingerprint(folder)
    expect(edited.gitHead).toBe(clean.gitHead)
    expect(edited.worktree).not.toBe(clean.worktree)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'three\n')
    expect((await fingerprint(folder)).worktree).not.toBe(edited.worktree)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'one\n')
    expect(await fingerprint(folder)).toEqual(clean)
  })

  it('does not change when an edit is only staged', async ({expect}) => {
    const folder = await repository()
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'two\n')
    const edited = await fingerprint(folder)
    await git(folder, 'add', 'src/app.txt')
    expect(await fingerprint(folder)).toEqual(edited)
  })

  it('changes with a deleted file', async ({expect}) => {
    const folder = await repository()
    const clean = await fingerprint(folder)
    await fs.rm(path.join(folder, 'src', 'app.txt'))
    expect((await fingerprint(folder)).worktree).not.toBe(clean.worktree)
  })

  it('changes with a new untracked file, and with its edit', async ({expect}) => {
    const folder = await repository()
    const clean = await fingerprint(folder)
    await fs.writeFile(path.join(folder, 'src', 'new.txt'), 'new\n')
    const added = await fingerprint(folder)
    expect(added.worktree).not.toBe(clean.worktree)
    await fs.writeFile(path.join(folder, 'src', 'new.txt'), 'newer\n')
    expect((await fingerprint(folder)).worktree).not.toBe(added.worktree)
  })

  it('sees ignored files as any other, but leaves out the excluded folder of tiers’ state and the default output folders', async ({expect}) => {
    const folder = await repository()
    await fs.writeFile(path.join(folder, '.gitignore'), '*.log\nnode_modules/\n')
    await git(folder, 'add', '.gitignore')
    await git(folder, 'commit', '-q', '-m', 'ignore logs')
    const clean = await fingerprint(folder)
    await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
    await fs.writeFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), '{}\n')
    await fs.mkdir(path.join(folder, 'node_modules', 'x'), {recursive: true})
    await fs.writeFile(path.join(folder, 'node_modules', 'x', 'index.js'), 'x\n')
    expect(await fingerprint(folder)).toEqual({...clean, leftOut: ['node_modules/']})
    // An ignored file is a source like any other.
    await fs.writeFile(path.join(folder, 'run.log'), 'noise\n')
    const logged = await fingerprint(folder)
    expect(logged.worktree).not.toBe(clean.worktree)
    expect([...logged.files.keys()]).toEqual(['run.log'])
    // The rest of `.greenlight` is a source like any other.
    await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '# Contracts\n')
    expect((await fingerprint(folder)).worktree).not.toBe(logged.worktree)
  })

  it('leaves out what `freshnessExclude` names, tracked or not, and lists it', async ({expect}) => {
    const folder = await repository()
    await fs.mkdir(path.join(folder, 'reports'))
    await fs.writeFile(path.join(folder, 'reports', 'old.xml'), '<old/>\n')
    await git(folder, 'add', '-A')
    await git(folder, 'commit', '-q', '-m', 'a report')
    const named = (at: string) => sourceFingerprint(at, exclude, {freshnessExclude: ['reports/', '*.xml']})
    const clean = await named(folder)
    await fs.writeFile(path.join(folder, 'reports', 'old.xml'), '<edited/>\n')
    await fs.writeFile(path.join(folder, 'reports', 'new.xml'), '<new/>\n')
    await fs.writeFile(path.join(folder, 'src', 'junit.xml'), '<new/>\n')
    expect(await named(folder)).toEqual({...clean, leftOut: ['reports/', 'src/junit.xml']})
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'edited\n')
    expect((await named(folder)).worktree).not.toBe(clean.worktree)
    // An exclusion that is none proves nothing, naming it.
    expect((await sourceFingerprint(folder, exclude, {freshnessExclude: ['!keep']})).unproven).toBe(
      'the sources cannot be fingerprinted: Unexpected `"!keep"` (a leading `!`: nothing left out can be taken back in) in `freshness.exclude`, expected a path from the folder holding the project folder (`reports/`, `test/out`) or a name at any depth (`coverage`, `*.xml`), with `*`, `**` and `?` as wildcards'
    )
  })

  it('moves HEAD with a commit, even an empty one', async ({expect}) => {
    const folder = await repository()
    const before = await fingerprint(folder)
    await git(folder, 'commit', '-q', '--allow-empty', '-m', 'empty')
    const after = await fingerprint(folder)
    expect(after.gitHead).not.toBe(before.gitHead)
    expect(after.gitHead).toMatch(/^[\da-f]{40}$/)
    expect(after.worktree).toBe(before.worktree)
  })

  it('before the first commit, has no HEAD but sees every edit of a staged file', async ({expect}) => {
    const folder = await tempFolder()
    await git(folder, 'init', '-q')
    await fs.writeFile(path.join(folder, 'app.txt'), 'one\n')
    await git(folder, 'add', 'app.txt')
    const staged = await fingerprint(folder)
    expect(staged).toMatchObject({gitHead: null, worktree: expect.stringMatching(/^[\da-f]{64}$/), unproven: null})
    await fs.writeFile(path.join(folder, 'app.txt'), 'two\n')
    const once = await fingerprint(folder)
    expect(once.worktree).not.toBe(staged.worktree)
    await fs.writeFile(path.join(folder, 'app.txt'), 'three\n')
    expect((await fingerprint(folder)).worktree).not.toBe(once.worktree)
  })

  it('sees an edit of a file marked --assume-unchanged or --skip-worktree', async ({expect}) => {
    const folder = await repository()
    await fs.writeFile(path.join(folder, 'src', 'other.txt'), 'a\n')
    await git(folder, 'add', '-A')
    await git(folder, 'commit', '-q', '-m', 'other')
    await git(folder, 'update-index', '--assume-unchanged', 'src/app.txt')
    await git(folder, 'update-index', '--skip-worktree', 'src/other.txt')
    const clean = await fingerprint(folder)
    await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'hidden\n')
    const one = await fingerprint(folder)
    expect(one.worktree).not.toBe(clean.worktree)
    await fs.writeFile(path.join(folder, 'src', 'other.txt'), 'hidden\n')
    expect((await fingerprint(folder)).worktree).not.toBe(one.worktree)
  })

  it('sees an untracked file’s edit that keeps its size and time', async ({expect}) => {
    const folder = await repository()
    const file = path.join(folder, 'src', 'new.txt')
    await fs.writeFile(file, 'aaaa\n')
    const time = new Date('2024-01-01T00:00:00Z')
    await fs.utimes(file, time, time)
    const first = await fingerprint(folder)
    await fs.writeFile(file, 'bbbb\n')
    await fs.utimes(file, time, time)
    expect((await fingerprint(folder)).worktree).not.toBe(first.worktree)
  })

  it('sees an edit inside a submodule, committed there or not', async ({expect}) => {
    const inner = await repository()
    const folder = await repository()
    await git(folder, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'lib')
    await git(folder, 'commit', '-q', '-m', 'submodule')
    const clean = await fingerprint(folder)
    expect(clean.unproven).toBe(null)
    await fs.writeFile(path.join(folder, 'lib', 'src', 'app.txt'), 'dirty\n')
    const dirty = await fingerprint(folder)
    expect(dirty.worktree).not.toBe(clean.worktree)
    await fs.writeFile(path.join(folder, 'lib', 'src', 'new.txt'), 'untracked\n')
    expect((await fingerprint(folder)).worktree).not.toBe(dirty.worktree)
  })

  it('proves nothing when git fails: a tracked file replaced by a FIFO, a broken diff driver', async ({expect, skip}) => {
    if (process.platform === 'win32') return skip('no FIFOs')
    const folder = await repository()
    await fs.rm(path.join(folder, 'src', 'app.txt'))
    await run('mkfifo', [path.join(folder, 'src', 'app.txt')])
    expect(await fingerprint(folder)).toEqual({
      gitHead: null,
      worktree: null,
      unproven: expect.stringMatching(/^the sources cannot be fingerprinted: `git diff` failed \(exit code 128: .*src\/app\.txt.*\)$/),
      leftOut: [],
      files: new Map()
    })
    const other = await repository()
    await fs.writeFile(path.join(other, '.git', 'info', 'attributes'), '* diff=broken\n')
    await git(other, 'config', 'diff.broken.textconv', 'false')
    await git(other, 'config', 'diff.broken.command', 'false')
    await fs.writeFile(path.join(other, 'src', 'app.txt'), 'edited\n')
    // No program of the repository’s speaks for a file: the edit shows as it is.
    const edited = await fingerprint(other)
    expect(edited.unproven).toBe(null)
    await fs.writeFile(path.join(other, 'src', 'app.txt'), 'edited again\n')
    expect((await fingerprint(other)).worktree).not.toBe(edited.worktree)
  })

  it('proves nothing when a git call outlives its time limit (a FIFO read as .git/info/exclude); reads no .gitignore (a FIFO there is no hang)', async ({
    expect,
    skip
  }) => {
    if (process.platform === 'win32') return skip('no FIFOs')
    const folder = await repository()
    await run('mkfifo', [path.join(folder, 'src', '.gitignore')])
    expect((await sourceFingerprint(folder, exclude, {timeoutMs: 500})).unproven).toBe(null)
    await fs.rm(path.join(folder, '.git', 'info', 'exclude'), {force: true})
    await run('mkfifo', [path.join(folder, '.git', 'info', 'exclude')])
    const result = await sourceFingerprint(folder, exclude, {timeoutMs: 500})
    expect(result).toEqual({
      gitHead: null,
      worktree: null,
      unproven: 'the sources cannot be fingerprinted: `git diff` took longer than 0.5 s and was stopped',
      leftOut: [],
      files: new Map()
    })
  })
})
