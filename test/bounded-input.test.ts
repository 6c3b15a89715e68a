/**
 * Every input `tiers` reads is bounded and checked: a regular file (a FIFO,
 * a folder or a device is a one-line error naming the file, exit 2, never a
 * hang), each markdown file of at most 1 MiB, with 4 MiB of the project's
 * files in all, JSON of at most 16 MiB (larger is a one-line error naming
 * the file, or the project, and the limit, and saying what to do; `limits`
 * of `config.json` raises the first two), and of the shape `tiers` reads:
 * `config.json`’s settings and the slice state files are checked field by
 * field, with the file, line, column and field in the message.
 *
 * Each scenario runs in a temporary copy of
 * `content/examples/greenlight-project`. A FIFO, which could hang a read,
 * runs the real bin with a time limit: a hang fails at once and leaves no
 * process behind (and those runs are the file's runs of each command through
 * the bin). The rest runs the cli's `main` in the test process: a folder or
 * device in place of a file, files over the size limit (refused by their
 * size, before a read), and what a regular file holds (`config.json`, the
 * state files).
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {execFile} from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, exampleProject, runTiersBounded} from './helpers/tiers-bin.js'
import {runTiersPiped} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const execFileAsync = promisify(execFile)
const folders: string[] = []
const mebibyte = 1024 * 1024

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example project whose test command passes. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-bounded-', 'true')

const file = (folder: string, ...parts: string[]) => path.join(folder, '.greenlight', ...parts)

/** Run the real bin in `cwd` with `input` piped and its own cache key, killed with its process group after 10 s. */
function tiers(cwd: string, args: string[], {input = ''}: {input?: string} = {}): Promise<Run> {
  return runTiersBounded(cwd, args, {input, limitMs: 10_000, env: {XDG_CACHE_HOME: path.join(cwd, 'user-cache'), TIERS_MAX_BLOCKS: undefined}})
}

/** Run `tiers` in `cwd` as the cli's `main`, in this process (runs take turns), with `input` piped and its own cache key (and `env`), as `tiers` runs the bin. */
function tiersHere(cwd: string, args: string[], {input = '', env = {}}: {input?: string; env?: Record<string, string>} = {}): Promise<Run> {
  return runTiersPiped(cwd, args, input, {XDG_CACHE_HOME: path.join(cwd, 'user-cache'), ...env})
}

/** A failed run: `code`, nothing on stdout, exactly `tiers: <message>` on stderr. */
function expectError(run: Run, code: number, message: string): void {
  expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({code, stdout: '', stderr: `tiers: ${message}\n`})
}

// The example sets the deprecated `workflow.visual_checkpoint`, which only `init`, `contracts` and `report` say: the gate’s commands say nothing of it.
const warning = ''

/** Replace `target` by a FIFO (named pipe) that no one writes to. */
async function fifo(target: string): Promise<void> {
  await fs.rm(target, {force: true})
  await fs.mkdir(path.dirname(target), {recursive: true})
  await execFileAsync('mkfifo', [target])
}

describe.skipIf(process.platform === 'win32')('a FIFO for an input: an error naming it, never a hang', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['CONTRACTS.md', ['CONTRACTS.md'], ['status']],
    ['a contract file', ['contracts', 'C-06.md'], ['status']],
    ['GRAPH.json', ['GRAPH.json'], ['status']],
    ['config.json', ['config.json'], ['status']],
    ['a slice state file', ['tiers', 'S-01.json'], ['status', 'S-01']],
    ['the verification status', ['tiers', 'verification-status.json'], ['checkpoint', 'S-01']]
  ]

  it.concurrent.for(cases)('%s', {timeout: 20_000}, async ([, parts, args], {expect}) => {
    const folder = await project()
    await fifo(file(folder, ...parts))
    const run = await tiers(folder, args)
    expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: ${path.join('.greenlight', ...parts)}: Unexpected FIFO (named pipe), expected a regular file\n`
    })
  })

  it.concurrent('a file `tiers init` merges into, `tiers lint`’s baseline: read by the same reader, in the same words', {timeout: 20_000}, async () => {
    const folder = await project()
    await fifo(path.join(folder, '.claude', 'settings.json'))
    expectError(await tiers(folder, ['init']), 2, '.claude/settings.json: Unexpected FIFO (named pipe), expected a regular file')
    await fs.rm(path.join(folder, '.claude'), {recursive: true})
    await fifo(path.join(folder, 'tiers-lint-baseline.json'))
    expectError(await tiers(folder, ['lint', '.greenlight']), 2, 'tiers-lint-baseline.json: Unexpected FIFO (named pipe), expected a regular file')
  })

  it.concurrent('GRAPH.md, when there is no GRAPH.json', {timeout: 20_000}, async () => {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    await fifo(file(folder, 'GRAPH.md'))
    expectError(await tiers(folder, ['status']), 2, '.greenlight/GRAPH.md: Unexpected FIFO (named pipe), expected a regular file')
  })

  it.concurrent('the stop hook answers at once, blocking on the FIFO, naming it', {timeout: 20_000}, async ({expect}) => {
    const folder = await project()
    await fifo(file(folder, 'GRAPH.json'))
    const run = await tiers(folder, ['stop-hook'], {input: JSON.stringify({session_id: 's', cwd: folder})})
    const problem = `${file(folder, 'GRAPH.json')}: Unexpected FIFO (named pipe), expected a regular file`
    expect(run).toEqual({
      code: 0,
      stdout:
        JSON.stringify({
          decision: 'block',
          reason: `HOLD: Cannot stop - verification cannot be checked.\n${problem}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
        }) + '\n',
      stderr: ''
    })
  })
})

describe('other files that are not regular files', () => {
  it.concurrent('a folder for CONTRACTS.md', async () => {
    const folder = await project()
    await fs.rm(file(folder, 'CONTRACTS.md'))
    await fs.mkdir(file(folder, 'CONTRACTS.md'))
    expectError(await tiersHere(folder, ['status']), 2, '.greenlight/CONTRACTS.md: Unexpected folder, expected a regular file')
  })

  it.skipIf(process.platform === 'win32').concurrent('a device for CONTRACTS.md', async () => {
    const folder = await project()
    await fs.rm(file(folder, 'CONTRACTS.md'))
    await fs.symlink('/dev/null', file(folder, 'CONTRACTS.md'))
    expectError(await tiersHere(folder, ['status']), 2, '.greenlight/CONTRACTS.md: Unexpected character device, expected a regular file')
  })
})

describe('files over the size limit: an error naming the file and its size', () => {
  /** Set `limits` in the project's `config.json`, keeping its other settings. */
  async function setLimits(folder: string, limits: Record<string, number>): Promise<void> {
    const config = file(folder, 'config.json')
    await fs.writeFile(config, JSON.stringify({...JSON.parse(await fs.readFile(config, 'utf8')), limits}, null, 2) + '\n')
  }

  /** What `status` prints once `limits` are set: the project read, with the example's warning alone on stderr. */
  async function statusWith(folder: string, limits: Record<string, number>): Promise<string> {
    await setLimits(folder, limits)
    const run = await tiersHere(folder, ['status'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    return run.stdout
  }

  it.concurrent('a CONTRACTS.md of 17 MiB says to split it, or to raise the limit', {timeout: 30_000}, async () => {
    const folder = await project()
    const contracts = file(folder, 'CONTRACTS.md')
    const text = await fs.readFile(contracts, 'utf8')
    await fs.writeFile(contracts, text + '\n'.repeat(17 * mebibyte - Buffer.byteLength(text)))
    // Nothing parsed: the size alone is wrong (a parse would run out of a deadline of a millisecond first).
    expectError(
      await tiersHere(folder, ['status'], {env: {TIERS_PARSE_TOTAL_TIMEOUT: '0.001'}}),
      2,
      '.greenlight/CONTRACTS.md: Unexpected size of 17 MiB, expected at most 1 MiB; split the contracts over several files in contracts/, or raise `limits.file_mib` in config.json (16 at most)'
    )
  })

  it.concurrent('a contract file of 1 MiB and one byte; read with `limits.file_mib` raised to 2', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    const contract = file(folder, 'contracts', 'C-06.md')
    const text = await fs.readFile(contract, 'utf8')
    // One line of spaces, which the parser reads fast (as many blank lines take it seconds): only the size is wrong.
    await fs.writeFile(contract, text + '\n' + ' '.repeat(mebibyte - Buffer.byteLength(text)))
    expectError(
      await tiersHere(folder, ['status']),
      2,
      '.greenlight/contracts/C-06.md: Unexpected size of 1.0 MiB, expected at most 1 MiB; split the contracts over several files in contracts/, or raise `limits.file_mib` in config.json (16 at most)'
    )
    expect(await statusWith(folder, {file_mib: 2})).toContain('S-02 Currency Formatting: verify')
  })

  it.concurrent('project files of more than 4 MiB in all, each under 1 MiB; read with `limits.total_mib` raised to 8', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    // One line of text each, which the parser reads fast (as many blank lines take it seconds).
    for (const name of ['C-07.md', 'C-08.md', 'C-09.md', 'C-10.md', 'C-11.md'])
      await fs.writeFile(file(folder, 'contracts', name), 'x'.repeat(Math.floor(0.9 * mebibyte)))
    // Nothing parsed: the sizes alone are wrong (a parse would run out of a deadline of a millisecond first).
    expectError(
      await tiersHere(folder, ['status'], {env: {TIERS_PARSE_TOTAL_TIMEOUT: '0.001'}}),
      2,
      '.greenlight: Unexpected files of more than 4 MiB in all for tiers to read (at contracts/C-11.md), expected at most 4 MiB: fewer or smaller files, or raise `limits.total_mib` in config.json (32 at most)'
    )
    // Read: the files without a contract are the problems now.
    expect(await statusWith(folder, {total_mib: 8})).toContain(
      'problem: .greenlight/contracts/C-11.md: Unexpected contract file without a contract tiers can read'
    )
  })

  it.concurrent('the graph counts in the total, and the stop hook blocks naming the limit', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    // 0.0003 MiB is 314 bytes: the example's GRAPH.json (309 bytes) fits, CONTRACTS.md after it does not.
    await setLimits(folder, {total_mib: 0.0003})
    const message =
      'Unexpected files of more than 314 bytes in all for tiers to read (at CONTRACTS.md), expected at most 314 bytes: fewer or smaller files, or raise `limits.total_mib` in config.json (32 at most)'
    expectError(await tiersHere(folder, ['status']), 2, `.greenlight: ${message}`)
    const run = await tiersHere(folder, ['stop-hook'], {input: JSON.stringify({session_id: 's', cwd: folder})})
    expect(run).toEqual({
      code: 0,
      stdout:
        JSON.stringify({
          decision: 'block',
          reason: `HOLD: Cannot stop - verification cannot be checked.\n${path.join(folder, '.greenlight')}: ${message}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
        }) + '\n',
      stderr: ''
    })
    // A GRAPH.json over the total alone is named.
    await setLimits(folder, {total_mib: 0.0002})
    expectError(
      await tiersHere(folder, ['status']),
      2,
      '.greenlight: Unexpected files of more than 209 bytes in all for tiers to read (at GRAPH.json), expected at most 209 bytes: fewer or smaller files, or raise `limits.total_mib` in config.json (32 at most)'
    )
  })

  it.concurrent('a GRAPH.json and a state file of 20 MiB', {timeout: 30_000}, async () => {
    const folder = await project()
    const graph = file(folder, 'GRAPH.json')
    const text = await fs.readFile(graph, 'utf8')
    await fs.writeFile(graph, text + ' '.repeat(20 * mebibyte - Buffer.byteLength(text)))
    expectError(await tiersHere(folder, ['status']), 2, '.greenlight/GRAPH.json: Unexpected size of 20 MiB, expected at most 16 MiB')
    await fs.writeFile(graph, text)
    await fs.mkdir(file(folder, 'tiers'), {recursive: true})
    const state = JSON.stringify({version: 1, slice: 'S-01', rejectionCount: 0, rejections: [], escalations: [], decision: null})
    await fs.writeFile(file(folder, 'tiers', 'S-01.json'), state + ' '.repeat(20 * mebibyte - state.length))
    expectError(await tiersHere(folder, ['status', 'S-01']), 2, '.greenlight/tiers/S-01.json: Unexpected size of 20 MiB, expected at most 16 MiB')
  })
})

describe('config.json: what tiers reads of it must have the right type', () => {
  const example = 'such as `{"test": {"command": "npm test"}}`'
  it.concurrent.for([
    ['{"workflow": "x"}', '1:14: Unexpected `workflow` string `"x"`, expected an object, such as `{"rejection_threshold": 3}`'],
    ['5', `1:1: Unexpected number \`5\`, expected an object of settings, ${example}`],
    ['true', `1:1: Unexpected \`true\`, expected an object of settings, ${example}`],
    ['null', `1:1: Unexpected \`null\`, expected an object of settings, ${example}`],
    ['"yolo"', `1:1: Unexpected string \`"yolo"\`, expected an object of settings, ${example}`],
    ['{\n  "test": ["npm test"]\n}', '2:11: Unexpected `test` list, expected an object, such as `{"command": "npm test"}`'],
    ['{\n  "test": {"command": 5}\n}', '2:23: Unexpected `test.command` number `5`, expected the project’s test command as a string'],
    ['{"limits": 4}', '1:12: Unexpected `limits` number `4`, expected an object, such as `{"file_mib": 2, "total_mib": 8}`'],
    ['{"limits": {"file_mib": 17}}', '1:25: Unexpected `limits.file_mib` number `17`, expected a number of MiB above 0 and at most 16'],
    ['{"limits": {"total_mib": 0}}', '1:26: Unexpected `limits.total_mib` number `0`, expected a number of MiB above 0 and at most 32'],
    ['{"limits": {"total_mib": "8 MiB"}}', '1:26: Unexpected `limits.total_mib` string `"8 MiB"`, expected a number of MiB above 0 and at most 32'],
    ['{"limits": {"totalmib": 8}}', '1:25: Unexpected key `limits.totalmib`, expected `limits.total_mib` (did you mean `total_mib`?)']
  ])('%s', async ([text, reason]) => {
    const folder = await project()
    await fs.writeFile(file(folder, 'config.json'), text)
    const runs = [await tiersHere(folder, ['status']), await tiersHere(folder, ['checkpoint', 'S-01'])]
    for (const run of runs) expectError(run, 2, `.greenlight/config.json:${reason}`)
  })

  it.concurrent('keys tiers does not read are left to their tools', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(file(folder, 'config.json'), '{"mode": 5, "test": {"command": "true", "timeout": "x"}, "other": null}')
    expect((await tiersHere(folder, ['status'])).code).toBe(0)
  })
})

describe('slice state files: every field checked', () => {
  const rejection = (feedback: string) => ({
    feedback,
    partial: false,
    at: '2025-01-01T00:00:00.000Z',
    classification: null,
    action: null,
    detail: null,
    routedAt: null
  })
  const base = {version: 1, slice: 'S-01', rejectionCount: 0, rejections: [] as unknown[], escalations: [] as unknown[], decision: null as unknown}
  const fix = '; fix or remove the file (it is never reset silently)'

  async function withState(state: unknown): Promise<string> {
    const folder = await project()
    await fs.mkdir(file(folder, 'tiers'))
    await fs.writeFile(file(folder, 'tiers', 'S-01.json'), JSON.stringify(state, null, 2) + '\n')
    return folder
  }

  it.concurrent('a decision without a status (which read as “undefined undefined”)', async ({expect}) => {
    const folder = await withState({...base, decision: {at: '2025-01-01T00:00:00.000Z', contractsHash: 'sha256:x', mismatch: []}})
    const message = `.greenlight/tiers/S-01.json:7:15: Unexpected \`decision.status\` missing, expected \`approved\` or \`accepted-as-auto\`${fix}`
    const [one, all] = [await tiersHere(folder, ['status', 'S-01']), await tiersHere(folder, ['status'])]
    expectError(one, 2, message)
    expect(all.stdout).not.toContain('undefined')
  })

  it.concurrent('a rejectionCount that disagrees with the rejection log', async () => {
    const folder = await withState({...base, rejectionCount: 3, rejections: [rejection('too small')]})
    expectError(
      await tiersHere(folder, ['status', 'S-01']),
      2,
      `.greenlight/tiers/S-01.json:4:21: Unexpected \`rejectionCount\` 3, expected 1: the 1 in \`rejections\`${fix}`
    )
  })

  it.concurrent('a count that agrees once the rejections before a re-scope are left out', async ({expect}) => {
    const rescope = {choice: '1', decision: 'rescope', at: '2025-01-01T00:00:00.000Z', rejectionCount: 3}
    const rejections = ['a', 'b', 'c', 'd'].map(rejection)
    const agrees = await withState({...base, rejectionCount: 1, rejections, escalations: [rescope]})
    const run = await tiersHere(agrees, ['status', 'S-01'])
    expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({
      code: 0,
      stdout: 'S-01 Campaign Cards: verify, 1/3 rejections, undecided, never verified, next: route\n',
      stderr: warning
    })
    const disagrees = await withState({...base, rejectionCount: 4, rejections, escalations: [rescope]})
    expectError(
      await tiersHere(disagrees, ['status', 'S-01']),
      2,
      `.greenlight/tiers/S-01.json:4:21: Unexpected \`rejectionCount\` 4, expected 1: the 4 in \`rejections\` less the 3 before re-scopes${fix}`
    )
  })

  it.concurrent.for([
    [
      'a rejection without `partial`',
      {...base, rejectionCount: 1, rejections: [{feedback: 'no', at: 'x', classification: null, action: null, detail: null, routedAt: null}]},
      '6:5: Unexpected `rejections[0].partial` missing, expected `true` or `false`'
    ],
    [
      'an unknown classification',
      {...base, rejectionCount: 1, rejections: [{...rejection('no'), classification: 'gap'}]},
      '10:25: Unexpected `rejections[0].classification` "gap", expected null, `test_gap`, `contract_gap` or `implementation_gap`'
    ],
    [
      'an escalation of another kind',
      {...base, rejectionCount: 0, escalations: [{choice: '4', decision: 'abandon', at: 'x', rejectionCount: 0}]},
      '9:19: Unexpected `escalations[0].decision` "abandon", expected `rescope`, `pair` or `skip`'
    ],
    [
      'a mismatch that is not a list of strings',
      {...base, decision: {status: 'accepted-as-auto', at: 'x', contractsHash: 'y', mismatch: 'too small'}},
      '11:17: Unexpected `decision.mismatch` "too small", expected a list of strings'
    ]
  ] as const)('%s', async ([, state, reason]) => {
    const folder = await withState(state)
    expectError(await tiersHere(folder, ['status', 'S-01']), 2, `.greenlight/tiers/S-01.json:${reason}${fix}`)
  })
})
