/**
 * End-to-end tests of the evidence gate: `tiers verify` runs the real
 * commands of `test/fixtures/evidence-project` (a test command, criteria that
 * pass, fail, time out or need a person), prints the summary, JSON or YAML,
 * writes the status file, and `tiers checkpoint` opens only on a fresh
 * passing run: never before a run, after a failure, or once the sources,
 * HEAD or contracts changed.
 *
 * Every scenario runs in its own temporary copy of the fixture,
 * git-initialised and committed, so the fingerprint sees HEAD. Scenarios run
 * concurrently: most of their time is spent in `sleep`. The runs of
 * `tiers verify` whose checks' process groups are the point (a timeout that
 * kills the group, a grandchild with it) run as the real bin, each run a
 * process, so that the checks sleep side by side. What only reads the runs
 * (`tiers checkpoint`), what refuses arguments, and the runs whose point is
 * what they print (the same run as JSON and YAML, the contract check) run the
 * cli's `main` in the test process instead, where a process would cost more
 * than the work: the real bin still opens a checkpoint (on a passing run) and
 * refuses one (with no run), and refuses an argument.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isRunning, readPid} from './helpers/processes.js'
import {builtBin, evidenceProject, git, runTiers} from './helpers/tiers-bin.js'
import {runTiersHere, runTiersPiped} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'
import {parse as parseYaml} from 'yaml'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/**
 * Run the real bin in `cwd`, with `input` on standard input: each run its own process, so that the scenarios' checks
 * (which sleep, and time out) run side by side.
 */
const tiers = (cwd: string, args: string[], input = ''): Promise<Run> => runTiers(cwd, args, input)

/** Run `tiers` in `cwd` as the cli's `main`, in this process (runs take turns): for what takes a moment, such as reading the runs. */
const here = (cwd: string, args: string[]): Promise<Run> => runTiersHere(cwd, args)

/**
 * `tiers` as `tiers` above runs it (standard input a pipe), as the cli's `main` in this process: for a run whose checks
 * sleep or time out, where what it prints is the point, not the checks' processes. Runs take turns.
 */
const piped = (cwd: string, args: string[], input = ''): Promise<Run> => runTiersPiped(cwd, args, input)

/** A temporary copy of the fixture, committed in a new git repository. */
const project = ({commit = true} = {}): Promise<string> => evidenceProject(folders, 'verification-tiers-evidence-', {commit})

const statusFile = (folder: string) => path.join(folder, '.greenlight', 'tiers', 'verification-status.json')

async function readStatus(folder: string): Promise<any> {
  return JSON.parse(await fs.readFile(statusFile(folder), 'utf8'))
}

/** Timestamps and measured durations, which change from run to run. */
const normalize = (text: string) =>
  text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>').replace(/exit code (\d+) in \d+\.\d s/g, 'exit code $1 in <n> s')

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const took = (code: number) => expect.stringMatching(new RegExp(`^exit code ${code} in \\d+\\.\\d s$`))

// The fixture’s commands, as the contracts write them.
const logCommand = `awk 'BEGIN { for (i = 1; i <= 1000; i++) printf "line %094d\\n", i }'`
const answerCommand = 'cat answer.txt; test "$(cat answer.txt)" = 42'
const sleepCommand = 'sleep 2 & echo $! > sleep.pid; wait'
const testCommand = 'sh src/answer.sh > /dev/null'

/** The awk command’s 100,000 bytes: the status file keeps the last 8192, and says how many were cut. */
const logLines = Array.from({length: 1000}, (_, index) => `line ${String(index + 1).padStart(94, '0')}\n`).join('')
const keptLog = `[${100_000 - 8192} bytes cut]\n${logLines.slice(-8192)}`

const s01Failing = `Verification Results — Slice S-01: Answer Service (<time>)
==========================================

✓ test-command: The project’s test command passes  PASS
  Method: bash (${testCommand})
  Details: exit code 0 in <n> s

✓ contracts: The slice’s contracts are found and valid  PASS
  Method: lint
  Details: C-01 AnswerFile: found, no lint errors

✓ C-01.1: The build log is printed in full  PASS
  Method: bash (${logCommand})
  Details: exit code 0 in <n> s

✗ C-01.2: answer.txt holds 42  FAIL
  Method: bash (${answerCommand})
  Details: exit code 1 in <n> s
    41

✗ C-01.3: The answer comes within two seconds  TIMEOUT
  Method: bash (${sleepCommand})
  Details: timed out after 1 s; its process group was killed

? C-01.4: The answer reads well to a person  REQUIRES-HUMAN
  Method: manual
  Details: Please verify: The answer reads well to a person

Summary: 3/5 automated checks pass, 1 for a human to check

Action Required:
  Fix: C-01.2 and C-01.3
  Then run tiers verify S-01 again

Written by the checks, no change to the sources: sleep.pid
`

const s01Passing = `Verification Results — Slice S-01: Answer Service (<time>)
==========================================

✓ test-command: The project’s test command passes  PASS
  Method: bash (${testCommand})
  Details: exit code 0 in <n> s

✓ contracts: The slice’s contracts are found and valid  PASS
  Method: lint
  Details: C-01 AnswerFile: found, no lint errors

✓ C-01.1: The build log is printed in full  PASS
  Method: bash (${logCommand})
  Details: exit code 0 in <n> s

✓ C-01.2: answer.txt holds 42  PASS
  Method: bash (${answerCommand})
  Details: exit code 0 in <n> s

✓ C-01.3: The answer comes within two seconds  PASS
  Method: bash (${sleepCommand})
  Details: exit code 0 in <n> s

? C-01.4: The answer reads well to a person  REQUIRES-HUMAN
  Method: manual
  Details: Please verify: The answer reads well to a person

Summary: 5/5 automated checks pass, 1 for a human to check

Next: tiers checkpoint S-01
`

const checkpointPassing = `ALL TESTS PASSING — Slice S-01: Answer Service

Please verify the output matches your intent.

Acceptance criteria:
  [ ] The build log is printed in full
  [ ] answer.txt holds 42
  [ ] The answer comes within two seconds
  [ ] The answer reads well to a person

Steps to verify:
  1. Run \`sh src/answer.sh\` and read the answer

Does this match what you intended?
  1) Yes — mark complete and continue
  2) No — I'll describe what's wrong
  3) Partially — some criteria met, I'll describe the gaps
`

const checkpointFailed = `VERIFICATION FAILED — Slice S-01: Answer Service

The latest run (<time>) failed:
  - C-01.2: exit code 1 in <n> s
  - C-01.3: timed out after 1 s; its process group was killed

Run \`tiers verify S-01\` once they are fixed, then \`tiers checkpoint S-01\` again.
`

const stale = (changed: string) => `VERIFICATION STALE — Slice S-01: Answer Service

The latest run (<time>) passed, but since then ${changed}.

Run \`tiers verify S-01\`, then \`tiers checkpoint S-01\` again.
`

/**
 * The run of S-01 with `--timeout 1` and answer.txt holding 41, as JSON, YAML
 * and the status file give it; `written` are the files the checks of its
 * `tiers verify` wrote (S-01’s own `sleep.pid`, and those of other slices
 * run with it).
 */
function failingRun(head: string, written = ['sleep.pid']) {
  const command = {level: 'behavioral', method: 'bash', contract: 'C-01'} as const
  return {
    verification_run: {
      timestamp: expect.stringMatching(isoTime),
      slice: 'S-01',
      slice_name: 'Answer Service',
      git_head: head,
      worktree: expect.stringMatching(/^[\da-f]{64}$/),
      contracts_hash: expect.stringMatching(/^sha256:[\da-f]{64}$/),
      timeout_seconds: 1,
      written_by_checks: written
    },
    results: [
      {
        criterion_id: 'test-command',
        contract: null,
        text: 'The project’s test command passes',
        level: 'syntactic',
        status: 'pass',
        method: 'bash',
        command: testCommand,
        exit_code: 0,
        duration_ms: expect.any(Number),
        details: took(0),
        output: null,
        category: null
      },
      {
        criterion_id: 'contracts',
        contract: null,
        text: 'The slice’s contracts are found and valid',
        level: 'contract',
        status: 'pass',
        method: 'lint',
        command: null,
        exit_code: null,
        duration_ms: null,
        details: 'C-01 AnswerFile: found, no lint errors',
        output: null,
        category: null
      },
      {
        ...command,
        criterion_id: 'C-01.1',
        text: 'The build log is printed in full',
        status: 'pass',
        command: logCommand,
        exit_code: 0,
        duration_ms: expect.any(Number),
        details: took(0),
        output: keptLog,
        category: null
      },
      {
        ...command,
        criterion_id: 'C-01.2',
        text: 'answer.txt holds 42',
        status: 'fail',
        command: answerCommand,
        exit_code: 1,
        duration_ms: expect.any(Number),
        details: took(1),
        output: '41\n',
        category: 'acceptance_criteria_unmet'
      },
      {
        ...command,
        criterion_id: 'C-01.3',
        text: 'The answer comes within two seconds',
        status: 'timeout',
        command: sleepCommand,
        exit_code: null,
        duration_ms: expect.any(Number),
        details: 'timed out after 1 s; its process group was killed',
        output: null,
        category: 'tool_failure'
      },
      {
        criterion_id: 'C-01.4',
        contract: 'C-01',
        text: 'The answer reads well to a person',
        level: 'behavioral',
        status: 'requires-human',
        method: 'manual',
        command: null,
        exit_code: null,
        duration_ms: null,
        details: 'Please verify: The answer reads well to a person',
        output: null,
        category: null
      }
    ],
    summary: {total: 6, pass: 3, fail: 1, timeout: 1, manual: 1},
    all_automated_pass: false
  }
}

describe.concurrent('tiers verify and tiers checkpoint', () => {
  // One run of every slice: S-01’s passing run is the evidence its checkpoint is opened and closed on.
  it('runs every slice with --all: the fix passes S-01, S-02 passes, S-03’s own short timeout fails it; S-01’s checkpoint opens, and closes again when a source, HEAD or a contract changes', async ({
    expect
  }) => {
    const folder = await project()
    const head = await git(folder, 'rev-parse', 'HEAD')
    // Fixed, not committed: the run records the worktree as it is.
    await fs.writeFile(path.join(folder, 'answer.txt'), '42\n')
    const run = await tiers(folder, ['verify', '--all', '--timeout', '5'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 1, stderr: ''})
    expect(normalize(run.stdout)).toBe(`${s01Passing.slice(0, -1)}

Verification Results — Slice S-02: Answer Format (<time>)
==========================================

✓ test-command: The project’s test command passes  PASS
  Method: bash (${testCommand})
  Details: exit code 0 in <n> s

✓ contracts: The slice’s contracts are found and valid  PASS
  Method: lint
  Details: C-02 AnswerFormat: found, no lint errors

✓ C-02.1: answer.txt is one line  PASS
  Method: bash (test "$(wc -l < answer.txt)" -eq 1)
  Details: exit code 0 in <n> s

✓ C-02.2: The service prints digits only  PASS
  Method: bash (sh src/answer.sh | grep -qx '[0-9]*')
  Details: exit code 0 in <n> s

Summary: 4/4 automated checks pass

Done: slice S-02 is auto (every contract is auto): no checkpoint waits for it.

Verification Results — Slice S-03: S-03 (<time>)
==========================================

✓ test-command: The project’s test command passes  PASS
  Method: bash (${testCommand})
  Details: exit code 0 in <n> s

✓ contracts: The slice’s contracts are found and valid  PASS
  Method: lint
  Details: C-03 AnswerCache: found, no lint errors

✗ C-03.1: The cache answers within a second  TIMEOUT
  Method: bash (sleep 30 & echo $! > grandchild.pid; wait)
  Details: timed out after 1 s; its process group was killed

✓ C-03.2: The cache warms up within five seconds  PASS
  Method: bash (sleep 2; echo warm | tee cache.log)
  Details: exit code 0 in <n> s

Summary: 3/4 automated checks pass

Action Required:
  Fix: C-03.1
  Then run tiers verify S-03 again

Written by the checks, no change to the sources: cache.log, grandchild.pid, sleep.pid
`)
    const status = await readStatus(folder)
    expect(Object.keys(status.slices)).toEqual(['S-01', 'S-02', 'S-03'])
    expect(Object.values(status.slices).map((entry: any) => [entry.all_automated_pass, entry.verification_run.timeout_seconds])).toEqual([
      [true, 5],
      [true, 5],
      [false, 5]
    ])
    expect(status.slices['S-01']).toMatchObject({
      verification_run: {git_head: head, timeout_seconds: 5},
      summary: {total: 6, pass: 5, fail: 0, timeout: 0, manual: 1},
      all_automated_pass: true
    })
    const timestamp = status.slices['S-01'].verification_run.timestamp
    // Every slice’s run is evidence now, though S-03’s command wrote cache.log after S-01’s ran: the real bin opens S-01’s checkpoint.
    expect(await tiers(folder, ['checkpoint', 'S-01'])).toEqual({code: 0, stdout: checkpointPassing, stderr: ''})
    expect(await here(folder, ['checkpoint', 'S-02'])).toEqual({
      code: 0,
      stdout: 'Slice S-02: Answer Format is auto: every contract is auto, so no checkpoint is needed.\n',
      stderr: ''
    })
    const s03 = await here(folder, ['checkpoint', 'S-03'])
    expect({code: s03.code, stdout: normalize(s03.stdout)}).toEqual({
      code: 1,
      stdout: `VERIFICATION FAILED — Slice S-03: S-03

The latest run (<time>) failed:
  - C-03.1: timed out after 1 s; its process group was killed

Run \`tiers verify S-03\` once they are fixed, then \`tiers checkpoint S-03\` again.
`
    })
    // S-02 again, alone: none of its checks sleeps, and its lint is replayed from the run before.
    const s02 = await here(folder, ['verify', 'S-02', '--json'])
    expect(s02.code).toBe(0)
    expect(JSON.parse(s02.stdout)).toMatchObject({
      verification_run: {slice: 'S-02', timeout_seconds: 60},
      summary: {total: 4, pass: 4, fail: 0, timeout: 0, manual: 0},
      all_automated_pass: true
    })

    // S-01’s checkpoint closes again when a source, HEAD or a contract changes.
    const json = await here(folder, ['checkpoint', 'S-01', '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      evidence: {state: 'fresh', run: timestamp, failures: [], changed: []},
      checkpoint: checkpointPassing.slice(0, -1)
    })

    // A tracked source changes: stale, until it is as the run saw it.
    const source = path.join(folder, 'src', 'answer.sh')
    const original = await fs.readFile(source, 'utf8')
    await fs.writeFile(source, original + '# tuned\n')
    const edited = await here(folder, ['checkpoint', 'S-01'])
    expect({code: edited.code, stdout: normalize(edited.stdout), stderr: edited.stderr}).toEqual({
      code: 1,
      stdout: stale('uncommitted changes differ (src/answer.sh edited)'),
      stderr: ''
    })
    await fs.writeFile(source, original)
    expect(await here(folder, ['checkpoint', 'S-01'])).toEqual({code: 0, stdout: checkpointPassing, stderr: ''})

    // A new commit (of the very fix the run saw) moves HEAD.
    await git(folder, 'commit', '-q', '-am', 'Fix the answer')
    const moved = await git(folder, 'rev-parse', 'HEAD')
    const committed = await here(folder, ['checkpoint', 'S-01'])
    expect({code: committed.code, stdout: normalize(committed.stdout)}).toEqual({
      code: 1,
      stdout: stale(`git HEAD moved (${head.slice(0, 7)} → ${moved.slice(0, 7)})`)
    })
    expect(committed.stdout).not.toContain('ALL TESTS PASSING')
    // Back on the run’s HEAD with the fix only staged: the sources are as the run saw them.
    await git(folder, 'reset', '-q', '--soft', 'HEAD~1')
    expect(await here(folder, ['checkpoint', 'S-01'])).toEqual({code: 0, stdout: checkpointPassing, stderr: ''})

    // A contract changes.
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(contracts, (await fs.readFile(contracts, 'utf8')).replace('reads well to a person', 'reads well to a person on a phone'))
    const changed = await here(folder, ['checkpoint', 'S-01'])
    expect({code: changed.code, stdout: normalize(changed.stdout)}).toEqual({
      code: 1,
      stdout: stale('the contracts changed and uncommitted changes differ (.greenlight/CONTRACTS.md edited)')
    })
    const changedJson = JSON.parse((await here(folder, ['checkpoint', 'S-01', '--json'])).stdout)
    expect(changedJson.evidence).toEqual({
      state: 'stale',
      run: timestamp,
      failures: [],
      changed: ['the contracts changed', 'uncommitted changes differ (.greenlight/CONTRACTS.md edited)']
    })
  })

  it('prints --all as JSON: every run and whether all passed; a frontmatter criterion has its own timeout, and a grandchild that would sleep 30 s is killed', async ({
    expect
  }) => {
    const folder = await project()
    const head = await git(folder, 'rev-parse', 'HEAD')
    const run = await tiers(folder, ['verify', '--all', '--timeout', '1', '--json'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 1, stderr: ''})
    const data = JSON.parse(run.stdout)
    expect(Object.keys(data)).toEqual(['runs', 'problems', 'all_automated_pass', 'warnings'])
    expect(data.problems).toEqual([])
    expect(data.all_automated_pass).toBe(false)
    expect(data.runs.map((entry: any) => [entry.verification_run.slice, entry.summary, entry.all_automated_pass])).toEqual([
      ['S-01', {total: 6, pass: 3, fail: 1, timeout: 1, manual: 1}, false],
      ['S-02', {total: 4, pass: 4, fail: 0, timeout: 0, manual: 0}, true],
      // C-03.2 sets its own 5 s, so `sleep 2` passes under --timeout 1.
      ['S-03', {total: 4, pass: 3, fail: 0, timeout: 1, manual: 0}, false]
    ])
    expect(data.runs[0]).toEqual(failingRun(head, ['cache.log', 'grandchild.pid', 'sleep.pid']))
    expect(new Set(data.runs.map((entry: any) => entry.verification_run.worktree)).size).toBe(1)
    expect((await readStatus(folder)).slices).toEqual(Object.fromEntries(data.runs.map((entry: any) => [entry.verification_run.slice, entry])))

    // S-03: C-03.1 times out under its own 1 s, its grandchild killed with it; C-03.2 passes under its own 5 s.
    expect(isRunning(await readPid(folder, 'grandchild.pid'))).toBe(false)
    const s03 = data.runs[2]
    expect(s03.verification_run.timeout_seconds).toBe(1)
    expect(s03.results.slice(2)).toEqual([
      {
        criterion_id: 'C-03.1',
        contract: 'C-03',
        text: 'The cache answers within a second',
        level: 'behavioral',
        status: 'timeout',
        method: 'bash',
        command: 'sleep 30 & echo $! > grandchild.pid; wait',
        exit_code: null,
        duration_ms: expect.any(Number),
        details: 'timed out after 1 s; its process group was killed',
        output: null,
        category: 'tool_failure'
      },
      {
        criterion_id: 'C-03.2',
        contract: 'C-03',
        text: 'The cache warms up within five seconds',
        level: 'behavioral',
        status: 'pass',
        method: 'bash',
        command: 'sleep 2; echo warm | tee cache.log',
        exit_code: 0,
        duration_ms: expect.any(Number),
        details: took(0),
        output: 'warm\n',
        category: null
      }
    ])
    expect(s03.results[3].duration_ms).toBeGreaterThanOrEqual(2000)
  })

  it('fails the contract check of a slice whose own contract has a lint error, in every file, and passes the others', async ({expect}) => {
    const folder = await project()
    const contractsFile = path.join(folder, '.greenlight', 'CONTRACTS.md')
    const c03File = path.join(folder, '.greenlight', 'contracts', 'C-03.md')
    // C-02 (S-02) shares CONTRACTS.md with C-01 (S-01); C-03 (S-03) has a file of its own.
    await fs.writeFile(contractsFile, (await fs.readFile(contractsFile, 'utf8')).replace('**Verification:** auto', '**Verification:** Auto'))
    await fs.writeFile(c03File, (await fs.readFile(c03File, 'utf8')).replace('verification: verify', 'verification: Verify'))
    const run = await piped(folder, ['verify', '--all', '--timeout', '1', '--json'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 1, stderr: ''})
    const checks = JSON.parse(run.stdout).runs.map((entry: any) => [
      entry.verification_run.slice,
      entry.results.find((result: any) => result.criterion_id === 'contracts')
    ])
    const contractCheck = {
      criterion_id: 'contracts',
      contract: null,
      text: 'The slice’s contracts are found and valid',
      level: 'contract',
      method: 'lint',
      command: null,
      exit_code: null,
      duration_ms: null,
      output: null
    }
    expect(checks).toEqual([
      ['S-01', {...contractCheck, status: 'pass', details: 'C-01 AnswerFile: found, no lint errors', category: null}],
      [
        'S-02',
        {
          ...contractCheck,
          status: 'fail',
          details: 'CONTRACTS.md:28: Unexpected verification tier `Auto` on C-02 AnswerFormat, expected `auto` (verification-tier)',
          category: 'lint_failure'
        }
      ],
      [
        'S-03',
        {
          ...contractCheck,
          status: 'fail',
          details: 'C-03.md:5: Unexpected verification tier `Verify` on C-03 AnswerCache, expected `verify` (verification-tier)',
          category: 'lint_failure'
        }
      ]
    ])
  })

  it('gives pass, fail, timeout and requires-human, writes the status file, exits 1; the checkpoint stays closed; prints the same run as JSON, exactly what the status file keeps, and as YAML', async ({
    expect
  }) => {
    const folder = await project()
    const head = await git(folder, 'rev-parse', 'HEAD')
    const run = await tiers(folder, ['verify', 'S-01', '--timeout', '1'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 1, stderr: ''})
    expect(normalize(run.stdout)).toBe(s01Failing)
    // The timeout killed the group: `sleep 2` is gone at once, not when it would have ended.
    expect(isRunning(await readPid(folder, 'sleep.pid'))).toBe(false)

    const status = await readStatus(folder)
    // `sleep.pid`, which the checks created, is theirs: the next run may write it again. What the sources held beyond HEAD is kept by the run’s worktree hash, to name what changes since.
    const worktree = status.slices['S-01'].verification_run.worktree
    expect(status).toEqual({
      version: 1,
      slices: {'S-01': failingRun(head)},
      check_outputs: ['sleep.pid'],
      sources: {[worktree]: {'sleep.pid': expect.stringMatching(/^untracked:[\da-f]{16}$/)}}
    })
    const timeout = status.slices['S-01'].results[4]
    expect(timeout.duration_ms).toBeGreaterThanOrEqual(1000)
    // Had the group lived on, the output pipes would have stayed open until `sleep 2` ended.
    expect(timeout.duration_ms).toBeLessThan(1990)

    const checkpoint = await here(folder, ['checkpoint', 'S-01'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 1, stderr: ''})
    expect(normalize(checkpoint.stdout)).toBe(checkpointFailed)
    expect(checkpoint.stdout).not.toContain('ALL TESTS PASSING')
    const json = await here(folder, ['checkpoint', 'S-01', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({
      slice: 'S-01',
      name: 'Answer Service',
      tier: 'verify',
      evidence: {state: 'failed', run: status.slices['S-01'].verification_run.timestamp, failures: ['C-01.2', 'C-01.3'], changed: []},
      checkpoint: null,
      warnings: []
    })

    // The same run again, in the same project (a run of its own each: the format is an argument), as JSON and as YAML, in this process.
    const jsonRun = await piped(folder, ['verify', 'S-01', '--timeout', '1', '--json'])
    expect({code: jsonRun.code, stderr: jsonRun.stderr}).toEqual({code: 1, stderr: ''})
    const data = JSON.parse(jsonRun.stdout)
    expect(data).toEqual({...failingRun(head), warnings: []})
    const {warnings, ...printed} = data
    expect(warnings).toEqual([])
    expect((await readStatus(folder)).slices['S-01']).toEqual(printed)

    const yamlRun = await piped(folder, ['verify', 'S-01', '--timeout', '1', '--yaml'])
    expect({code: yamlRun.code, stderr: yamlRun.stderr}).toEqual({code: 1, stderr: ''})
    expect(parseYaml(yamlRun.stdout)).toEqual({...failingRun(head), warnings: []})
    expect(yamlRun.stdout).toMatch(/^verification_run:\n {2}timestamp: \S+\n {2}slice: S-01\n/)
    expect(yamlRun.stdout).toContain('\nsummary:\n  total: 6\n  pass: 3\n  fail: 1\n  timeout: 1\n  manual: 1\nall_automated_pass: false\nwarnings: []\n')
  })

  it('refuses the checkpoint before any run: VERIFICATION MISSING', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['checkpoint', 'S-01'])
    expect(run).toEqual({
      code: 1,
      stdout: `VERIFICATION MISSING — Slice S-01: Answer Service

No verification run is recorded for this slice: the checkpoint opens only
on a passing run.

Run \`tiers verify S-01\`, then \`tiers checkpoint S-01\` again.
`,
      stderr: ''
    })
    const json = await here(folder, ['checkpoint', 'S-01', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({
      slice: 'S-01',
      name: 'Answer Service',
      tier: 'verify',
      evidence: {state: 'missing', run: null, failures: [], changed: []},
      checkpoint: null,
      warnings: []
    })
  })

  it('runs outside git too, with no HEAD to record, and the test command and the files it names in place of a worktree', async ({expect}) => {
    const folder = await project({commit: false})
    await fs.writeFile(path.join(folder, 'answer.txt'), '42\n')
    const run = await here(folder, ['verify', 'S-02'])
    expect(run.code).toBe(0)
    expect((await readStatus(folder)).slices['S-02'].verification_run).toMatchObject({git_head: null, worktree: expect.stringMatching(/^[\da-f]{64}$/)})
    expect(await here(folder, ['checkpoint', 'S-02'])).toMatchObject({code: 0})
  })

  it('refuses bad arguments in one line, exit 1, running nothing', async ({expect}) => {
    const cases: Array<[string[], string]> = [
      [['verify', 'S-01', '--timeout', '0'], 'Unexpected `--timeout 0`, expected a number of seconds above 0 and at most 86400'],
      [['verify', 'S-01', '--timeout=-2'], 'Unexpected `--timeout -2`, expected a number of seconds above 0 and at most 86400'],
      [['verify', 'S-01', '--timeout', 'Infinity'], 'Unexpected `--timeout Infinity`, expected a number of seconds above 0 and at most 86400'],
      [['verify', 'S-01', '--timeout', 'soon'], 'Unexpected `--timeout soon`, expected a number of seconds above 0 and at most 86400'],
      // Node’s parser speaks in three lines here, with unbalanced quotes: tiers says it in one, in its own words.
      [
        ['verify', 'S-01', '--timeout', '-2'],
        'Unexpected `--timeout` followed by `-2`, expected a value after it, or `--timeout=-2` if `-2` is the value (see tiers verify --help)'
      ],
      [['verify', 'S-01', '--timeout'], 'Unexpected `--timeout` without a value, expected `--timeout <s>` (see tiers verify --help)'],
      [['verify'], 'Unexpected arguments, expected `tiers verify <slice>` or `tiers verify --all`'],
      [['verify', 'S-01', '--all'], 'Unexpected arguments, expected `tiers verify <slice>` or `tiers verify --all`'],
      [['verify', 'S-09'], 'Unexpected slice `S-09`, expected one of: S-01, S-02, S-03']
    ]
    const folder = await project({commit: false})
    // The first through the real bin, the others in this process.
    const runs = await Promise.all(cases.map(([args], index) => (index === 0 ? tiers : here)(folder, args)))
    expect(runs).toEqual(cases.map(([, message]) => ({code: 1, stdout: '', stderr: `tiers: ${message}\n`})))
    await expect(fs.access(statusFile(folder))).rejects.toThrow()
  })

  it('refuses a broken status file in one line, exit 2, and leaves it as it is', async ({expect}) => {
    const folder = await project({commit: false})
    await fs.mkdir(path.dirname(statusFile(folder)), {recursive: true})
    await fs.writeFile(statusFile(folder), 'not json\n')
    const run = await here(folder, ['checkpoint', 'S-01'])
    expect({code: run.code, stdout: run.stdout}).toEqual({code: 2, stdout: ''})
    expect(run.stderr).toBe('tiers: .greenlight/tiers/verification-status.json:1:1: Unexpected `not`, expected a value\n')
    expect(await fs.readFile(statusFile(folder), 'utf8')).toBe('not json\n')
  })
})
