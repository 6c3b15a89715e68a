/**
 * The stop hook and the checkpoint fail closed, end to end through the cli's
 * `main` in the test process, and through the real bin where git hangs and
 * is stopped at its time limit: every slice in progress is judged whether or
 * not it has a run; the project is found from the agent’s folder upward; a
 * project folder whose contracts cannot be read blocks; an edit made while
 * `tiers verify` runs, a git error, a git call over its time limit, a file
 * git is told to skip, an untracked file edited to the same size and time,
 * or a changed test command outside git is never taken for a fresh run; a
 * counts file with bad values lets the valve fire; a stray lock file costs
 * nothing.
 *
 * Each scenario writes its own small project in a temporary folder, or
 * copies the one project with S-01 verified (see `verifiedCopy`).
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {execFile} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, git, runTiers as runBin} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []
const execFileAsync = promisify(execFile)
const unix = process.platform !== 'win32'

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** S-01 is auto with a passing check; S-02 is verify, with a failing check and a criterion for a person. */
const contracts = `# Contracts

## S-01: Build

### C-01: Build

**Slice:** S-01
**Verification:** auto
**Acceptance Criteria:**
- The build passes -- verified by: \`test -f src/app.txt\`

## S-02: Checkout

### C-02: Checkout

**Slice:** S-02
**Verification:** verify
**Acceptance Criteria:**
- The total is shown -- verified by: \`grep -q total src/app.txt\`
- The page reads well to a person
`

/** A scratch project: `.greenlight` with the contracts above and `config.json`, `src/app.txt`; committed in git unless `commit` is false. */
async function scratch({commit = true, files = {}}: {commit?: boolean; files?: Record<string, string>} = {}): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-fail-closed-')))
  folders.push(folder)
  const all: Record<string, string> = {
    '.greenlight/CONTRACTS.md': contracts,
    '.greenlight/config.json': JSON.stringify({test: {command: 'test -f src/app.txt'}}),
    'src/app.txt': 'app\n',
    ...files
  }
  for (const [file, text] of Object.entries(all)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), {recursive: true})
    await fs.writeFile(path.join(folder, file), text)
  }
  if (commit) {
    await git(folder, 'init', '-q')
    await git(folder, 'add', '-A')
    await git(folder, 'commit', '-q', '-m', 'scratch')
  }
  return folder
}

/** The time of the untracked `src/notes.txt` beside the verified project. */
const notesTime = new Date('2024-01-01T00:00:00Z')
let verified: Promise<string> | undefined

/**
 * A copy (times kept) of a scratch project with S-01 verified, and an
 * untracked `src/notes.txt` of a set time that the run saw: the project is
 * verified once for the file, since `tiers verify` lints the contract files,
 * the dearest part of a scenario. A run records the contents, HEAD and the
 * contracts, not the folder: it is as fresh in a copy (`afterVerify` checks).
 */
async function verifiedCopy(): Promise<string> {
  verified ??= (async () => {
    const folder = await scratch()
    const notes = path.join(folder, 'src', 'notes.txt')
    await fs.writeFile(notes, 'aaaa\n')
    await fs.utimes(notes, notesTime, notesTime)
    const run = await runTiers(folder, ['verify', 'S-01'])
    if (run.code !== 0) throw new Error(`Unexpected exit code ${run.code} of tiers verify S-01, expected 0:\n${run.stdout}${run.stderr}`)
    return folder
  })()
  const source = await verified
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-fail-closed-')))
  folders.push(folder)
  await fs.cp(source, folder, {recursive: true, preserveTimestamps: true})
  return folder
}

/** `tiers stop-hook` in `cwd`, told `input`: the cli's `main` in this process, or with `run` the real bin (`runBin`). */
function hook(
  folder: string,
  input: Record<string, unknown> = {session_id: 's', cwd: folder},
  env: Record<string, string | undefined> = {},
  cwd = folder,
  run: typeof runTiers = runTiers
): Promise<Run> {
  return run(cwd, ['stop-hook'], JSON.stringify(input), env)
}

/** The hook’s answer, parsed, after checking it exited 0 with nothing on stderr. */
async function answerOf(run: Promise<Run>, check: typeof expect = expect): Promise<Record<string, string>> {
  const done = await run
  check({code: done.code, stderr: done.stderr}).toEqual({code: 0, stderr: ''})
  return JSON.parse(done.stdout) as Record<string, string>
}

/** `text` as a literal part of a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A stale slice as the block says it: in the words of `tiers checkpoint`, the run’s time aside. */
const staleOf = (slice: string, why: string) => `VERIFICATION STALE — Slice ${slice}\n\nThe latest run (<time>) passed, but since then ${why}.`
const staleIn = (slice: string, why: string | RegExp) =>
  new RegExp(
    `\\nVERIFICATION STALE — Slice ${literal(slice)}\\n\\nThe latest run \\(\\d{4}-[\\d:.T-]+Z\\) passed, but since then ${typeof why === 'string' ? literal(why) : why.source}\\.\\n`
  )
const withoutTimes = (text: string) => text.replace(/The latest run \(\d{4}-[\d:.T-]+Z\)/g, 'The latest run (<time>)')
const missingOf = (slice: string) =>
  `VERIFICATION MISSING — Slice ${slice}\n\nNo verification run is recorded for this slice: the checkpoint opens only\non a passing run.`
const runAll =
  'Run tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.'
/** What the hook says of the verified project (`verifiedCopy`): S-02 was never verified; S-01’s run stands. */
const s02NeverVerified = {
  decision: 'block',
  reason: `HOLD: Cannot stop - verification not run.\n\n${missingOf('S-02: Checkout')}\n\n${runAll}\nCriteria remaining:\n  - C-02.1 (checked by its command): The total is shown\n  - C-02.2 (for a person at the checkpoint): The page reads well to a person`
}

describe.concurrent('the stop hook judges the work, not the records', () => {
  it('blocks while a slice never verified remains, though every recorded run passed', async ({expect}) => {
    const folder = await verifiedCopy()
    expect(await answerOf(hook(folder), expect)).toEqual(s02NeverVerified)
  })

  it('says a run from before an edit is stale, with the slice’s criteria, as the checkpoint does', async ({expect}) => {
    const folder = await scratch({files: {'src/app.txt': 'app total\n'}})
    expect((await runTiers(folder, ['verify', '--all'])).code).toBe(0)
    expect(await answerOf(hook(folder), expect)).toEqual({
      systemMessage: 'All automated criteria pass. For a human to check:\n  - C-02.2: The page reads well to a person'
    })
    await fs.appendFile(path.join(folder, 'src', 'app.txt'), 'edited\n')
    const answer = await answerOf(hook(folder), expect)
    expect({...answer, reason: withoutTimes(answer.reason!)}).toEqual({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification stale.\n\n${staleOf('S-01: Build', 'uncommitted changes differ (src/app.txt edited)')}\n\n${staleOf('S-02: Checkout', 'uncommitted changes differ (src/app.txt edited)')}\n\n${runAll}\nCriteria remaining:\n  - C-01.1 (checked by its command): The build passes\n  - C-02.1 (checked by its command): The total is shown\n  - C-02.2 (for a person at the checkpoint): The page reads well to a person`
    })
    // The checkpoint says the same of S-02, word for word.
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-02'])
    expect(checkpoint.code).toBe(1)
    expect(withoutTimes(checkpoint.stdout)).toBe(
      `${staleOf('S-02: Checkout', 'uncommitted changes differ (src/app.txt edited)')}\n\nRun \`tiers verify S-02\`, then \`tiers checkpoint S-02\` again.\n`
    )
  })

  it('finds the project from the hook’s `cwd` in a subfolder, or from its own folder there', async ({expect}) => {
    const folder = await scratch()
    const src = path.join(folder, 'src')
    const blocked = {
      decision: 'block',
      reason: expect.stringMatching(
        /^HOLD: Cannot stop - verification not run\.\n\nVERIFICATION MISSING — Slice S-01: Build\n[\s\S]*\nVERIFICATION MISSING — Slice S-02: Checkout\n/
      )
    }
    expect(await answerOf(hook(folder, {session_id: 's', cwd: src}, {}, os.tmpdir()), expect)).toEqual(blocked)
    expect(await answerOf(hook(folder, {session_id: 't'}, {}, src), expect)).toEqual(blocked)
    const counts = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'), 'utf8'))
    expect(Object.keys(counts.sessions).sort()).toEqual(['s', 't'])
  })

  it('never lets a stray `.greenlight` file where the agent works hide the project CLAUDE_PROJECT_DIR names: it blocks, naming the file', async ({expect}) => {
    const folder = await scratch()
    const stray = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-fail-closed-')))
    folders.push(stray)
    await fs.writeFile(path.join(stray, '.greenlight'), 'not a folder\n')
    // Alone, it lets the agent stop: its blocks could not be counted.
    expect((await answerOf(hook(stray, {session_id: 's', cwd: stray}), expect)).systemMessage).toMatch(
      /^WARNING: .*\.greenlight: Unexpected file where the project folder should be/
    )
    // Beside a project, the project counts the blocks, and the file blocks as a project that cannot be read.
    const answer = await answerOf(hook(stray, {session_id: 's', cwd: stray}, {CLAUDE_PROJECT_DIR: folder}), expect)
    expect(answer.decision).toBe('block')
    expect(answer.reason).toMatch(/^HOLD: Cannot stop - verification cannot be checked\.\n/)
    expect(answer.reason).toContain(path.join(stray, '.greenlight'))
    const counts = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'), 'utf8'))
    expect(Object.keys(counts.sessions)).toEqual(['s'])
  })

  it('blocks on a project folder whose contracts it cannot read (an unclosed `<!--` above them), naming the folder', async ({expect}) => {
    const folder = await scratch({files: {'.greenlight/CONTRACTS.md': `<!--\n${contracts}`}})
    const answer = await answerOf(hook(folder), expect)
    expect(answer.decision).toBe('block')
    expect(answer.reason).toMatch(/^HOLD: Cannot stop - verification cannot be checked\.\n/)
    expect(answer.reason).toContain(path.join(folder, '.greenlight'))
  })

  it('lets the agent stop with a warning, creating nothing, where --dir names no folder', async ({expect}) => {
    const folder = await scratch()
    const missing = path.join(folder, 'elsewhere', '.greenlight')
    const run = await runTiers(folder, ['stop-hook', '--dir', missing], JSON.stringify({session_id: 's', cwd: folder}))
    expect(run).toEqual({
      code: 0,
      stdout: `${JSON.stringify({systemMessage: `WARNING: ${missing}: no such project folder, expected a folder holding CONTRACTS.md; the stop hook cannot check the work or count its blocks, so it lets the agent stop.`})}\n`,
      stderr: ''
    })
    await expect(fs.access(path.join(folder, 'elsewhere'))).rejects.toThrow()
  })
})

describe.concurrent('freshness that cannot be fooled', () => {
  it('records a run during which a source changed as not fresh, and says so', async ({expect}) => {
    const folder = await scratch({files: {'.greenlight/config.json': JSON.stringify({test: {command: 'echo total >> src/app.txt'}})}})
    const run = await runTiers(folder, ['verify', 'S-02'])
    const why = 'the sources changed while the checks ran (src/app.txt edited; if the checks write it themselves, name it in `freshness.exclude`)'
    expect(run.stdout).toContain(
      `\nNot fresh: ${why}, so this run proves nothing for the checkpoint.\n  Run tiers verify S-02 again while nothing else changes the files\n`
    )
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-02'])
    expect(checkpoint.code).toBe(1)
    expect(checkpoint.stdout).toContain(`passed, but since then ${why}.`)
  })

  /**
   * In a copy of the project with S-01 verified, whose run the hook takes as fresh, do `change`, and give the hook’s
   * answer after it; the hook runs as `run` does (the cli's `main` in this process, or the real bin: `runBin`).
   */
  async function afterVerify(change: (folder: string) => Promise<void>, env: Record<string, string> = {}, run: typeof runTiers = runTiers) {
    const folder = await verifiedCopy()
    expect(await answerOf(hook(folder, {session_id: 'before', cwd: folder}, env, folder, run), expect)).toEqual(s02NeverVerified)
    await change(folder)
    return {folder, answer: await answerOf(hook(folder, {session_id: 's', cwd: folder}, env, folder, run), expect)}
  }

  it('a tracked file replaced by a FIFO: git fails, so nothing is fresh', async ({expect, skip}) => {
    if (!unix) return skip('no FIFOs')
    const {answer} = await afterVerify(async (folder) => {
      await fs.rm(path.join(folder, 'src', 'app.txt'))
      await execFileAsync('mkfifo', [path.join(folder, 'src', 'app.txt')])
    })
    expect(answer.reason).toMatch(staleIn('S-01: Build', /the sources cannot be fingerprinted: `git diff` failed \(exit code 128: .*\)/))
  })

  it('a diff driver of the repository’s that fails or hides the edit: the edit shows all the same', async ({expect}) => {
    const {answer} = await afterVerify(async (folder) => {
      await fs.writeFile(path.join(folder, '.git', 'info', 'attributes'), '* diff=hidden\n')
      await git(folder, 'config', 'diff.hidden.command', 'false')
      await git(folder, 'config', 'diff.hidden.textconv', 'true')
      await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'edited\n')
    })
    expect(answer.reason).toMatch(staleIn('S-01: Build', 'uncommitted changes differ (src/app.txt edited)'))
  })

  it('an edit of a file marked --assume-unchanged', async ({expect}) => {
    const {answer} = await afterVerify(async (folder) => {
      await git(folder, 'update-index', '--assume-unchanged', 'src/app.txt')
      await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'edited\n')
    })
    expect(answer.reason).toMatch(staleIn('S-01: Build', 'uncommitted changes differ (src/app.txt edited)'))
  })

  it('an untracked file edited to the same size and time', async ({expect}) => {
    // `src/notes.txt`, untracked, held `aaaa` at `notesTime` when S-01 was verified.
    const {answer} = await afterVerify(async (folder) => {
      const file = path.join(folder, 'src', 'notes.txt')
      expect(await fs.readFile(file, 'utf8')).toBe('aaaa\n')
      expect((await fs.stat(file)).mtime).toEqual(notesTime)
      await fs.writeFile(file, 'bbbb\n')
      await fs.utimes(file, notesTime, notesTime)
    })
    expect(answer.reason).toMatch(staleIn('S-01: Build', 'uncommitted changes differ (src/notes.txt edited)'))
  })

  it('a FIFO at .git/info/exclude: git is stopped at its time limit and nothing is fresh; one named .gitignore is no hang, as no .gitignore is read', async ({
    expect,
    skip
  }) => {
    if (!unix) return skip('no FIFOs')
    const env = {TIERS_GIT_TIMEOUT_SECONDS: '1'}
    // Through the real bin: a hang ended by a time limit, the stop hook's and the checkpoint's in processes of their own.
    const {folder, answer} = await afterVerify(
      async (folder) => {
        await fs.rm(path.join(folder, '.git', 'info', 'exclude'), {force: true})
        await execFileAsync('mkfifo', [path.join(folder, '.git', 'info', 'exclude')])
      },
      env,
      runBin
    )
    expect(answer.reason).toMatch(staleIn('S-01: Build', 'the sources cannot be fingerprinted: `git diff` took longer than 1 s and was stopped'))
    const status = await runBin(folder, ['checkpoint', 'S-02'], '', env)
    expect(status.code).toBe(1)
    // A FIFO is no file git lists: nothing changed for the fingerprint.
    const ignore = await afterVerify(
      async (folder) => {
        await execFileAsync('mkfifo', [path.join(folder, 'src', '.gitignore')])
      },
      env,
      runBin
    )
    expect(ignore.answer).toEqual(s02NeverVerified)
  })

  it('outside git, a changed test command (or a file it names) makes the run stale', async ({expect}) => {
    const folder = await scratch({
      commit: false,
      files: {'check.sh': 'test -f src/app.txt\n', 'src/app.txt': 'total\n', '.greenlight/config.json': JSON.stringify({test: {command: 'sh check.sh'}})}
    })
    expect((await runTiers(folder, ['verify', 'S-02'])).code).toBe(0)
    expect((await runTiers(folder, ['checkpoint', 'S-02'])).stdout).toMatch(/^ALL TESTS PASSING — Slice S-02: Checkout\n/)
    await fs.writeFile(path.join(folder, 'check.sh'), 'true\n')
    const script = await runTiers(folder, ['checkpoint', 'S-02'])
    expect({code: script.code, head: script.stdout.split('\n')[0]}).toEqual({code: 1, head: 'VERIFICATION STALE — Slice S-02: Checkout'})
    await fs.writeFile(path.join(folder, 'check.sh'), 'test -f src/app.txt\n')
    expect((await runTiers(folder, ['checkpoint', 'S-02'])).code).toBe(0)
    await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), JSON.stringify({test: {command: 'true'}}))
    const command = await runTiers(folder, ['checkpoint', 'S-02'])
    expect({code: command.code, head: command.stdout.split('\n')[0]}).toEqual({code: 1, head: 'VERIFICATION STALE — Slice S-02: Checkout'})
  })
})

describe.concurrent('the stop hook’s own files', () => {
  it('takes a counts file of the right shape with bad values for an unreadable one: the valve fires, naming it', async ({expect}) => {
    for (const entry of [
      {blocks: 'x', at: 'x'},
      {blocks: -1000000, at: '2025-01-01T00:00:00.000Z'},
      {blocks: 1.5, at: '2025-01-01T00:00:00.000Z'}
    ]) {
      const folder = await scratch()
      const file = path.join(folder, '.greenlight', 'tiers', 'stop-hook.json')
      await fs.mkdir(path.dirname(file))
      await fs.writeFile(file, JSON.stringify({version: 1, sessions: {s1: entry}}))
      expect(await answerOf(hook(folder, {session_id: 's1', cwd: folder}), expect)).toEqual({
        systemMessage: `WARNING: ${file}: Unexpected entry for session "s1", expected \`blocks\` (a whole number of 0 or more) and \`at\` (a time); the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`
      })
    }
  })

  it('removes a stray file at the lock’s path and counts the block', async ({expect}) => {
    const folder = await scratch()
    const file = path.join(folder, '.greenlight', 'tiers', 'stop-hook.json')
    await fs.mkdir(path.dirname(file))
    await fs.writeFile(`${file}.lock`, '')
    const answer = await answerOf(hook(folder), expect)
    expect(answer.decision).toBe('block')
    expect(JSON.parse(await fs.readFile(file, 'utf8')).sessions.s.blocks).toBe(1)
    await expect(fs.access(`${file}.lock`)).rejects.toThrow()
  })
})
