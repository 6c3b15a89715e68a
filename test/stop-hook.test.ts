/**
 * `tiers stop-hook` through the cli (its `main`, in the test process; input
 * that never ends through the real bin): it reads a coding agent’s Stop-hook
 * JSON on standard input (`session_id`, `cwd`, `hook_event_name`,
 * `stop_hook_active`), reads the project’s status file and answers with the
 * hook’s JSON, following every row of the decision table:
 *
 * | Status file | Automated criteria     | Blocks | Decision                      |
 * | ----------- | ---------------------- | ------ | ----------------------------- |
 * | missing     | -                      | < max  | block: run the checks first   |
 * | missing     | -                      | >= max | allow: safety valve + warning |
 * | exists      | all pass               | -      | allow                         |
 * | exists      | any fail               | < max  | block: list the failures      |
 * | exists      | any fail               | >= max | allow: safety valve + warning |
 * | exists      | all pass (some manual) | -      | allow: list manual for review |
 *
 * Each scenario runs in its own temporary, committed copy of
 * `test/fixtures/evidence-project`; scenarios run concurrently.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {execFile, spawn} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, copyExample, evidenceProject, runTiers as runBin, tiersBin} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers, runTiersPiped} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []
const execFileAsync = promisify(execFile)

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Run `tiers` in `cwd` (its `main`, in this process) with `input` as its standard input; `env` adds to (or, as `undefined`, removes from) the environment. */
const tiers = runTiers

async function tempFolder(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-stop-hook-')))
  folders.push(folder)
  return folder
}

/** A temporary copy of the fixture, committed in a new git repository. */
const project = (): Promise<string> => evidenceProject(folders, 'verification-tiers-stop-hook-')

/** The Stop hook’s input, as Claude Code sends it. */
function hookInput(cwd: string, session = 'session-1', active = false): string {
  return JSON.stringify({session_id: session, transcript_path: path.join(cwd, 'transcript.jsonl'), cwd, hook_event_name: 'Stop', stop_hook_active: active})
}

/** `tiers stop-hook` for a project, as the agent in it would run it. */
function stopHook(folder: string, options: {session?: string; active?: boolean; maxBlocks?: string} = {}): Promise<Run> {
  return tiers(folder, ['stop-hook'], hookInput(folder, options.session, options.active), {TIERS_MAX_BLOCKS: options.maxBlocks})
}

/** The hook’s exact answer: one line of compact JSON, exit 0, nothing on stderr. */
function answer(value: Record<string, string>): Run {
  return {code: 0, stdout: JSON.stringify(value) + '\n', stderr: ''}
}

/** Measured durations and the times of runs, which change from run to run. */
const normalize = (run: Run): Run => ({
  ...run,
  stdout: run.stdout
    .replace(/exit code (\d+) in \d+\.\d s/g, 'exit code $1 in <n> s')
    .replace(/The latest run \(\d{4}-\d\d-\d\dT[\d:.]+Z\)/g, 'The latest run (<time>)')
})

async function counts(folder: string): Promise<Record<string, number>> {
  const file = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'), 'utf8'))
  expect(file.version).toBe(1)
  return Object.fromEntries(Object.entries(file.sessions as Record<string, {blocks: number; at: string}>).map(([session, entry]) => [session, entry.blocks]))
}

// Every criterion `tiers verify` checks, in contract order: those with a command, and C-01.4 of a verify contract, for a person.
const criteria = 'C-01.1, C-01.2, C-01.3, C-01.4, C-02.1, C-02.2, C-03.1, C-03.2'
/** A remaining criterion as the block lists it. */
const byCommand = (id: string, text: string) => `  - ${id} (checked by its command): ${text}`
const forPerson = (id: string, text: string) => `  - ${id} (for a person at the checkpoint): ${text}`
const criteriaOf = {
  'S-01': [
    byCommand('C-01.1', 'The build log is printed in full'),
    byCommand('C-01.2', 'answer.txt holds 42'),
    byCommand('C-01.3', 'The answer comes within two seconds'),
    forPerson('C-01.4', 'The answer reads well to a person')
  ],
  'S-02': [byCommand('C-02.1', 'answer.txt is one line'), byCommand('C-02.2', 'The service prints digits only')],
  'S-03': [byCommand('C-03.1', 'The cache answers within a second'), byCommand('C-03.2', 'The cache warms up within five seconds')]
}
/** What `tiers checkpoint` says of a slice never verified, or stale, as the block says it. */
const missingText = (id: string, name: string) =>
  `VERIFICATION MISSING — Slice ${id}: ${name}\n\nNo verification run is recorded for this slice: the checkpoint opens only\non a passing run.`
const staleText = (id: string, name: string, why: string) =>
  `VERIFICATION STALE — Slice ${id}: ${name}\n\nThe latest run (<time>) passed, but since then ${why}.`
const runAll =
  'Run tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.'
const neverVerified = 'Slice S-01: never verified\nSlice S-02: never verified\nSlice S-03: never verified'
const notRun = answer({
  decision: 'block',
  reason: `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Answer Service')}\n\n${missingText('S-02', 'Answer Format')}\n\n${missingText('S-03', 'S-03')}\n\n${runAll}\nCriteria remaining:\n${[...criteriaOf['S-01'], ...criteriaOf['S-02'], ...criteriaOf['S-03']].join('\n')}`
})
const notRunValve = (blocks: number, max: number) =>
  answer({
    systemMessage: `WARNING: Stop allowed by the safety valve after ${blocks} blocks (limit ${max}).\n${neverVerified}\nCriteria unverified: ${criteria}\nReview this work before accepting it.`
  })

/** Call slices complete as the workflow’s own files do: S-01 in a slice file (`status` on its line 3), the others in STATE.md, a line each. */
async function markComplete(folder: string, ...ids: string[]): Promise<void> {
  const dir = path.join(folder, '.greenlight')
  for (const id of ids) {
    if (id === 'S-01') {
      await fs.mkdir(path.join(dir, 'slices'), {recursive: true})
      await fs.writeFile(path.join(dir, 'slices', `${id}.md`), `---\nid: ${id}\nstatus: complete\n---\n\n# ${id}\n`)
    } else {
      await fs.appendFile(path.join(dir, 'STATE.md'), `- [x] ${id} done\n`)
    }
  }
}

/** Leave the project its slice S-02 alone (auto, its checks pass): S-01 waits for a person, and S-03’s first check always times out. */
async function onlyAnswerFormat(folder: string): Promise<void> {
  const file = path.join(folder, '.greenlight', 'CONTRACTS.md')
  const text = await fs.readFile(file, 'utf8')
  await fs.writeFile(file, text.slice(0, text.indexOf('## S-01')) + text.slice(text.indexOf('## S-02')))
  await fs.rm(path.join(folder, '.greenlight', 'contracts', 'C-03.md'))
}
const failures = '  - C-01.2: exit code 1 in <n> s\n  - C-01.3: timed out after 1 s; its process group was killed'
/** The same in a block, which shows the end of what each failing check printed (C-01.2 prints what answer.txt holds). */
const failuresWithOutput = '  - C-01.2: exit code 1 in <n> s\n      41\n  - C-01.3: timed out after 1 s; its process group was killed'

async function verify(folder: string, ...args: string[]): Promise<void> {
  const run = await tiers(folder, ['verify', ...args])
  expect(run.stderr).toBe('')
}

describe.concurrent('tiers stop-hook', () => {
  describe('the decision matrix', () => {
    it('any fail, blocks < max: blocks, listing the failures; >= max: allows with a warning naming them', async ({expect}) => {
      const folder = await project()
      await verify(folder, 'S-01', '--timeout', '1')
      const block = answer({
        decision: 'block',
        reason: `HOLD: Cannot stop - 2 criteria failed verification.\n\nFailed:\n${failuresWithOutput}\n\nNot verified:\n  - Slice S-02: never verified\n  - Slice S-03: never verified\n\nContinue working on failing criteria, then run tiers verify again.`
      })
      expect(normalize(await stopHook(folder, {maxBlocks: '2'}))).toEqual(block)
      expect(normalize(await stopHook(folder, {active: true, maxBlocks: '2'}))).toEqual(block)
      expect(await counts(folder)).toEqual({'session-1': 2})
      expect(normalize(await stopHook(folder, {active: true, maxBlocks: '2'}))).toEqual(
        answer({
          systemMessage: `WARNING: Stop allowed by the safety valve after 2 blocks (limit 2).\nStill failing:\n${failures}\nSlice S-02: never verified\nSlice S-03: never verified\nCriteria unverified: C-02.1, C-02.2, C-03.1, C-03.2\nReview this work before accepting it.`
        })
      )
      expect(await counts(folder)).toEqual({'session-1': 0})
    })

    it('all pass with manual criteria: allows, listing them for review; a stale run then blocks as stale, with its slice’s criteria', async ({expect}) => {
      const folder = await project()
      await fs.writeFile(path.join(folder, 'answer.txt'), '42\n')
      await fs.rm(path.join(folder, '.greenlight', 'contracts', 'C-03.md'))
      await verify(folder, 'S-01', '--timeout', '5')
      await verify(folder, 'S-02')
      expect(await stopHook(folder)).toEqual(
        answer({systemMessage: 'All automated criteria pass. For a human to check:\n  - C-01.4: The answer reads well to a person'})
      )
      // A source changed after the run: it proves nothing now.
      await fs.appendFile(path.join(folder, 'src', 'answer.sh'), '# tuned\n')
      // In the words of `tiers checkpoint`, with the criteria that remain and who checks each.
      const since = 'uncommitted changes differ (src/answer.sh edited)'
      expect(normalize(await stopHook(folder))).toEqual(
        answer({
          decision: 'block',
          reason: `HOLD: Cannot stop - verification stale.\n\n${staleText('S-01', 'Answer Service', since)}\n\n${staleText('S-02', 'Answer Format', since)}\n\n${runAll}\nCriteria remaining:\n${[...criteriaOf['S-01'], ...criteriaOf['S-02']].join('\n')}`
        })
      )
      const checkpoint = normalize(await tiers(folder, ['checkpoint', 'S-01']))
      expect(checkpoint.stdout).toBe(`${staleText('S-01', 'Answer Service', since)}\n\nRun \`tiers verify S-01\`, then \`tiers checkpoint S-01\` again.\n`)
      expect(await counts(folder)).toEqual({'session-1': 1})
    })

    it('missing, blocks < max: blocks with “verification not run”; the count is kept per session on disk', async ({expect}) => {
      const folder = await project()
      expect(await stopHook(folder, {maxBlocks: '2'})).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 1})
      // Another session counts apart.
      expect(await stopHook(folder, {session: 'session-2', maxBlocks: '2'})).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 1, 'session-2': 1})
      // The count survives between calls: `stop_hook_active` changes nothing.
      expect(await stopHook(folder, {active: true, maxBlocks: '2'})).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 2, 'session-2': 1})
    })

    it('missing, blocks >= max: allows with the safety valve’s warning, then counts again from 0', async ({expect}) => {
      const folder = await project()
      expect(await stopHook(folder, {maxBlocks: '2'})).toEqual(notRun)
      expect(await stopHook(folder, {active: true, maxBlocks: '2'})).toEqual(notRun)
      expect(await stopHook(folder, {active: true, maxBlocks: '2'})).toEqual(notRunValve(2, 2))
      expect(await counts(folder)).toEqual({'session-1': 0})
      expect(await stopHook(folder, {maxBlocks: '2'})).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 1})
    })

    it('opens the valve where Claude Code’s own guard ends the blocks when TIERS_MAX_BLOCKS is unset or empty: 8, or CLAUDE_CODE_STOP_HOOK_BLOCK_CAP; reading the count from disk', async ({
      expect
    }) => {
      const folder = await project()
      // Seven blocks so far for this session, as earlier calls would have left them.
      await fs.mkdir(path.join(folder, '.greenlight', 'tiers'))
      await fs.writeFile(
        path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'),
        JSON.stringify({version: 1, sessions: {'session-1': {blocks: 7, at: '2025-01-01T10:00:00.000Z'}}})
      )
      const claude = (env: Record<string, string | undefined>) =>
        tiers(folder, ['stop-hook'], hookInput(folder), {CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: undefined, TIERS_MAX_BLOCKS: undefined, ...env})
      expect(await claude({TIERS_MAX_BLOCKS: ''})).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 8})
      expect(await claude({})).toEqual(notRunValve(8, 8))
      // Claude Code’s cap set lower: the valve opens with it, never after it.
      expect(await claude({CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1'})).toEqual(notRun)
      expect(await claude({CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1'})).toEqual(notRunValve(1, 1))
    })

    it('all pass: allows with `{}`, and counts again from 0', async ({expect}) => {
      const folder = await project()
      expect(await stopHook(folder)).toEqual(notRun)
      await onlyAnswerFormat(folder)
      await verify(folder, 'S-02')
      expect(await stopHook(folder)).toEqual({code: 0, stdout: '{}\n', stderr: ''})
      expect(await counts(folder)).toEqual({'session-1': 0})
    })
  })

  describe('the workflow’s word', () => {
    it('holds slices STATE.md and a slice file call complete while they have no passing run, naming each place; through the bin', async ({expect}) => {
      const folder = await project()
      await markComplete(folder, 'S-01', 'S-03')
      await verify(folder, 'S-02')
      const dir = path.join(folder, '.greenlight')
      const word = 'that is the workflow’s word, not evidence'
      const claimOfS01 = `${path.join(dir, 'slices', 'S-01.md')}:3 calls S-01 complete; ${word}: it has no passing run and no person’s approval`
      expect(await runBin(folder, ['stop-hook'], hookInput(folder))).toEqual(
        answer({
          decision: 'block',
          reason: `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Answer Service')}\n\n${missingText('S-03', 'S-03')}\n\n${path.join(dir, 'STATE.md')}:1 calls S-03 complete; ${word}: it has no passing run and no person’s approval\n${claimOfS01}\n\n${runAll}\nCriteria remaining:\n${[...criteriaOf['S-01'], ...criteriaOf['S-03']].join('\n')}`
        })
      )
      // S-03’s check times out: its run fails, whatever STATE.md says (S-02 again after it, which wrote cache.log).
      await verify(folder, 'S-03')
      await verify(folder, 'S-02')
      expect(normalize(await runBin(folder, ['stop-hook'], hookInput(folder)))).toEqual(
        answer({
          decision: 'block',
          reason: `HOLD: Cannot stop - 1 criterion failed verification.\n\nFailed:\n  - C-03.1: timed out after 1 s; its process group was killed\n\nNot verified:\n  - Slice S-01: never verified\n\n${path.join(dir, 'STATE.md')}:1 calls S-03 complete; ${word}: its latest run failed and no person’s approval\n${claimOfS01}\n\nContinue working on failing criteria, then run tiers verify again.`
        })
      )
      expect(await counts(folder)).toEqual({'session-1': 2})
    })
  })

  describe('input', () => {
    it('answers `{}` where there is no project folder up to the root, and blocks on a project folder with no contracts', async ({expect}) => {
      const empty = await tempFolder()
      expect(await tiers(empty, ['stop-hook'], hookInput(empty))).toEqual({code: 0, stdout: '{}\n', stderr: ''})
      expect(await tiers(empty, ['stop-hook'], hookInput(path.join(empty, 'no-such-folder')))).toEqual({code: 0, stdout: '{}\n', stderr: ''})
      // Nothing is written where it is not its business.
      expect(await fs.readdir(empty)).toEqual([])
      const dir = path.join(empty, '.greenlight')
      await fs.mkdir(dir)
      const run = await tiers(empty, ['stop-hook'], hookInput(empty))
      expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
      expect(JSON.parse(run.stdout)).toEqual({
        decision: 'block',
        reason: `HOLD: Cannot stop - verification cannot be checked.\n${dir}: Unexpected project folder without contracts that tiers can read, expected CONTRACTS.md or contracts/*.md with contract headings such as \`### C-01: Name\`\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
      })
    })

    it('uses its own working directory when the input has no `cwd`, and reads empty input as `{}`', async ({expect}) => {
      const folder = await project()
      expect(await tiers(folder, ['stop-hook'], JSON.stringify({session_id: 'no-cwd', hook_event_name: 'Stop'}))).toEqual(notRun)
      expect(await tiers(folder, ['stop-hook'], '')).toEqual(notRun)
      expect(await counts(folder)).toEqual({'no-cwd': 1, default: 1})
    })

    it('takes the project folder from --dir', async ({expect}) => {
      const folder = await project()
      const elsewhere = await tempFolder()
      expect(await tiers(elsewhere, ['stop-hook', '--dir', path.join(folder, '.greenlight')], hookInput(elsewhere))).toEqual(notRun)
      expect(await counts(folder)).toEqual({'session-1': 1})
    })

    it('takes the project folder from --dir alone, whatever the input’s `cwd` and CLAUDE_PROJECT_DIR name', async ({expect}) => {
      const [named, other] = await Promise.all([project(), project()])
      const run = await runTiersPiped(other, ['stop-hook', '--dir', path.join(named, '.greenlight')], hookInput(other), {CLAUDE_PROJECT_DIR: other})
      expect(run).toEqual(notRun)
      expect(await counts(named)).toEqual({'session-1': 1})
      await expect(fs.access(path.join(other, '.greenlight', 'tiers'))).rejects.toThrow()
    })

    it('prints the hook’s JSON whatever format is asked', async ({expect}) => {
      const empty = await tempFolder()
      expect(await tiers(empty, ['stop-hook', '--yaml'], hookInput(empty))).toEqual({code: 0, stdout: '{}\n', stderr: ''})
    })

    it('refuses input that is not a JSON object in one line, exit 1', async ({expect}) => {
      const cases: Array<[string, RegExp]> = [
        ['not json', /^tiers: Unexpected stop-hook input \(1:1: Unexpected `not`, expected a value\), expected the hook’s JSON on standard input\n$/],
        [
          '{"session_id": "a",\n',
          /^tiers: Unexpected stop-hook input \(2:1: Unexpected end of file, expected a property name in double quotes\), expected the hook’s JSON on standard input\n$/
        ],
        ['null', /^tiers: Unexpected stop-hook input \(null\), expected the hook’s JSON object on standard input\n$/],
        ['["Stop"]', /^tiers: Unexpected stop-hook input \(a list\), expected the hook’s JSON object on standard input\n$/],
        ['"Stop"', /^tiers: Unexpected stop-hook input \(a string\), expected the hook’s JSON object on standard input\n$/]
      ]
      const empty = await tempFolder()
      const runs = await Promise.all(cases.map(([input]) => tiers(empty, ['stop-hook'], input)))
      expect(runs.map((run) => ({code: run.code, stdout: run.stdout}))).toEqual(cases.map(() => ({code: 1, stdout: ''})))
      for (const [index, [, message]] of cases.entries()) expect(runs[index]!.stderr).toMatch(message)
    })

    it('refuses a TIERS_MAX_BLOCKS that is not a whole number of 1 or more in one line, exit 1, recording nothing', async ({expect}) => {
      const values = ['0', '-1', '2.5', 'five', '1e1000']
      const folder = await project()
      const runs = await Promise.all(values.map((value) => stopHook(folder, {maxBlocks: value})))
      expect(runs).toEqual(
        values.map((value) => ({code: 1, stdout: '', stderr: `tiers: Unexpected TIERS_MAX_BLOCKS \`${value}\`, expected a whole number of 1 or more\n`}))
      )
      await expect(fs.access(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'))).rejects.toThrow()
    })
  })
})

/**
 * Where the hook looks for the project, through the real bin: from the
 * input’s `cwd`, from the agent’s project folder (`CLAUDE_PROJECT_DIR`, which
 * Claude Code sets for its hooks) and from its own working folder, judging
 * every project any of them names.
 */
describe.concurrent('where tiers stop-hook looks for the project', () => {
  /** `tiers stop-hook` run in `folder`, told the agent works in `cwd`, with CLAUDE_PROJECT_DIR set to `projectDir` (`undefined`: unset). */
  const hookIn = (folder: string, cwd: string, projectDir: string | undefined): Promise<Run> =>
    runBin(folder, ['stop-hook'], hookInput(cwd), {CLAUDE_PROJECT_DIR: projectDir})
  /** The block naming every slice of the evidence fixture in one project, each slice and criterion with its folder. */
  const notRunIn = (folder: string) => {
    const dir = path.join(folder, '.greenlight')
    const names: Array<[keyof typeof criteriaOf, string]> = [
      ['S-01', 'Answer Service'],
      ['S-02', 'Answer Format'],
      ['S-03', 'S-03']
    ]
    const slices = names.map(([id, name]) => missingText(`${id} in ${dir}`, name))
    const remaining = names.flatMap(([id]) => criteriaOf[id].map((line) => line.replace(/^ {2}- (\S+)/, `  - $1 in ${dir}`)))
    return answer({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\n${slices.join('\n\n')}\n\n${runAll}\nCriteria remaining:\n${remaining.join('\n')}`
    })
  }
  /** The block naming the slices of two projects: more than three, so grouped, counted, the first five named, and their criteria counted. */
  const notRunInBoth = (worked: string, named: string) => {
    const [one, two] = [worked, named].map((folder) => path.join(folder, '.greenlight'))
    const slices = `S-01 in ${one} (Answer Service), S-02 in ${one} (Answer Format), S-03 in ${one}, S-01 in ${two} (Answer Service), S-02 in ${two} (Answer Format), and 1 more`
    return answer({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification not run.\n\nNever verified, 6 slices: ${slices}\n\n${runAll}\nCriteria remaining: 16, 2 for a person at the checkpoint, 14 checked by their commands (tiers contracts --slice <slice> lists a slice’s)`
    })
  }

  it('blocks on the project CLAUDE_PROJECT_DIR names when the input’s `cwd` and its own folder are the system’s temp folder', async ({expect}) => {
    const folder = await project()
    expect(await hookIn(os.tmpdir(), os.tmpdir(), folder)).toEqual(notRun)
    // The blocks are counted in the project found.
    expect(await counts(folder)).toEqual({'session-1': 1})
  })

  it('blocks on the project CLAUDE_PROJECT_DIR names when the input’s `cwd` is the project’s parent folder', async ({expect}) => {
    const folder = await project()
    expect(await hookIn(os.tmpdir(), path.dirname(folder), folder)).toEqual(notRun)
  })

  it('blocks on the project it runs in when the input’s `cwd` is outside it: `..`, or the system’s temp folder', async ({expect}) => {
    const folder = await project()
    // `..` is taken from the hook’s own folder: the project’s parent.
    expect(await hookIn(folder, '..', undefined)).toEqual(notRun)
    expect(await hookIn(path.join(folder, 'src'), os.tmpdir(), undefined)).toEqual(notRun)
    expect(await counts(folder)).toEqual({'session-1': 2})
  })

  it('judges both projects when the input’s `cwd` and CLAUDE_PROJECT_DIR name two, and holds while either holds', async ({expect}) => {
    const [worked, named, elsewhere] = await Promise.all([project(), project(), tempFolder()])
    expect(await hookIn(elsewhere, worked, named)).toEqual(notRunInBoth(worked, named))
    // One count, in the project where the agent works.
    expect(await counts(worked)).toEqual({'session-1': 1})
    await expect(fs.access(path.join(named, '.greenlight', 'tiers', 'stop-hook.json'))).rejects.toThrow()
    // The project where the agent works passes; the other still holds it.
    await onlyAnswerFormat(worked)
    await verify(worked, 'S-02')
    const held = await hookIn(elsewhere, worked, named)
    expect(held).toEqual(notRunIn(named))
    await onlyAnswerFormat(named)
    await verify(named, 'S-02')
    expect(await hookIn(elsewhere, worked, named)).toEqual(answer({}))
    expect(await counts(worked)).toEqual({'session-1': 0})
  })

  it('judges a project once however each names it: a subfolder, the project itself, a link to it', async ({expect}) => {
    const [folder, elsewhere] = await Promise.all([project(), tempFolder()])
    const link = path.join(elsewhere, 'link')
    await fs.symlink(folder, link)
    expect(await hookIn(link, path.join(folder, 'src'), folder)).toEqual(notRun)
  })

  it('leaves out a CLAUDE_PROJECT_DIR that names no folder, with a warning, and looks from the others', async ({expect}) => {
    const [folder, elsewhere] = await Promise.all([project(), tempFolder()])
    // Not walked up from: the project around the missing folder is not the agent’s.
    const missing = path.join(folder, 'no-such-folder')
    const warning = `tiers: warning: Unexpected CLAUDE_PROJECT_DIR ${JSON.stringify(missing)} (no such folder), expected the agent’s project folder; the stop hook looks for the project without it\n`
    expect(await hookIn(elsewhere, elsewhere, missing)).toEqual({...answer({}), stderr: warning})
    const file = path.join(folder, 'answer.txt')
    await fs.writeFile(file, '42\n')
    expect(await hookIn(folder, elsewhere, file)).toEqual({
      ...notRun,
      stderr: warning.replace(JSON.stringify(missing), JSON.stringify(file)).replace('no such folder', 'not a folder')
    })
    // An empty one is unset.
    expect(await hookIn(elsewhere, elsewhere, '')).toEqual(answer({}))
  })

  it('answers `{}` when none of the three is in a project, writing nothing', async ({expect}) => {
    const [cwd, named, own] = await Promise.all([tempFolder(), tempFolder(), tempFolder()])
    expect(await hookIn(own, cwd, named)).toEqual(answer({}))
    expect(await Promise.all([cwd, named, own].map((folder) => fs.readdir(folder)))).toEqual([[], [], []])
  })
})

describe('broken files of the stop hook', () => {
  it('treats an unreadable status file as no run, naming it, and lets the valve apply', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-stop-broken-'))
    try {
      await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
      await fs.writeFile(
        path.join(folder, '.greenlight', 'CONTRACTS.md'),
        '### C-01: Answer\n\n**Slice:** S-01\n**Acceptance Criteria:**\n- It answers -- verified by: `true`\n'
      )
      const status = path.join(folder, '.greenlight', 'tiers', 'verification-status.json')
      await fs.writeFile(status, '{broken')
      const input = JSON.stringify({session_id: 'broken', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false})
      const first = await tiers(folder, ['stop-hook'], input, {TIERS_MAX_BLOCKS: '1'})
      expect(first.code).toBe(0)
      expect(JSON.parse(first.stdout)).toEqual({
        decision: 'block',
        reason: `HOLD: Cannot stop - verification not run.\nThe verification status cannot be read: ${status}:1:2: Unexpected \`broken\`, expected a property name in double quotes or \`}\`\n\n${missingText('S-01', 'S-01')}\n\n${runAll}\nCriteria remaining:\n${byCommand('C-01.1', 'It answers')}`
      })
      const second = await tiers(folder, ['stop-hook'], input, {TIERS_MAX_BLOCKS: '1'})
      expect(JSON.parse(second.stdout).systemMessage).toMatch(/^WARNING: Stop allowed by the safety valve after 1 blocks \(limit 1\)\./)
      // The broken file is left as it was.
      expect(await fs.readFile(status, 'utf8')).toBe('{broken')
    } finally {
      await fs.rm(folder, {recursive: true, force: true})
    }
  })

  it('lets the agent stop with a warning when its counts file is unreadable', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-stop-broken-'))
    try {
      await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
      await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '### C-01: Answer\n\n**Slice:** S-01\n')
      const counts = path.join(folder, '.greenlight', 'tiers', 'stop-hook.json')
      await fs.writeFile(counts, 'x')
      const run = await tiers(folder, ['stop-hook'], JSON.stringify({session_id: 's', cwd: folder}))
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout)).toEqual({
        systemMessage: `WARNING: ${counts}:1:1: Unexpected \`x\`, expected a value; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`
      })
      expect(await fs.readFile(counts, 'utf8')).toBe('x')
    } finally {
      await fs.rm(folder, {recursive: true, force: true})
    }
  })
})

/**
 * `tiers stop-hook` never exits 2 and never hangs: Claude Code reads exit 2
 * of a Stop hook as a block, so the agent could never stop. Each scenario
 * runs in a temporary copy of `content/examples/greenlight-project` (no
 * criterion there has a command) with `test.command` set to `true`.
 */
describe.concurrent('tiers stop-hook never exits 2 or hangs', () => {
  const exampleCriteria = 'C-01.1, C-01.2, C-01.3, C-03.1, C-03.2, C-06.1, C-06.2'
  // No criterion of the example has a command: each is for a person, at the checkpoint.
  const exampleRemaining = [
    forPerson('C-01.1', 'Campaigns render as cards in a 3-column grid on a 1280px wide screen'),
    forPerson('C-01.2', 'Each card shows the campaign name, its status and its spend'),
    forPerson('C-01.3', 'Clicking a card opens /campaigns/{id}'),
    forPerson('C-03.1', 'A paused campaign shows a grey "Paused" badge'),
    forPerson('C-03.2', 'A live campaign shows a green "Live" badge'),
    forPerson('C-06.1', 'Clicking "Export" downloads campaigns.csv with one row per campaign'),
    forPerson('C-06.2', 'Amounts in the file use the account currency')
  ].join('\n')
  const exampleNotRun = `HOLD: Cannot stop - verification not run.\n\n${missingText('S-01', 'Campaign Cards')}\n\n${missingText('S-02', 'Currency Formatting')}\n\n${runAll}\nCriteria remaining:\n${exampleRemaining}`
  const noneFound = answer({decision: 'block', reason: exampleNotRun})

  /** A temporary copy of the greenlight example whose test command passes. */
  async function greenlight(): Promise<string> {
    const folder = await tempFolder()
    await copyExample(path.join(folder, '.greenlight'))
    const file = path.join(folder, '.greenlight', 'config.json')
    const config = JSON.parse(await fs.readFile(file, 'utf8'))
    config.test.command = 'true'
    await fs.writeFile(file, JSON.stringify(config, null, 2) + '\n')
    return folder
  }

  /** The block for a project that cannot be checked, and the safety valve’s warning after it. */
  function unchecked(problem: string, max: number): {block: Run; valve: Run} {
    return {
      block: answer({
        decision: 'block',
        reason: `HOLD: Cannot stop - verification cannot be checked.\n${problem}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
      }),
      valve: answer({
        systemMessage: `WARNING: Stop allowed by the safety valve after ${max} blocks (limit ${max}).\nVerification could not be checked: ${problem}\nReview this work before accepting it.`
      })
    }
  }

  it('blocks on a GRAPH.json that does not parse, naming it, under the safety valve', async ({expect}) => {
    const folder = await greenlight()
    const graph = path.join(folder, '.greenlight', 'GRAPH.json')
    await fs.writeFile(graph, '{\n  "slices": {\n')
    const {block, valve} = unchecked(`${graph}:3:1: Unexpected end of file, expected a property name in double quotes or \`}\``, 1)
    expect(await stopHook(folder, {maxBlocks: '1'})).toEqual(block)
    expect(await counts(folder)).toEqual({'session-1': 1})
    expect(await stopHook(folder, {active: true, maxBlocks: '1'})).toEqual(valve)
    expect(await counts(folder)).toEqual({'session-1': 0})
  })

  it('blocks on `workflow.rejection_threshold: 0` in config.json, naming it, under the safety valve', async ({expect}) => {
    const folder = await greenlight()
    const file = path.join(folder, '.greenlight', 'config.json')
    const config = JSON.parse(await fs.readFile(file, 'utf8'))
    config.workflow.rejection_threshold = 0
    await fs.writeFile(file, JSON.stringify(config, null, 2) + '\n')
    const {block, valve} = unchecked(`${file}:6:28: Unexpected \`workflow.rejection_threshold\` 0, expected a whole number of 1 or more`, 1)
    expect(await stopHook(folder, {maxBlocks: '1'})).toEqual(block)
    expect(await counts(folder)).toEqual({'session-1': 1})
    expect(await stopHook(folder, {active: true, maxBlocks: '1'})).toEqual(valve)
    expect(await counts(folder)).toEqual({'session-1': 0})
  })

  it('counts a run without `verification_run` in the status file as no run, naming the file', async ({expect}) => {
    const folder = await greenlight()
    const status = path.join(folder, '.greenlight', 'tiers', 'verification-status.json')
    await fs.mkdir(path.dirname(status))
    const text = JSON.stringify({version: 1, slices: {'S-01': {results: [], all_automated_pass: true}}})
    await fs.writeFile(status, text)
    expect(await stopHook(folder)).toEqual(
      answer({
        decision: 'block',
        reason: exampleNotRun.replace(
          '\n',
          `\nThe verification status cannot be read: ${status}: Unexpected run for \`S-01\`, expected \`verification_run\` with \`contracts_hash\`, \`git_head\` and \`worktree\`\n`
        )
      })
    )
    expect(await counts(folder)).toEqual({'session-1': 1})
    expect(await fs.readFile(status, 'utf8')).toBe(text)
  })

  it('lets the agent stop at once, with a warning, when the state folder is read-only; respond fails at once too', async ({expect, skip}) => {
    const folder = await greenlight()
    const tiersFolder = path.join(folder, '.greenlight', 'tiers')
    await fs.mkdir(tiersFolder)
    const readOnly = await makeReadOnly(tiersFolder)
    if (!readOnly) return skip('this system cannot make a folder read-only for this user')
    const refused = `${tiersFolder}: cannot be written (${readOnly.code}: ${readOnly.reason})`
    try {
      expect(await stopHook(folder)).toEqual({
        ...answer({
          systemMessage: `WARNING: ${refused}; the stop hook cannot count its blocks, so it lets the agent stop.\nThe stop hook would have blocked: ${exampleNotRun}`
        }),
        // The contracts cache is written all the same: it is in the user's cache folder.
        stderr: ''
      })
      // Not after the lock’s half a minute of retries: the folder is checked first.
      const started = Date.now()
      const respond = await tiers(folder, ['--dir', path.join(folder, '.greenlight'), 'respond', 'S-01', 'too small'])
      expect({code: respond.code, stderr: respond.stderr}).toEqual({code: 2, stderr: `tiers: ${refused}\n`})
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(await fs.readdir(tiersFolder)).toEqual([])
    } finally {
      await readOnly.restore()
    }
  })

  it('blocks on a contract file of 4,000 `>` (nested quotes), naming its line: the reader refuses markdown nested that deep', async ({expect}) => {
    const folder = await greenlight()
    const file = path.join(folder, '.greenlight', 'contracts', 'C-06.md')
    await fs.writeFile(file, `### C-06: Export\n\n${'>'.repeat(4000)}\n`)
    const reason = `HOLD: Cannot stop - verification cannot be checked.\n${file}:3: Unexpected markdown nested over 1000 levels deep (emphasis, lists or quotes), expected at most 1000\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
    expect(await stopHook(folder)).toEqual(answer({decision: 'block', reason}))
    expect(await counts(folder)).toEqual({'session-1': 1})
  })

  it('reads standard input that never ends as empty input after 5 s, with a warning', async ({expect}) => {
    const folder = await greenlight()
    const run = await tiersWithOpenInput(folder, hookInput(folder), 15_000)
    expect(run).toEqual({
      ...noneFound,
      stderr: 'tiers: warning: Unexpected standard input still open after 5 s, expected the stop hook’s JSON and the end of its input; read as empty input\n'
    })
    expect(await counts(folder)).toEqual({default: 1})
  })

  it('ignores the run of a slice no longer in GRAPH.json: a passing `verify --all` then allows', async ({expect}) => {
    const folder = await greenlight()
    const graphFile = path.join(folder, '.greenlight', 'GRAPH.json')
    await verifyAll(folder)
    const graph = JSON.parse(await fs.readFile(graphFile, 'utf8'))
    delete graph.slices['S-02']
    await fs.writeFile(graphFile, JSON.stringify(graph, null, 2) + '\n')
    // And its contracts, which would otherwise keep it as a slice of their own.
    const contractsFile = path.join(folder, '.greenlight', 'CONTRACTS.md')
    const contracts = await fs.readFile(contractsFile, 'utf8')
    await fs.writeFile(contractsFile, contracts.slice(0, contracts.indexOf('## S-02')))
    await fs.rm(path.join(folder, '.greenlight', 'contracts', 'C-06.md'))
    await verifyAll(folder)
    expect(await stopHook(folder)).toEqual(
      answer({
        systemMessage:
          'All automated criteria pass. For a human to check:\n  - C-01.1: Campaigns render as cards in a 3-column grid on a 1280px wide screen\n  - C-01.2: Each card shows the campaign name, its status and its spend\n  - C-01.3: Clicking a card opens /campaigns/{id}\n  - C-03.1: A paused campaign shows a grey "Paused" badge\n  - C-03.2: A live campaign shows a green "Live" badge'
      })
    )
    expect(await counts(folder)).toEqual({'session-1': 0})
  })

  it('lists the slices’ criteria for a person in the safety valve’s warning when no criterion has a command', async ({expect}) => {
    const folder = await greenlight()
    expect(await stopHook(folder, {maxBlocks: '1'})).toEqual(noneFound)
    expect(await counts(folder)).toEqual({'session-1': 1})
    expect(await stopHook(folder, {active: true, maxBlocks: '1'})).toEqual(
      answer({
        systemMessage: `WARNING: Stop allowed by the safety valve after 1 blocks (limit 1).\nSlice S-01: never verified\nSlice S-02: never verified\nCriteria unverified: ${exampleCriteria}\nReview this work before accepting it.`
      })
    )
    expect(await counts(folder)).toEqual({'session-1': 0})
  })
})

/** `tiers verify --all`, which passes on the greenlight example (its criteria are for a human). */
async function verifyAll(folder: string): Promise<void> {
  const run = await tiers(folder, ['verify', '--all'])
  expect(run.code).toBe(0)
}

/** Whether a file can be created in `folder` by this process. */
async function canWrite(folder: string): Promise<boolean> {
  const probe = path.join(folder, '.probe')
  try {
    await fs.writeFile(probe, '')
  } catch {
    return false
  }
  await fs.rm(probe)
  return true
}

/**
 * Make `folder` refuse new files: mode 555, or for root (who ignores modes)
 * the immutable attribute. `null` when neither works here; else the error
 * code a write gets and how to undo it.
 */
async function makeReadOnly(folder: string): Promise<{code: string; reason: string; restore: () => Promise<void>} | null> {
  await fs.chmod(folder, 0o555)
  const restoreMode = () => fs.chmod(folder, 0o755)
  if (!(await canWrite(folder))) return {code: 'EACCES', reason: 'permission denied', restore: restoreMode}
  try {
    await execFileAsync('chattr', ['+i', folder])
  } catch {
    await restoreMode()
    return null
  }
  const restore = async () => {
    await execFileAsync('chattr', ['-i', folder])
    await restoreMode()
  }
  if (!(await canWrite(folder))) return {code: 'EPERM', reason: 'operation not permitted', restore}
  await restore()
  return null
}

/** Run `tiers stop-hook` in `cwd` with `input` written to a standard input that stays open; killed after `limitMs`. */
function tiersWithOpenInput(cwd: string, input: string, limitMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {...process.env}
    delete env.TIERS_MAX_BLOCKS
    const child = spawn(process.execPath, [tiersBin, 'stop-hook'], {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdin.on('error', () => {})
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({code, stdout, stderr})
    })
    child.stdin.write(input)
  })
}
