/**
 * An approval comes from a person: `tiers respond <slice> yes`, `tiers
 * escalate`, `tiers review` and `tiers respond --undo` (which takes back a
 * rejection, or puts back a decision) are refused from a coding agent’s command (a variable of the
 * cli’s registry of agent markers) and without a terminal, in one line, exit
 * 1, with nothing recorded; feedback is taken from anywhere. Through the real
 * bin: with a pipe for standard input (as an agent’s command has it), and at
 * a pseudo-terminal (`script`, as a person’s). Then, in this process (the
 * cli’s `main`): each marker of the registry, and a property: whatever
 * markers are set, an approval records nothing.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {approvalReplies, replyEndings} from '@verification-tiers/protocol/vocabulary'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {agentMarkers} from '../packages/cli/dist/lib/person.js'
import type {AgentMarker} from '../packages/cli/dist/lib/person.js'
import {testIdentity} from './helpers/agent-environment.js'
import {builtBin, exampleProject, runTiers, scriptBin} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'
import {runTiersHere, verifiedExampleCopies} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

// Copies of the example on which `tiers verify --all` passed: the checkpoints open, so only who answers decides.
const verifiedProject = verifiedExampleCopies(folders, 'verification-tiers-person-')

/** The real bin with a pipe for standard input, as a coding agent’s command has it. */
const piped = (cwd: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> => runTiers(cwd, args, '', env)
/** The real bin at a pseudo-terminal, as the person runs it; `input` is what they type. */
const atTerminal = (cwd: string, args: string[], input = '', env: Record<string, string | undefined> = {}): Promise<Run> =>
  runTiers(cwd, args, input, env, {terminal: true})
/** Feedback relayed by an agent, as a step before what a test is about: the cli’s `main` with a pipe for standard input. */
const relay = (cwd: string, slice: string, feedback: string): Promise<Run> => runTiersHere(cwd, ['respond', slice, feedback], '', {}, {terminal: false})

const stateFile = (folder: string, slice: string) => path.join(folder, '.greenlight', 'tiers', `${slice}.json`)
const readState = async (folder: string, slice: string) => JSON.parse(await fs.readFile(stateFile(folder, slice), 'utf8'))
/** The state file’s bytes, `null` when there is none. */
const stateBytes = (folder: string, slice: string) => fs.readFile(stateFile(folder, slice), 'utf8').catch(() => null)

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const fingerprint = expect.stringMatching(/^sha256:[\da-f]{64}$/)

/** The one line of a refusal: `what`, from `source`, with the commands the person runs. */
const refusal = (what: string, source: string, ...commands: string[]) =>
  `tiers: Unexpected ${what} from ${source}, expected the person’s own answer at a terminal: run ${commands.map((command, index) => (index === 0 ? `\`${command}\`` : `(or \`${command}\`)`)).join(' ')} in your terminal\n`
const noTerminal = 'a command without a terminal (standard input is not a TTY)'

/** A variable and value that set `marker` off, and the source a refusal names for it. */
function setOff(marker: AgentMarker): {name: string; value: string; source: string} {
  const name = marker.variable.endsWith('*') ? `${marker.variable.slice(0, -1)}_NETWORK_DISABLED` : marker.variable
  const value = marker.value ?? '1'
  const whose = marker.agent === 'a coding agent' ? 'a coding agent’s' : `${marker.agent}’s`
  return {name, value, source: `${whose} command (${name} ${marker.value === undefined ? 'is set' : `is ${marker.value}`})`}
}

describe('without a terminal (a pipe, as a coding agent’s command has)', () => {
  it.concurrent('refuses an approval and an escalation choice in one line, recording nothing; feedback is recorded, as relayed', async () => {
    const folder = await verifiedProject()
    expect(await piped(folder, ['respond', 'S-01', 'yes'])).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('approval of slice S-01', noTerminal, 'tiers review S-01', 'tiers respond S-01 yes')
    })
    // A reply of several words is given back quoted, ready to paste.
    expect((await piped(folder, ['respond', 'S-01', 'looks', 'good'])).stderr).toBe(
      refusal('approval of slice S-01', noTerminal, 'tiers review S-01', "tiers respond S-01 'looks good'")
    )
    expect(await stateBytes(folder, 'S-01')).toBeNull()

    // Feedback is taken from anywhere: an orchestrator relays the person’s words.
    for (const feedback of ['The grid shows 2 columns', 'The badge is orange', 'Partially: no spend']) {
      expect((await piped(folder, ['respond', 'S-01', feedback])).code).toBe(0)
    }
    const relayed = await readState(folder, 'S-01')
    expect(relayed.answers.map((answer: {channel: string}) => answer.channel)).toEqual(['relayed', 'relayed', 'relayed'])
    expect(relayed.answers[0]).toMatchObject({by: testIdentity, fingerprint})

    const before = await stateBytes(folder, 'S-01')
    expect(await piped(folder, ['escalate', 'S-01', '3'])).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('escalation choice `3` for slice S-01', noTerminal, 'tiers escalate S-01 3')
    })
    expect(await stateBytes(folder, 'S-01')).toBe(before)
    // A choice that is none is said as ever, whoever gives it.
    expect((await piped(folder, ['escalate', 'S-01', '9'])).stderr).toBe('tiers: Unexpected escalation choice `9`, expected 1, 2 or 3\n')
  })

  it.concurrent('refuses `tiers review` before showing anything', async () => {
    const folder = await verifiedProject()
    expect(await runTiers(folder, ['review', 'S-01'], 'yes\n')).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('review of slice S-01', noTerminal, 'tiers review S-01')
    })
    expect(await stateBytes(folder, 'S-01')).toBeNull()
  })
})

describe.runIf(existsSync(scriptBin))('at a terminal (a pseudo-terminal, as the person’s)', () => {
  it.concurrent('takes the approval and the escalation choice, recording who, how and on what', async () => {
    const folder = await verifiedProject()
    const approved = await atTerminal(folder, ['respond', 'S-02', 'yes'])
    expect({code: approved.code, stderr: approved.stderr}).toEqual({code: 0, stderr: ''})
    expect(approved.stdout).toMatch(/^APPROVED — Slice S-02: Currency Formatting\n/)
    expect((await readState(folder, 'S-02')).answers).toEqual([
      {
        reply: 'yes',
        outcome: 'approval',
        at: expect.stringMatching(isoTime),
        decisionBefore: null,
        escalationsBefore: 0,
        withdrawnAt: null,
        withdrawnRejection: null,
        by: testIdentity,
        channel: 'terminal',
        fingerprint,
        // The slice as the person approved it (see test/weakening.test.ts).
        pins: expect.objectContaining({tier: 'verify', humanCheck: null, retired: null})
      }
    ])

    for (const feedback of ['one', 'two', 'three']) expect((await relay(folder, 'S-01', feedback)).code).toBe(0)
    const skipped = await atTerminal(folder, ['escalate', 'S-01', '3'])
    expect(skipped.code).toBe(0)
    expect((await readState(folder, 'S-01')).escalations).toEqual([
      {choice: '3', decision: 'skip', at: expect.stringMatching(isoTime), rejectionCount: 3, by: testIdentity, channel: 'terminal', fingerprint}
    ])
  })

  it.concurrent('refuses an escalation choice and `tiers review` from an agent’s command, at a terminal too', async () => {
    const folder = await verifiedProject()
    for (const feedback of ['one', 'two', 'three']) expect((await relay(folder, 'S-01', feedback)).code).toBe(0)
    const before = await stateBytes(folder, 'S-01')
    expect(await atTerminal(folder, ['escalate', 'S-01', '1'], '', {CODEX_THREAD_ID: 'thread-1'})).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('escalation choice `1` for slice S-01', 'Codex’s command (CODEX_THREAD_ID is set)', 'tiers escalate S-01 1')
    })
    expect(await atTerminal(folder, ['review', 'S-02'], 'yes\n', {GEMINI_CLI: '1'})).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('review of slice S-02', 'Gemini CLI’s command (GEMINI_CLI is set)', 'tiers review S-02')
    })
    expect(await stateBytes(folder, 'S-01')).toBe(before)
    expect(await stateBytes(folder, 'S-02')).toBeNull()
  })

  it.concurrent('takes a `--undo` only from the person: an approval put back, a rejection taken back', async () => {
    const folder = await verifiedProject()
    expect((await atTerminal(folder, ['respond', 'S-02', 'approved'])).code).toBe(0)
    const {decision} = await readState(folder, 'S-02')
    // Relayed feedback clears the approval; withdrawing it would put the approval back.
    expect((await piped(folder, ['respond', 'S-02', 'The export has no header row'])).code).toBe(0)
    const before = await stateBytes(folder, 'S-02')
    expect(await piped(folder, ['respond', '--undo', 'S-02'], {CLAUDECODE: '1'})).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('withdrawal of slice S-02’s latest answer', 'Claude Code’s command (CLAUDECODE is set)', 'tiers respond --undo S-02')
    })
    expect(await stateBytes(folder, 'S-02')).toBe(before)
    const undone = await atTerminal(folder, ['respond', '--undo', 'S-02'])
    expect(undone.code).toBe(0)
    expect((await readState(folder, 'S-02')).decision).toEqual(decision)
    // A rejection, relayed, puts back no decision; it is the person’s to take back all the same: the escalation counts it.
    expect((await piped(folder, ['respond', 'S-01', 'too small'])).code).toBe(0)
    const rejected = await stateBytes(folder, 'S-01')
    expect(await piped(folder, ['respond', '--undo', 'S-01'])).toEqual({
      code: 1,
      stdout: '',
      stderr: refusal('withdrawal of slice S-01’s latest answer', noTerminal, 'tiers respond --undo S-01')
    })
    expect((await atTerminal(folder, ['respond', '--undo', 'S-01'], '', {GEMINI_CLI: '1'})).code).toBe(1)
    expect(await stateBytes(folder, 'S-01')).toBe(rejected)
    expect((await atTerminal(folder, ['respond', '--undo', 'S-01'])).code).toBe(0)
    expect((await readState(folder, 'S-01')).answers).toMatchObject([{reply: 'too small', withdrawnBy: testIdentity, withdrawnChannel: 'terminal'}])
  })
})

describe.runIf(existsSync(scriptBin))('tiers review, at a terminal', () => {
  const prompt = '\n\nYour answer (yes, or what is wrong): '

  it.concurrent('answering yes: the checkpoint as `tiers checkpoint` prints it, then the approval recorded as `tiers respond` records it', async () => {
    const [folder, other] = await Promise.all([verifiedProject(), verifiedProject()])
    const checkpoint = await piped(folder, ['checkpoint', 'S-02'])
    expect(checkpoint.code).toBe(0)
    const review = await atTerminal(folder, ['review', 'S-02'], 'yes\n')
    const respond = await atTerminal(other, ['respond', 'S-02', 'yes'])
    // The answer typed, and its line ending, go to the terminal (its echo), not to stdout; the warnings are the checkpoint’s.
    expect(review).toEqual({code: 0, stdout: `${checkpoint.stdout.replace(/\n$/, '')}${prompt}${respond.stdout}`, stderr: checkpoint.stderr})
    const [reviewed, responded] = await Promise.all([readState(folder, 'S-02'), readState(other, 'S-02')])
    expect(reviewed.answers).toEqual([{...responded.answers[0], at: expect.stringMatching(isoTime)}])
    expect(reviewed.answers[0]).toMatchObject({reply: 'yes', outcome: 'approval', by: testIdentity, channel: 'terminal'})
    expect(reviewed.decision).toEqual({...responded.decision, at: reviewed.answers[0].at})
  })

  it.concurrent('answering feedback: kept verbatim, with the routes, as `tiers respond` prints them', async () => {
    const [folder, other] = await Promise.all([verifiedProject(), verifiedProject()])
    const feedback = '  The grid shows 2 columns, not 3  '
    const review = await atTerminal(folder, ['review', 'S-01'], `${feedback}\n`)
    const respond = await runTiersHere(other, ['respond', 'S-01', feedback])
    expect(review.code).toBe(0)
    expect(review.stdout.endsWith(`${prompt}${respond.stdout}`)).toBe(true)
    expect(review.stdout).toMatch(/^ALL TESTS PASSING — Slice S-01: Campaign Cards\n/)
    const state = await readState(folder, 'S-01')
    expect(state.rejections).toMatchObject([{feedback, partial: false}])
    expect(state.answers).toMatchObject([{reply: feedback, outcome: 'rejection', by: testIdentity, channel: 'terminal', fingerprint}])
  })

  it.concurrent('without a slice, answers the first waiting for its checkpoint; with none, says where each stands in one line', async () => {
    const folder = await verifiedProject()
    const first = await atTerminal(folder, ['review'], 'looks good\n')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^ALL TESTS PASSING — Slice S-01: Campaign Cards\n[\s\S]*: APPROVED — Slice S-01: Campaign Cards\n/)
    expect((await atTerminal(folder, ['review'], 'ok\n')).stdout).toMatch(
      /^ALL TESTS PASSING — Slice S-02: [\s\S]*: APPROVED — Slice S-02: Currency Formatting\n/
    )
    expect(await atTerminal(folder, ['review'], 'ok\n')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'tiers: Unexpected `tiers review` without a slice while none waits for its checkpoint (S-01 done, S-02 done), expected a slice: `tiers review <slice>`\n'
    })
  })

  it.concurrent('without a slice, on a project never verified: no checkpoint waits, each slice waits for a passing run, as `tiers status` says', async () => {
    const unverified = await exampleProject(folders, 'verification-tiers-person-', 'true')
    expect(await atTerminal(unverified, ['review'], 'yes\n')).toEqual({
      code: 1,
      stdout: '',
      stderr: `tiers: Unexpected \`tiers review\` without a slice while none waits for its checkpoint (S-01 waits for a passing run, S-02 waits for a passing run), expected a slice: \`tiers review <slice>\`\n`
    })
  })

  it.concurrent('refuses as `tiers checkpoint` does without a fresh passing run, asking nothing; records nothing when the input ends first', async () => {
    const unverified = await exampleProject(folders, 'verification-tiers-person-', 'true')
    const checkpoint = await piped(unverified, ['checkpoint', 'S-01'])
    expect(checkpoint.code).toBe(1)
    expect(await atTerminal(unverified, ['review', 'S-01'], 'yes\n')).toEqual(checkpoint)
    expect(await stateBytes(unverified, 'S-01')).toBeNull()

    const folder = await verifiedProject()
    const ended = await atTerminal(folder, ['review', 'S-01'])
    expect(ended.code).toBe(1)
    expect(ended.stdout.endsWith(prompt)).toBe(true)
    expect(ended.stderr).toBe(
      'tiers: Unexpected end of input before an answer to slice S-01, expected the person’s answer typed at the terminal: nothing was recorded\n'
    )
    expect(await stateBytes(folder, 'S-01')).toBeNull()
  })
})

describe('a property: no approval from an agent’s command', () => {
  /** An approval reply as a person may type it: any case, spaces around, an ending. */
  const approvalArb = fc
    .tuple(fc.constantFrom(...approvalReplies), fc.boolean(), fc.constantFrom('', ' ', '  '), fc.constantFrom('', ...replyEndings))
    .map(([reply, upper, spaces, ending]) => `${spaces}${upper ? reply.toUpperCase() : reply}${ending}${spaces}`)
  /** One marker set off: its variable (a prefix marker’s with a suffix), with a value that is not empty (its own, in any case, for a value marker). */
  const markerArb = fc
    .constantFrom(...agentMarkers)
    .chain((marker) =>
      fc.tuple(
        marker.variable.endsWith('*')
          ? fc.stringMatching(/^[A-Z_]{0,8}$/).map((suffix) => `${marker.variable.slice(0, -1)}${suffix}`)
          : fc.constant(marker.variable),
        marker.value === undefined
          ? fc.string({minLength: 1, maxLength: 12}).filter((value) => !value.includes('\0'))
          : fc.constantFrom(marker.value, marker.value.toUpperCase())
      )
    )
  const markersArb = fc.uniqueArray(markerArb, {minLength: 1, maxLength: 5, selector: ([name]) => name})

  // The registry, marker by marker, through the cli’s `main` with a terminal for standard input: the real bin reads markers as `main` does (above and below, three of them).
  it('refuses an approval from every marker of the registry, each named with its agent, recording nothing', async () => {
    const folder = await verifiedProject()
    for (const {name, value, source} of agentMarkers.map(setOff)) {
      expect(await runTiersHere(folder, ['respond', 'S-02', 'yes'], '', {[name]: value}), name).toEqual({
        code: 1,
        stdout: '',
        stderr: refusal('approval of slice S-02', source, 'tiers review S-02', 'tiers respond S-02 yes')
      })
    }
    expect(await stateBytes(folder, 'S-02')).toBeNull()
    // Set but empty, a marker marks nothing.
    expect((await runTiersHere(folder, ['respond', 'S-02', 'yes'], '', {CLAUDECODE: '', AI_AGENT: ''})).code).toBe(0)
  })

  it('for any agent markers and any approval reply, respond exits 1 with one line and records nothing', async () => {
    const folder = await verifiedProject()
    await fc.assert(
      fc.asyncProperty(markersArb, approvalArb, async (markers, reply) => {
        // At a terminal: only the markers refuse.
        const run = await runTiersHere(folder, ['respond', 'S-02', reply], '', Object.fromEntries(markers))
        expect(run.code).toBe(1)
        expect(run.stdout).toBe('')
        expect(run.stderr).toMatch(
          /^tiers: Unexpected approval of slice S-02 from .+’s command \([A-Z_]+ is [^)]+\), expected the person’s own answer at a terminal: run `tiers review S-02` \(or `tiers respond S-02 [^`]+`\) in your terminal\n$/
        )
        // The variable it names is one of those set.
        const named = /command \(([A-Z_]+) is /.exec(run.stderr)?.[1]
        expect(markers.map(([name]) => name)).toContain(named)
        expect(await stateBytes(folder, 'S-02')).toBeNull()
      }),
      {seed: baseSeed, numRuns: runs(40), endOnFailure: true}
    )
    // And none set, the same reply is taken.
    expect((await runTiersHere(folder, ['respond', 'S-02', 'yes'])).code).toBe(0)
  })
})
