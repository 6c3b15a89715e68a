/**
 * End-to-end tests of the `tiers` command, in a temporary copy of the example
 * project (`content/examples/greenlight-project`), with its default `--dir
 * .greenlight`: through the cli's `main` in this process, and through the
 * real bin, run as a process, for the full loop, concurrent runs and a
 * terminal. They check the exact text people read, the JSON orchestrators
 * read, exit codes, the one-line errors, and the per-slice state files left
 * on disk.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, exampleDeprecation, exampleFolder as example, exampleProject, runTiers} from './helpers/tiers-bin.js'
import {runTiersHere, runTiersPiped, verifiedExampleCopies} from './helpers/tiers-here.js'
import {testIdentity} from './helpers/agent-environment.js'
import type {Run} from './helpers/tiers-bin.js'

const deprecation = exampleDeprecation
/** What every successful command prints on stderr with the example’s config. */
const warningLine = `tiers: warning: ${deprecation}\n`

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

beforeAll(async () => {
  // A clear failure instead of forty confusing ones when the build is missing.
  await fs.access(builtBin)
})

/** `tiers` in this process: what each command does (the full loop and concurrent runs go through the real bin, `bin`). */
const tiers = (cwd: string, ...args: string[]): Promise<Run> => runTiersHere(cwd, args)
/** Run the real `tiers` bin in `cwd`, standard input a pipe. */
const bin = (cwd: string, ...args: string[]): Promise<Run> => runTiers(cwd, args)
/** The real bin at a terminal (a pseudo-terminal), as the person runs it: what only the person may record. */
const atTerminal = (cwd: string, ...args: string[]): Promise<Run> => runTiers(cwd, args, '', {}, {terminal: true})

/** What every answer and escalation choice of these tests records besides its own fields: the test user, at a terminal, on the slice's contracts. */
const provenance = {by: testIdentity, channel: 'terminal', fingerprint: expect.stringMatching(/^sha256:[\da-f]{64}$/)}
/** The slice S-02 of the example as a person approves it: what a later change may not lower without them. */
const s02Pins = {
  tier: 'verify',
  humanCheck: null,
  retired: null,
  contracts: [
    {key: 'C-04', label: 'C-04 FormatSpend', tier: 'auto', criteria: [], steps: []},
    {key: 'C-05', label: 'C-05 SpendColumnHeader', tier: 'verify', criteria: [], steps: []},
    {
      key: 'C-06',
      label: 'C-06 ExportCsv',
      tier: 'verify',
      criteria: ['Clicking "Export" downloads campaigns.csv with one row per campaign', 'Amounts in the file use the account currency'],
      steps: ['Open /campaigns and click "Export"']
    }
  ]
}

/** A temporary folder holding a copy of the example’s `.greenlight`; `tiers` runs there. */
// The example’s `npm test` has no package.json to run in here: stand in a passing test command.
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-tiers-', 'true')

/** Record a passing `tiers verify` run, which the checkpoint needs before it opens. */
async function verified(folder: string, ...slices: string[]): Promise<void> {
  for (const slice of slices.length > 0 ? slices : ['--all']) {
    const run = await tiers(folder, 'verify', slice)
    if (run.code !== 0) throw new Error(`tiers verify ${slice} exited ${run.code}: ${run.stdout}${run.stderr}`)
  }
}

// A project on which `tiers verify --all` passed, its state copied from one verified project.
const verifiedProject = verifiedExampleCopies(folders, 'verification-tiers-tiers-')

/** Path of a file in the copy’s `.greenlight`. */
const file = (folder: string, ...parts: string[]) => path.join(folder, '.greenlight', ...parts)

async function readState(folder: string, slice: string): Promise<any> {
  return JSON.parse(await fs.readFile(file(folder, 'tiers', `${slice}.json`), 'utf8'))
}

async function editJson(target: string, change: (value: any) => void): Promise<void> {
  const value = JSON.parse(await fs.readFile(target, 'utf8'))
  change(value)
  await fs.writeFile(target, JSON.stringify(value, null, 2) + '\n')
}

/** ISO timestamps, which change from run to run, as `<time>`. */
const normalize = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** A successful run: exit 0, `stdout` exactly (plus console.log’s newline), nothing on stderr (the gate’s commands do not say the deprecation). */
function expectOk(run: Run, stdout: string): void {
  expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
  expect(normalize(run.stdout)).toBe(stdout + '\n')
}

/** A failed run: `code`, nothing on stdout, exactly one `tiers: …` line on stderr and no stack trace. */
function expectError(run: Run, code: number, message: string | RegExp): void {
  expect(run.stdout).toBe('')
  expect(run.code).toBe(code)
  expect(run.stderr.endsWith('\n')).toBe(true)
  const lines = run.stderr.slice(0, -1).split('\n')
  expect(lines).toHaveLength(1)
  expect(run.stderr).not.toMatch(/^\s+at /m)
  if (typeof message === 'string') expect(lines[0]).toBe(`tiers: ${message}`)
  else expect(lines[0]).toMatch(message)
}

/** Parse `--json` output of a successful run. */
function json(run: Run): any {
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout)
}

const checkpointS01 = `ALL TESTS PASSING — Slice S-01: Campaign Cards

Please verify the output matches your intent.

Acceptance criteria:
  [ ] Campaigns render as cards in a 3-column grid on a 1280px wide screen
  [ ] Each card shows the campaign name, its status and its spend
  [ ] Clicking a card opens /campaigns/{id}
  [ ] A paused campaign shows a grey "Paused" badge
  [ ] A live campaign shows a green "Live" badge

Steps to verify:
  1. Run \`npm run dev\` and open http://localhost:3000/campaigns
  2. Resize the window to 1280px wide and count the columns
  3. Open /campaigns and pause one campaign

Does this match what you intended?
  1) Yes — mark complete and continue
  2) No — I'll describe what's wrong
  3) Partially — some criteria met, I'll describe the gaps`

const checkpointS02 = `ALL TESTS PASSING — Slice S-02: Currency Formatting

Please verify the output matches your intent.

Acceptance criteria:
  [ ] Clicking "Export" downloads campaigns.csv with one row per campaign
  [ ] Amounts in the file use the account currency

Steps to verify:
  1. Open /campaigns and click "Export"

Does this match what you intended?
  1) Yes — mark complete and continue
  2) No — I'll describe what's wrong
  3) Partially — some criteria met, I'll describe the gaps`

/** What `respond` says first of a reply it records as feedback (one with no approval word in it). */
function feedbackNote(feedback: string): string {
  return `Recorded as feedback: ${JSON.stringify(feedback)}`
}

/** What `respond` says after an approval. */
const approvedText = (slice: string, name: string) =>
  `APPROVED — Slice ${slice}: ${name}\n\nRecorded. The slice is complete: go on to summary and docs.\nTo withdraw this answer: tiers respond --undo ${slice}`

function rejectionText(feedback: string, count: number, threshold = 3): string {
  return `${feedbackNote(feedback)}

Your feedback: "${feedback}"

How should we address this?

1) Tighten the tests -- the tests aren't specific enough to catch this mismatch
   (routes to: test writer adds more precise assertions, then implementer passes them)

2) Revise the contract -- the contract doesn't capture what I actually want
   (routes to: you update the contract, then the slice restarts)

3) Provide more detail -- I'll describe exactly what I expect
   (routes to: test writer uses your detail to write targeted tests, then implementer passes them)

Which option? (1/2/3)

Rejection ${count} of ${threshold} recorded. Record the choice: tiers route S-01 <1|2|3> [--detail <text>]`
}

const escalationOptionsText = `Options:
1) Re-scope -- the contract is fundamentally wrong. Revise contracts and restart.
2) Pair -- provide detailed, step-by-step guidance for exactly what you want.
3) Skip verification -- mark this slice as auto-verified and proceed.
   (The mismatch is acknowledged but deferred.)

Which option? (1/2/3)

Record the choice: tiers escalate S-01 <1|2|3>`

/** A line of `tiers status`: `run` is where the slice’s latest run stands, as the stop hook judges it. */
const status = {
  s01: (rejections: number, decision: string, next: string, run = 'never verified') =>
    `S-01 Campaign Cards: verify, ${rejections}/3 rejections, ${decision}, ${run}, next: ${next}`,
  // C-05 of S-02 is verify with neither criteria nor steps: status names it.
  s02: (decision = 'undecided', next = 'verify', rejections = 0, run = 'never verified') =>
    `S-02 Currency Formatting: verify, ${rejections}/3 rejections, ${decision}, ${run}, next: ${next}; nothing to check in C-05 SpendColumnHeader (verify, no acceptance criteria or steps)`
}

/** The contracts of S-01 as written in the example: the hand-off carries them verbatim. */
async function handoffS01(): Promise<string> {
  const source = await fs.readFile(path.join(example, 'CONTRACTS.md'), 'utf8')
  const between = (from: string, to: string) => source.slice(source.indexOf(from), source.indexOf(to)).trimEnd()
  return `Acceptance criteria:
  [ ] Campaigns render as cards in a 3-column grid on a 1280px wide screen (C-01 CampaignCardGrid)
  [ ] Each card shows the campaign name, its status and its spend (C-01 CampaignCardGrid)
  [ ] Clicking a card opens /campaigns/{id} (C-01 CampaignCardGrid)
  [ ] A paused campaign shows a grey "Paused" badge (C-03 CampaignStatusBadge)
  [ ] A live campaign shows a green "Live" badge (C-03 CampaignStatusBadge)

--- C-01 CampaignCardGrid ---
${between('### C-01:', '### C-02:')}

--- C-03 CampaignStatusBadge ---
${between('### C-03:', '## S-02:')}

Never send: implementation code or test source from the current cycle.`
}

/** Record `count` rejections of S-01, one after another. */
async function reject(folder: string, count: number): Promise<void> {
  for (let index = 1; index <= count; index++) {
    const run = await tiers(folder, 'respond', 'S-01', `rejection ${index}`)
    expect(run.code).toBe(0)
  }
}

describe('the full loop on S-01: reject, route, reject, route with detail, reject, escalate, skip', () => {
  // Through the real bin, each step its own process, as an agent and a person run it;
  // the `status` after a step, which only reads what the step left, in this process.
  const tiers = bin
  const readStatus = (cwd: string, ...args: string[]): Promise<Run> => runTiersHere(cwd, ['status', ...args])
  let folder: string
  const first = 'The grid shows 2 columns, not 3'
  const second = 'Cards still miss the spend'
  // Kept verbatim, surrounding spaces included; “partially” marks it partial.
  const third = '  Partially: the paused badge is orange  '
  const detail = 'Each card shows the spend as "$1,234.00" under the status'

  beforeAll(async () => {
    folder = await project()
  })

  it('starts undecided, with the checkpoint of C-01 then C-03 (C-02 is auto)', async () => {
    const [initial, unverified] = await Promise.all([tiers(folder, 'status'), tiers(folder, 'checkpoint', 'S-01')])
    expectOk(initial, `${status.s01(0, 'undecided', 'verify')}\n${status.s02()}`)
    // No run recorded: the checkpoint stays closed and never claims the tests pass.
    expect(unverified.code).toBe(1)
    expect(unverified.stdout).toMatch(/^VERIFICATION MISSING — Slice S-01: Campaign Cards\n/)
    expect(unverified.stdout).not.toContain('ALL TESTS PASSING')
    await verified(folder, 'S-01')
    const checkpoint = await tiers(folder, 'checkpoint', 'S-01')
    expectOk(checkpoint, checkpointS01)
    // Reading never writes state.
    await expect(fs.access(file(folder, 'tiers', 'S-01.json'))).rejects.toThrow()
  })

  it('records the first rejection verbatim and offers the three routes', async () => {
    expectOk(await tiers(folder, 'respond', 'S-01', first), rejectionText(first, 1))
    expectOk(await readStatus(folder, 'S-01'), status.s01(1, 'undecided', 'route', 'run passes'))
    const state = await readState(folder, 'S-01')
    expect(state).toMatchObject({version: 1, slice: 'S-01', rejectionCount: 1, escalations: [], decision: null})
    expect(state.rejections).toEqual([
      {feedback: first, partial: false, at: expect.stringMatching(isoTime), classification: null, action: null, detail: null, routedAt: null, threshold: 3}
    ])
  })

  it('routes it to the test writer as a test gap (route 1)', async () => {
    const run = await tiers(folder, 'route', 'S-01', '1')
    expectOk(
      run,
      `ROUTE — Slice S-01: Campaign Cards

1) Tighten the tests: Test gap (\`test_gap\`), to the test writer.
Spawn test writer with the feedback (verbatim), the contract and the acceptance criteria; it adds or tightens tests, then the implementer passes them. Re-run the tier gate.

Feedback (verbatim): "${first}"

${await handoffS01()}`
    )
    expectOk(await readStatus(folder, 'S-01'), status.s01(1, 'undecided', 'checkpoint', 'run passes'))
    const [entry] = (await readState(folder, 'S-01')).rejections
    expect(entry).toMatchObject({classification: 'test_gap', action: 'spawned test writer with feedback', detail: null})
    expect(entry.routedAt).toMatch(isoTime)
  })

  it('records the second rejection and routes it with detail as an implementation gap (route 3 --detail)', async () => {
    expectOk(await tiers(folder, 'respond', 'S-01', second), rejectionText(second, 2))
    expectOk(await readStatus(folder, 'S-01'), status.s01(2, 'undecided', 'route', 'run passes'))
    const run = await tiers(folder, 'route', 'S-01', '3', '--detail', detail)
    expectOk(
      run,
      `ROUTE — Slice S-01: Campaign Cards

3) Provide more detail: Implementation gap (\`implementation_gap\`), to the test writer.
Collect the detail. Spawn test writer with the detail, the feedback (verbatim), the contract and the acceptance criteria; then the implementer. Re-run the tier gate.

Feedback (verbatim): "${second}"
Detail (verbatim): "${detail}"

${await handoffS01()}`
    )
    expectOk(await readStatus(folder, 'S-01'), status.s01(2, 'undecided', 'checkpoint', 'run passes'))
    const state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(2)
    expect(state.rejections[1]).toMatchObject({
      feedback: second,
      classification: 'implementation_gap',
      action: 'spawned test writer with detailed description',
      detail
    })
  })

  it('escalates at the third rejection, with the history and what was done about each', async () => {
    const run = await tiers(folder, 'respond', 'S-01', third)
    expectOk(
      run,
      `${feedbackNote(third)}

ESCALATION: Campaign Cards

This slice has been rejected 3 times. The verification criteria may not match
what the contracts and tests can deliver.

Rejection history:
1. "${first}" -> spawned test writer with feedback
2. "${second}" -> spawned test writer with detailed description
3. "${third}" -> not routed

${escalationOptionsText}`
    )
    expectOk(await readStatus(folder, 'S-01'), status.s01(3, 'undecided', 'escalation', 'run passes'))
    const state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(3)
    expect(state.rejections[2]).toMatchObject({feedback: third, partial: true, classification: null})
  })

  it('refuses to route at the threshold, and leaves the state as it was', async () => {
    const before = await fs.readFile(file(folder, 'tiers', 'S-01.json'))
    expectError(
      await tiers(folder, 'route', 'S-01', '1'),
      1,
      'Unexpected route: slice S-01 has 3 rejections, expected an escalation choice first (`tiers escalate S-01 <1|2|3>`)'
    )
    expect(await fs.readFile(file(folder, 'tiers', 'S-01.json'))).toEqual(before)
  })

  it('skips verification (escalate 3): accepted as auto, with the mismatch kept', async () => {
    // The person’s choice, at a terminal: from a pipe, as the agent’s steps above, it is refused.
    const run = await atTerminal(folder, 'escalate', 'S-01', '3')
    expectOk(
      run,
      `SKIP VERIFICATION — Slice S-01: Campaign Cards

Recorded. The slice is accepted as auto with the mismatch acknowledged but deferred:
  - "${first}"
  - "${second}"
  - "${third}"`
    )
    expectOk(await readStatus(folder), `${status.s01(3, 'accepted-as-auto <time>', 'done', 'run passes')}\n${status.s02()}`)
    const state = await readState(folder, 'S-01')
    expect(state.escalations).toEqual([{choice: '3', decision: 'skip', at: expect.stringMatching(isoTime), rejectionCount: 3, ...provenance}])
    expect(state.decision).toEqual({
      status: 'accepted-as-auto',
      at: state.escalations[0].at,
      contractsHash: expect.stringMatching(/^sha256:[\da-f]{64}$/),
      mismatch: [first, second, third]
    })
    expect(state.rejections).toHaveLength(3)
    // S-02 was never touched.
    await expect(fs.access(file(folder, 'tiers', 'S-02.json'))).rejects.toThrow()
  })
})

describe('approval and staleness on S-02', () => {
  // Every spelling of an approval is `interpretResponse`’s unit test; here two reach it through the bin.
  it.concurrent.for(['Yes', ' y '])('approves with %j', async (reply, {expect}) => {
    const folder = await verifiedProject()
    const checkpoint = await tiers(folder, 'checkpoint', 'S-02')
    expect(checkpoint.code).toBe(0)
    expect(checkpoint.stdout).toBe(checkpointS02 + '\n')
    const run = await tiers(folder, 'respond', 'S-02', reply)
    expect(run).toEqual({
      code: 0,
      stdout: approvedText('S-02', 'Currency Formatting') + '\n',
      stderr: ''
    })
    const state = await readState(folder, 'S-02')
    expect(state).toEqual({
      version: 1,
      slice: 'S-02',
      rejectionCount: 0,
      rejections: [],
      escalations: [],
      decision: {status: 'approved', at: expect.stringMatching(isoTime), contractsHash: expect.stringMatching(/^sha256:/), mismatch: []},
      answers: [
        {
          reply,
          outcome: 'approval',
          at: expect.stringMatching(isoTime),
          decisionBefore: null,
          escalationsBefore: 0,
          withdrawnAt: null,
          withdrawnRejection: null,
          ...provenance,
          pins: s02Pins
        }
      ]
    })
    const after = await tiers(folder, 'status')
    expect(after.code).toBe(0)
    expect(normalize(after.stdout)).toBe(
      `${status.s01(0, 'undecided', 'checkpoint', 'run passes')}\n${status.s02('approved <time>', 'done', 0, 'run passes')}\n`
    )
  })

  it.concurrent('marks the approval stale once a contract of S-02 changes, but not for line endings alone', async ({expect}) => {
    const folder = await verifiedProject()
    expect((await tiers(folder, 'respond', 'S-02', 'approved')).code).toBe(0)
    const contract = file(folder, 'contracts', 'C-06.md')
    const original = await fs.readFile(contract, 'utf8')

    // CRLF is the same contract.
    await fs.writeFile(contract, original.replace(/\n/g, '\r\n'))
    expectOk(await tiers(folder, 'status', 'S-02'), status.s02('approved <time>', 'verify', 0, 'run stale'))

    // A criterion added: the contracts changed, and nothing a person approved was lowered.
    await fs.writeFile(
      contract,
      original.replace(
        '  - Amounts in the file use the account currency\n',
        '  - Amounts in the file use the account currency\n  - Amounts have two decimals\n'
      )
    )
    expectOk(
      await tiers(folder, 'status'),
      `${status.s01(0, 'undecided', 'verify', 'run stale')}\n${status.s02('approved <time> (stale: contracts changed since)', 'verify', 0, 'run stale')}`
    )
    const data = json(await tiers(folder, 'status', 'S-02', '--json'))
    expect(data.slices).toEqual([
      expect.objectContaining({
        slice: 'S-02',
        stale: true,
        next: 'verify',
        progress: 'stale',
        inProgress: true,
        decision: expect.objectContaining({status: 'approved'})
      })
    ])

    // A rejection after a stale approval clears the decision.
    expect((await tiers(folder, 'respond', 'S-02', 'The export has no header row')).code).toBe(0)
    expectOk(await tiers(folder, 'status', 'S-02'), status.s02('undecided', 'route', 1, 'run stale'))
  })
})

describe('escalation choices and refusals', () => {
  it.concurrent('re-scope (escalate 1) resets the count to 0 and nothing waits for a route', async ({expect}) => {
    const folder = await project()
    await reject(folder, 3)
    const run = await tiers(folder, 'escalate', 'S-01', '1')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      'RE-SCOPE — Slice S-01: Campaign Cards\n\nRecorded. Revise the contracts with the user and restart the slice; its rejection count starts again at 0.\n'
    )
    const state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(0)
    expect(state.rejections).toHaveLength(3)
    expect(state.escalations).toEqual([{choice: '1', decision: 'rescope', at: expect.stringMatching(isoTime), rejectionCount: 3, ...provenance}])
    expect(state.decision).toBeNull()
    expect(normalize((await tiers(folder, 'status', 'S-01')).stdout)).toBe(status.s01(0, 'undecided', 'verify') + '\n')
    // The rejections before the restart are not routed any more…
    expectError(
      await tiers(folder, 'route', 'S-01', '1'),
      1,
      'Unexpected route: slice S-01 has no rejection waiting for a route, expected one recorded with `tiers respond`'
    )
    // …and a new one counts from 1.
    const next = await tiers(folder, 'respond', 'S-01', 'rejection 4')
    expect(next.stdout).toContain('\nRejection 1 of 3 recorded.')
  })

  it.concurrent('pair (escalate 2) keeps the count; the guidance routes the pending rejection; the next rejection escalates again', async ({expect}) => {
    const folder = await project()
    await reject(folder, 3)
    const run = await tiers(folder, 'escalate', 'S-01', '2')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      'PAIR — Slice S-01: Campaign Cards\n\nRecorded. Collect the user’s step-by-step guidance, route it with `tiers route S-01 3 --detail <text>`, then present the checkpoint when it is ready.\n'
    )
    let state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(3)
    expect(state.escalations).toEqual([{choice: '2', decision: 'pair', at: expect.stringMatching(isoTime), rejectionCount: 3, ...provenance}])
    expect(normalize((await tiers(folder, 'status', 'S-01')).stdout)).toBe(status.s01(3, 'undecided', 'route') + '\n')

    const routed = await tiers(folder, 'route', 'S-01', '3', '--detail', 'Step 1: open /campaigns. Step 2: count three columns.')
    expect(routed.code).toBe(0)
    expect(routed.stdout).toContain('Feedback (verbatim): "rejection 3"\nDetail (verbatim): "Step 1: open /campaigns. Step 2: count three columns."\n')
    expect(normalize((await tiers(folder, 'status', 'S-01')).stdout)).toBe(status.s01(3, 'undecided', 'verify') + '\n')

    const again = await tiers(folder, 'respond', 'S-01', 'still two columns')
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/\n\nESCALATION: Campaign Cards\n\nThis slice has been rejected 4 times\./)
    expect(again.stdout).toContain('3. "rejection 3" -> spawned test writer with detailed description\n4. "still two columns" -> not routed\n')
    state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(4)
  })

  it.concurrent('refuses route before any rejection, escalate below the threshold, route 3 without --detail, and bad choices', async ({expect}) => {
    const folder = await project()
    const [route, escalate] = await Promise.all([tiers(folder, 'route', 'S-01', '1'), tiers(folder, 'escalate', 'S-01', '3')])
    expectError(route, 1, 'Unexpected route: slice S-01 has no rejection waiting for a route, expected one recorded with `tiers respond`')
    expectError(escalate, 1, 'Unexpected escalation: slice S-01 has 0 of 3 rejections, expected 3 before escalating')

    await reject(folder, 2)
    const before = await fs.readFile(file(folder, 'tiers', 'S-01.json'))
    const [below, noDetail, badRoute, badEscalation, emptyDetail] = await Promise.all([
      tiers(folder, 'escalate', 'S-01', '1'),
      tiers(folder, 'route', 'S-01', '3'),
      tiers(folder, 'route', 'S-01', '4'),
      tiers(folder, 'escalate', 'S-01', '4'),
      tiers(folder, 'route', 'S-01', '3', '--detail', '')
    ])
    expectError(below, 1, 'Unexpected escalation: slice S-01 has 2 of 3 rejections, expected 3 before escalating')
    expectError(noDetail, 1, 'Unexpected route 3 without `--detail`, expected the user’s description of exactly what they expect')
    expectError(emptyDetail, 1, 'Unexpected route 3 without `--detail`, expected the user’s description of exactly what they expect')
    expectError(badRoute, 1, 'Unexpected route choice `4`, expected 1, 2 or 3')
    expectError(badEscalation, 1, 'Unexpected escalation choice `4`, expected 1, 2 or 3')
    expect(await fs.readFile(file(folder, 'tiers', 'S-01.json'))).toEqual(before)

    // Routed once, the latest rejection does not take a second route.
    expect((await tiers(folder, 'route', 'S-01', '2')).code).toBe(0)
    expectError(
      await tiers(folder, 'route', 'S-01', '1'),
      1,
      'Unexpected route: slice S-01 has no rejection waiting for a route, expected one recorded with `tiers respond`'
    )
    const state = await readState(folder, 'S-01')
    expect(state.rejections.map((entry: {classification: string | null}) => entry.classification)).toEqual([null, 'contract_gap'])
  })
})

describe('refusals around the escalation choice', () => {
  it.concurrent('refuses a rejection while S-01 waits for an escalation choice (exit 1, state unchanged), and still takes an approval', async ({expect}) => {
    // Verified before the rejections, which change no contract: the run stays fresh.
    const folder = await verifiedProject()
    await reject(folder, 3)
    const stateFile = file(folder, 'tiers', 'S-01.json')
    const before = await fs.readFile(stateFile)
    for (const reply of ['still two columns', 'Partially: the badge is orange', '2 the badge is orange']) {
      expectError(
        await tiers(folder, 'respond', 'S-01', reply),
        1,
        'Unexpected rejection: slice S-01 waits for an escalation choice, expected `tiers escalate S-01 <1|2|3>` first'
      )
    }
    // With --json too: the error on stdout, and nothing on stderr.
    const failed = await tiers(folder, 'respond', 'S-01', 'no, still orange', '--json')
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toEqual({
      error: {code: 1, message: 'Unexpected rejection: slice S-01 waits for an escalation choice, expected `tiers escalate S-01 <1|2|3>` first'}
    })
    expect(failed.stderr).toBe('')
    expect(await fs.readFile(stateFile)).toEqual(before)
    expectOk(await tiers(folder, 'status', 'S-01'), status.s01(3, 'undecided', 'escalation', 'run passes'))

    // An approval is still taken: the user may be satisfied after all (with a fresh passing run, as any approval).
    expectOk(await tiers(folder, 'respond', 'S-01', 'yes'), approvedText('S-01', 'Campaign Cards'))
    const state = await readState(folder, 'S-01')
    expect(state).toMatchObject({rejectionCount: 3, escalations: [], decision: {status: 'approved', mismatch: []}})
    expect(state.rejections).toHaveLength(3)
    expectOk(await tiers(folder, 'status', 'S-01'), status.s01(3, 'approved <time>', 'done', 'run passes'))

    // Decided: no escalation until a new rejection.
    const approved = await fs.readFile(stateFile)
    expectError(
      await tiers(folder, 'escalate', 'S-01', '3'),
      1,
      'Unexpected escalation: slice S-01 is already decided (approved), expected a new rejection first'
    )
    expect(await fs.readFile(stateFile)).toEqual(approved)
  })

  it.concurrent('refuses a second escalation after a skip (exit 1, state unchanged) until a new rejection', async ({expect}) => {
    const folder = await project()
    await reject(folder, 3)
    expect((await tiers(folder, 'escalate', 'S-01', '3')).code).toBe(0)
    const stateFile = file(folder, 'tiers', 'S-01.json')
    const before = await fs.readFile(stateFile)
    for (const choice of ['1', '2', '3']) {
      expectError(
        await tiers(folder, 'escalate', 'S-01', choice),
        1,
        'Unexpected escalation: slice S-01 is already decided (accepted-as-auto), expected a new rejection first'
      )
    }
    expect(await fs.readFile(stateFile)).toEqual(before)

    // A new rejection reopens the slice: it escalates again, with every rejection since the start.
    const again = await tiers(folder, 'respond', 'S-01', 'the badge is still orange')
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/\n\nESCALATION: Campaign Cards\n\nThis slice has been rejected 4 times\./)
    expect(again.stdout).toContain('\n4. "the badge is still orange" -> not routed\n')
    expect((await readState(folder, 'S-01')).decision).toBeNull()
    expectOk(
      await tiers(folder, 'escalate', 'S-01', '1'),
      'RE-SCOPE — Slice S-01: Campaign Cards\n\nRecorded. Revise the contracts with the user and restart the slice; its rejection count starts again at 0.'
    )
    expect((await readState(folder, 'S-01')).escalations.map((entry: {decision: string}) => entry.decision)).toEqual(['skip', 'rescope'])
  })

  it.concurrent('sends a stale approval at the threshold back to the checkpoint, not to a refused escalation', async ({expect}) => {
    const folder = await verifiedProject()
    await reject(folder, 3)
    expect((await tiers(folder, 'respond', 'S-01', 'yes')).code).toBe(0)
    const contracts = file(folder, 'CONTRACTS.md')
    const original = await fs.readFile(contracts, 'utf8')
    // A step added: the contracts changed, and nothing a person approved was lowered.
    await fs.writeFile(contracts, original.replace('and count the columns\n', 'and count the columns\n3. Refresh the page and count them again\n'))
    expectOk(await tiers(folder, 'status', 'S-01'), status.s01(3, 'approved <time> (stale: contracts changed since)', 'verify', 'run stale'))
    expectError(
      await tiers(folder, 'escalate', 'S-01', '1'),
      1,
      'Unexpected escalation: slice S-01 is already decided (approved), expected a new rejection first'
    )
    // The checkpoint takes the next reply: a rejection reopens the slice and escalates again.
    const rejected = await tiers(folder, 'respond', 'S-01', 'the grid is 4 columns now')
    expect(rejected.code).toBe(0)
    expect(rejected.stdout).toMatch(/\n\nESCALATION: Campaign Cards\n\nThis slice has been rejected 4 times\./)
    expectOk(await tiers(folder, 'status', 'S-01'), status.s01(4, 'undecided', 'escalation', 'run stale'))
  })

  it.concurrent('routes a contract gap (route 2) to the user with nothing held back', async ({expect}) => {
    const folder = await project()
    await reject(folder, 1)
    const routed = json(await tiers(folder, 'route', 'S-01', '2', '--json'))
    expect(routed).toMatchObject({
      sliceId: 'S-01',
      choice: '2',
      classification: 'contract_gap',
      target: 'user',
      actionTaken: 'presented contract to user for revision',
      feedback: 'rejection 1',
      detail: null,
      never: [],
      rejectionCount: 1
    })
    await reject(folder, 1)
    const text = await tiers(folder, 'route', 'S-01', '2')
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^ROUTE — Slice S-01: Campaign Cards\n\n2\) Revise the contract: Contract gap \(`contract_gap`\), to the user\.\n/)
    expect(text.stdout).toContain('\nFeedback (verbatim): "rejection 1"\n')
    expect(text.stdout).not.toContain('Never send')
  })
})

describe.concurrent('the deprecation warning and --json', () => {
  it('says the deprecation in `contracts` (on stderr) and `report` (among its own warnings), and in no command of the gate', async ({expect}) => {
    const folder = await verifiedProject()
    await reject(folder, 3)
    const runs = await Promise.all([
      tiers(folder, 'checkpoint', 'S-01'),
      tiers(folder, 'status'),
      tiers(folder, 'status', 'S-02'),
      tiers(folder, 'respond', 'S-02', 'yes')
    ])
    runs.push(await tiers(folder, 'escalate', 'S-01', '2'), await tiers(folder, 'route', 'S-01', '1'))
    for (const run of runs) expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})

    const report = await tiers(folder, 'report', 'S-02')
    expect(report.stderr).toBe('')
    expect(report.stdout.split(deprecation)).toHaveLength(2)
    const contracts = await tiers(folder, 'contracts')
    expect({code: contracts.code, stderr: contracts.stderr}).toEqual({code: 0, stderr: warningLine})
    expect(json(await tiers(folder, 'contracts', '--json')).warnings).toEqual([deprecation])

    // Without the toggle, no warning at all.
    await editJson(file(folder, 'config.json'), (config) => delete config.workflow.visual_checkpoint)
    const quiet = await tiers(folder, 'contracts')
    expect({code: quiet.code, stderr: quiet.stderr}).toEqual({code: 0, stderr: ''})
    expect(json(await tiers(folder, 'contracts', '--json')).warnings).toEqual([])
  })

  it('prints `report S-02` exactly', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, 'report', 'S-02')
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `TIER REPORT — Slice S-02: Currency Formatting

Effective tier: verify

Contracts:
  C-04 FormatSpend: auto — criteria: 0, steps: 0
  C-05 SpendColumnHeader: verify (default) — criteria: 0, steps: 0
  C-06 ExportCsv: verify — criteria: 2, steps: 1

Warnings:
  - C-05 SpendColumnHeader: verify tier with no acceptance criteria or steps
  - ${deprecation}
`
    })
  })

  it('gives JSON with the expected fields on every command', async ({expect}) => {
    const folder = await verifiedProject()
    const [checkpoint, report, statusAll] = (
      await Promise.all([tiers(folder, 'checkpoint', 'S-01', '--json'), tiers(folder, '--json', 'report', 'S-02'), tiers(folder, 'status', '--json')])
    ).map(json)

    expect(checkpoint).toMatchObject({slice: 'S-01', name: 'Campaign Cards', tier: 'verify', checkpoint: checkpointS01, warnings: []})
    expect(checkpoint.criteria.map((item: {contract: string}) => item.contract)).toEqual([
      'C-01 CampaignCardGrid',
      'C-01 CampaignCardGrid',
      'C-01 CampaignCardGrid',
      'C-03 CampaignStatusBadge',
      'C-03 CampaignStatusBadge'
    ])
    expect(checkpoint.steps).toEqual([
      {text: 'Run `npm run dev` and open http://localhost:3000/campaigns', contract: 'C-01 CampaignCardGrid'},
      {text: 'Resize the window to 1280px wide and count the columns', contract: 'C-01 CampaignCardGrid'},
      {text: 'Open /campaigns and pause one campaign', contract: 'C-03 CampaignStatusBadge'}
    ])

    expect(report).toEqual({
      sliceId: 'S-02',
      sliceName: 'Currency Formatting',
      tier: 'verify',
      contracts: [
        {label: 'C-04 FormatSpend', tier: 'auto', defaulted: false, criteria: 0, steps: 0},
        {label: 'C-05 SpendColumnHeader', tier: 'verify', defaulted: true, criteria: 0, steps: 0},
        {label: 'C-06 ExportCsv', tier: 'verify', defaulted: false, criteria: 2, steps: 1}
      ],
      warnings: ['C-05 SpendColumnHeader: verify tier with no acceptance criteria or steps', deprecation],
      rejectionCount: 0
    })

    expect(statusAll).toEqual({
      slices: [
        {
          slice: 'S-01',
          name: 'Campaign Cards',
          tier: 'verify',
          rejectionCount: 0,
          threshold: 3,
          decision: null,
          stale: false,
          weakenings: [],
          next: 'checkpoint',
          progress: 'passed',
          inProgress: true,
          lastAnswer: null,
          statedTier: null,
          nothingToCheck: [],
          contracts: 3,
          criteria: 5,
          steps: 3,
          openTasks: 0,
          optionalTasks: 0,
          humanCheck: null,
          retired: null,
          records: []
        },
        {
          slice: 'S-02',
          name: 'Currency Formatting',
          tier: 'verify',
          rejectionCount: 0,
          threshold: 3,
          decision: null,
          stale: false,
          weakenings: [],
          next: 'checkpoint',
          progress: 'passed',
          inProgress: true,
          lastAnswer: null,
          statedTier: null,
          nothingToCheck: ['C-05 SpendColumnHeader'],
          contracts: 3,
          criteria: 2,
          steps: 1,
          openTasks: 0,
          optionalTasks: 0,
          humanCheck: null,
          retired: null,
          records: []
        }
      ],
      broken: [],
      problems: [],
      lostHistory: [],
      orphans: [],
      unreadRuns: null,
      warnings: []
    })

    const rejected = json(await tiers(folder, 'respond', 'S-01', 'The grid shows 2 columns', '--json'))
    expect(rejected).toMatchObject({
      slice: 'S-01',
      name: 'Campaign Cards',
      rejectionCount: 1,
      outcome: 'rejected',
      recordedAs: 'feedback',
      threshold: 3,
      feedback: 'The grid shows 2 columns'
    })
    // Who answered, how and on what: the answer as the state file keeps it.
    expect(rejected.answer).toEqual({
      reply: 'The grid shows 2 columns',
      outcome: 'rejection',
      at: expect.stringMatching(isoTime),
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: null,
      withdrawnRejection: null,
      ...provenance
    })
    expect(json(await tiers(folder, 'status', 'S-01', '--json')).slices[0].lastAnswer).toEqual({
      reply: 'The grid shows 2 columns',
      outcome: 'rejection',
      at: rejected.answer.at,
      ...provenance
    })
    expect(rejected.options).toBe(rejectionText('The grid shows 2 columns', 1).split('\n\nRejection 1')[0].split('\n\n').slice(1).join('\n\n'))

    const routed = json(await tiers(folder, 'route', 'S-01', '3', '--detail', 'three columns', '--json'))
    expect(routed).toMatchObject({
      sliceId: 'S-01',
      choice: '3',
      classification: 'implementation_gap',
      target: 'test writer',
      actionTaken: 'spawned test writer with detailed description',
      feedback: 'The grid shows 2 columns',
      detail: 'three columns',
      never: ['implementation code', 'test source from the current cycle'],
      rejectionCount: 1,
      warnings: []
    })
    // The test writer receives the verify contracts only: C-02 is auto.
    expect(routed.contracts.map((contract: {label: string}) => contract.label)).toEqual(['C-01 CampaignCardGrid', 'C-03 CampaignStatusBadge'])
    expect(routed.contracts[0].source).toMatch(/^### C-01: CampaignCardGrid\n[\s\S]*\*\*Dependencies:\*\* C-02$/)

    await reject(folder, 1)
    const escalation = json(await tiers(folder, 'respond', 'S-01', 'Partially: no badge', '--json'))
    expect(escalation).toMatchObject({outcome: 'escalation', recordedAs: 'feedback', rejectionCount: 3, threshold: 3, feedback: 'Partially: no badge'})
    expect(escalation.escalation).toMatch(/^ESCALATION: Campaign Cards\n[\s\S]*\nWhich option\? \(1\/2\/3\)$/)

    const skipped = json(await tiers(folder, 'escalate', 'S-01', '3', '--json'))
    expect(skipped).toEqual({
      slice: 'S-01',
      name: 'Campaign Cards',
      choice: '3',
      decision: 'skip',
      rejectionCount: 3,
      state: {
        status: 'accepted-as-auto',
        at: expect.stringMatching(isoTime),
        contractsHash: expect.stringMatching(/^sha256:/),
        mismatch: ['The grid shows 2 columns', 'rejection 1', 'Partially: no badge']
      },
      warnings: []
    })

    const approved = json(await tiers(folder, 'respond', 'S-02', 'y', '--json'))
    expect(approved).toMatchObject({slice: 'S-02', outcome: 'approved', rejectionCount: 0, decision: {status: 'approved', mismatch: []}})

    // Errors too: `{error: {code, message}}` on stdout, and nothing on stderr: the error is said once, where a program reads it.
    const failed = await runTiersPiped(folder, ['checkpoint', 'S-09', '--json'])
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toEqual({error: {code: 1, message: 'Unexpected slice `S-09`, expected one of: S-01, S-02'}})
    expect(failed.stderr).toBe('')
    const yaml = await tiers(folder, 'checkpoint', 'S-09', '--yaml')
    expect(yaml).toEqual({code: 1, stdout: 'error:\n  code: 1\n  message: "Unexpected slice `S-09`, expected one of: S-01, S-02"\n', stderr: ''})
  })
})

describe('concurrency', () => {
  // Ten processes wait on one another's lock many times over; the many updates at once of one
  // process are `updateSliceState`'s own test (packages/runtime/test/state.test.ts).
  it('keeps all ten rejections when ten `tiers respond` run at once on one slice', async () => {
    const folder = await project()
    await editJson(file(folder, 'config.json'), (config) => (config.workflow.rejection_threshold = 100))
    const count = 10
    const feedbacks = Array.from({length: count}, (_, index) => `feedback ${index + 1}`)
    const runs = await Promise.all(feedbacks.map((feedback) => bin(folder, 'respond', 'S-01', feedback)))

    for (const run of runs) expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    // Each process saw a different count: none read a state another was about to overwrite.
    const counts = runs.map((run) => Number(/\nRejection (\d+) of 100 recorded\./.exec(run.stdout)?.[1]))
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({length: count}, (_, index) => index + 1))

    const state = await readState(folder, 'S-01')
    expect(state.rejectionCount).toBe(count)
    expect(state.rejections).toHaveLength(count)
    expect(new Set(state.rejections.map((entry: {feedback: string}) => entry.feedback))).toEqual(new Set(feedbacks))
    // No lock or temporary file is left behind.
    const left = await fs.readdir(file(folder, 'tiers'))
    expect(left.filter((name) => name.startsWith('S-01'))).toEqual(['S-01.json'])
    expectOk(await tiers(folder, 'status', 'S-01'), `S-01 Campaign Cards: verify, ${count}/100 rejections, undecided, never verified, next: route`)
  })
})

describe('bad input: one line on stderr, a non-zero exit, no stack trace', () => {
  it.concurrent('an unknown slice (exit 1, lists the known ones)', async ({expect}) => {
    const folder = await project()
    const runs = await Promise.all([tiers(folder, 'checkpoint', 'S-09'), tiers(folder, 'respond', 's-9', 'yes'), tiers(folder, 'status', 'S-9')])
    for (const run of runs) expect(run.code).toBe(1)
    expectError(runs[0]!, 1, 'Unexpected slice `S-09`, expected one of: S-01, S-02')
    expectError(runs[1]!, 1, 'Unexpected slice `s-9`, expected one of: S-01, S-02')
    expectError(runs[2]!, 1, 'Unexpected slice `S-9`, expected one of: S-01, S-02')
  })

  it.concurrent('a GRAPH.json that does not parse (exit 2, file and line:column)', async ({expect}) => {
    const folder = await project()
    const broken = '{\n  "slices": {\n    "S-01": {"name": "Campaign Cards",, "contracts": ["C-01"]}\n  }\n}\n'
    await fs.writeFile(file(folder, 'GRAPH.json'), broken)
    const column = broken.split('\n')[2]!.indexOf(',,') + 2
    const runs = await Promise.all([tiers(folder, 'status'), tiers(folder, 'checkpoint', 'S-01')])
    for (const run of runs) {
      expectError(run, 2, `.greenlight/GRAPH.json:3:${column}: Unexpected \`,\`, expected a property name in double quotes`)
    }
    expect(runs[0]!.stderr).not.toContain('position')
  })

  it.concurrent('a slice whose contracts are missing (exit 2, names them)', async ({expect}) => {
    const folder = await project()
    await editJson(file(folder, 'GRAPH.json'), (graph) => (graph.slices['S-02'].contracts = ['C-04', 'C-05', 'C-06', 'C-09']))
    const [checkpoint, respond, one, all] = await Promise.all([
      tiers(folder, 'checkpoint', 'S-02'),
      tiers(folder, 'respond', 'S-02', 'yes'),
      tiers(folder, 'status', 'S-02'),
      tiers(folder, 'status')
    ])
    const message = '.greenlight/GRAPH.json: slice S-02 lists C-09, which no contract file defines (CONTRACTS.md, contracts/*.md)'
    expectError(checkpoint, 2, message)
    expectError(respond, 2, message)
    expectError(one, 2, message)
    await expect(fs.access(file(folder, 'tiers', 'S-02.json'))).rejects.toThrow()
    // `status` of every slice still reports the others, and says what is broken.
    expect(all.code).toBe(0)
    expect(all.stdout).toBe(
      `${status.s01(0, 'undecided', 'verify')}\nS-02 Currency Formatting: GRAPH.json lists C-09, which no contract file defines\nproblem: .greenlight/GRAPH.json:19: Unexpected "C-09" in the contracts of slice S-02, expected the id or name of a contract in CONTRACTS.md or contracts/\n`
    )
  })

  it.concurrent.for([
    [
      'empty',
      () => '',
      /^tiers: \.greenlight\/tiers\/S-01\.json:1:1: Unexpected empty file, expected a value; fix or remove the file \(it is never reset silently\)$/
    ],
    [
      'cut half-way through',
      (whole: string) => whole.slice(0, Math.floor(whole.length / 2)),
      /^tiers: \.greenlight\/tiers\/S-01\.json:\d+:\d+: Unexpected .+; fix or remove the file \(it is never reset silently\)$/
    ]
  ] as const)('a truncated state file (%s): exit 2, names the file, never resets it', async ([, truncate, message], {expect}) => {
    // Verified, so that the approvals reach the state file.
    const folder = await verifiedProject()
    await reject(folder, 2)
    const stateFile = file(folder, 'tiers', 'S-01.json')
    await fs.writeFile(stateFile, truncate(await fs.readFile(stateFile, 'utf8')))
    const before = await fs.readFile(stateFile)
    // The commands that write the state (an answer, an escalation) and that read it; all load it through one reader.
    const runs = await Promise.all([tiers(folder, 'respond', 'S-01', 'still wrong'), tiers(folder, 'escalate', 'S-01', '3'), tiers(folder, 'status')])
    for (const run of runs) expectError(run, 2, message)
    expect(await fs.readFile(stateFile)).toEqual(before)
    // The other slice still works.
    expect((await tiers(folder, 'respond', 'S-02', 'yes')).code).toBe(0)
    expect(await fs.readFile(stateFile)).toEqual(before)
  })

  it.concurrent.for([
    ['a list', '[]\n', '1:1: Unexpected content, expected a slice state object'],
    [
      'another version',
      '{"version": 2, "slice": "S-01", "rejectionCount": 0, "rejections": [], "escalations": [], "decision": null}',
      '1:13: Unexpected `version` 2, expected 1'
    ],
    [
      'another slice',
      '{"version": 1, "slice": "S-02", "rejectionCount": 0, "rejections": [], "escalations": [], "decision": null}',
      '1:25: Unexpected `slice` "S-02", expected "S-01"'
    ],
    [
      'a text count',
      '{"version": 1, "slice": "S-01", "rejectionCount": "two", "rejections": [], "escalations": [], "decision": null}',
      '1:51: Unexpected `rejectionCount` "two", expected a whole number'
    ],
    [
      'rejections without feedback',
      '{"version": 1, "slice": "S-01", "rejectionCount": 1, "rejections": [{}], "escalations": [], "decision": null}',
      '1:69: Unexpected `rejections[0].feedback` missing, expected a string'
    ]
  ])('a state file of the wrong shape (%s): exit 2', async ([, text, reason], {expect}) => {
    const folder = await project()
    await fs.mkdir(file(folder, 'tiers'))
    await fs.writeFile(file(folder, 'tiers', 'S-01.json'), text)
    const [respond, state] = await Promise.all([tiers(folder, 'respond', 'S-01', 'the grid is wrong'), tiers(folder, 'status', 'S-01')])
    const message = `.greenlight/tiers/S-01.json:${reason}; fix or remove the file (it is never reset silently)`
    expectError(respond, 2, message)
    expectError(state, 2, message)
    expect(await fs.readFile(file(folder, 'tiers', 'S-01.json'), 'utf8')).toBe(text)
  })

  it.concurrent.for([
    ['"three"', '"three"'],
    ['0', '0'],
    ['2.5', '2.5'],
    ['null', 'null']
  ])('a bad workflow.rejection_threshold (%s): exit 2', async ([, value]) => {
    const folder = await project()
    await editJson(file(folder, 'config.json'), (config) => (config.workflow.rejection_threshold = JSON.parse(value)))
    expectError(
      await tiers(folder, 'status'),
      2,
      `.greenlight/config.json:6:28: Unexpected \`workflow.rejection_threshold\` ${value}, expected a whole number of 1 or more`
    )
  })

  it.concurrent('a config.json that does not parse, or is not an object (exit 2)', async () => {
    const folder = await project()
    await fs.writeFile(file(folder, 'config.json'), '{"mode": "yolo",}\n')
    expectError(await tiers(folder, 'status'), 2, '.greenlight/config.json:1:16: Unexpected trailing comma before `}`, expected another property after `,`')
    await fs.writeFile(file(folder, 'config.json'), '[]\n')
    expectError(
      await tiers(folder, 'status'),
      2,
      '.greenlight/config.json:1:1: Unexpected list, expected an object of settings, such as `{"test": {"command": "npm test"}}`'
    )
  })

  it.concurrent('a missing --dir folder, an unknown command or option, missing arguments (exit 1)', async () => {
    const folder = await project()
    const [dir, command, option, respond, route, checkpoint] = await Promise.all([
      tiers(folder, 'status', '--dir', 'nowhere'),
      tiers(folder, 'approve', 'S-01'),
      tiers(folder, 'status', '--bogus'),
      tiers(folder, 'respond', 'S-01'),
      tiers(folder, 'route', 'S-01'),
      tiers(folder, 'checkpoint')
    ])
    expectError(dir, 1, 'nowhere: no such project folder, expected `--dir <folder>` holding CONTRACTS.md')
    expectError(
      command,
      1,
      'Unexpected command `approve`, expected one of: checkpoint, respond, review, route, escalate, status, report, contracts, verify, ci, stop-hook, verdict, lint, init'
    )
    expectError(option, 1, 'Unexpected option `--bogus`, expected one of --dir, --json, --yaml, -h/--help (see tiers status --help)')
    expectError(respond, 1, 'Unexpected arguments, expected `tiers respond <slice> <text…>`')
    expectError(route, 1, 'Unexpected arguments, expected `tiers route <slice> <1|2|3> [--detail <text>]`')
    expectError(checkpoint, 1, 'Unexpected arguments, expected `tiers checkpoint <slice>`')
  })

  it.concurrent('no command is a one-line error in the `tiers: …` form (exit 1); --help prints the usage on stdout (exit 0)', async ({expect}) => {
    const folder = await project()
    const [none, json, help, short] = await Promise.all([tiers(folder), tiers(folder, '--json'), tiers(folder, '--help'), tiers(folder, 'status', '-h')])
    const missing = {
      code: 1,
      stdout: '',
      stderr:
        'tiers: Unexpected missing command, expected one of: checkpoint, respond, review, route, escalate, status, report, contracts, verify, ci, stop-hook, verdict, lint, init (see tiers --help)\n'
    }
    expect(none).toEqual(missing)
    expect(json).toEqual(missing)
    expect({code: help.code, stderr: help.stderr}).toEqual({code: 0, stderr: ''})
    expect(help.stdout).toMatch(/^Usage: tiers <command> \[options\]\n/)
    // After a command, the command’s own help.
    expect({code: short.code, stderr: short.stderr}).toEqual({code: 0, stderr: ''})
    expect(short.stdout).toMatch(/^Usage: tiers status \[slice\]\n/)
    for (const command of [
      'checkpoint',
      'respond',
      'route',
      'escalate',
      'status',
      'report',
      'verify',
      'stop-hook',
      'verdict',
      '--dir',
      '--json',
      '--detail',
      '--timeout',
      '--all'
    ]) {
      expect(help.stdout).toContain(`  ${command} `)
    }
    expect(help.stdout).toContain(
      'Exit codes: 0 done; 1 a usage error (unknown slice, bad choice), a failed check\nor a closed gate (checkpoint without fresh passing verification); 2 a broken file;\n3 a bug in tiers (`--debug` prints its stack).'
    )
  })

  it.concurrent('--dir reaches a project from elsewhere; an all-auto slice needs no checkpoint', async ({expect}) => {
    const folder = await project()
    await editJson(file(folder, 'GRAPH.json'), (graph) => (graph.slices['S-03'] = {name: 'Plumbing', contracts: ['C-02', 'C-04']}))
    const elsewhere = path.dirname(folder)
    const dir = path.join(folder, '.greenlight')
    const [checkpoint, state, data] = await Promise.all([
      tiers(elsewhere, 'checkpoint', 'S-03', '--dir', dir),
      tiers(elsewhere, 'status', 'S-03', '--dir', dir),
      tiers(elsewhere, 'checkpoint', 'S-03', '--dir', dir, '--json')
    ])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toBe('Slice S-03: Plumbing is auto: every contract is auto, so no checkpoint is needed.\n')
    expect(state.stdout).toBe('S-03 Plumbing: auto, 0/3 rejections, undecided, never verified, next: verify\n')
    expect(JSON.parse(data.stdout)).toEqual({slice: 'S-03', name: 'Plumbing', tier: 'auto', retired: null, checkpoint: null, warnings: []})
  })
})

describe('without GRAPH.json', () => {
  it('takes the slices from the Slice fields and the `## S-NN: Name` headings', async () => {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    await verified(folder)
    const [all, checkpoint1, checkpoint2, report] = await Promise.all([
      tiers(folder, 'status'),
      tiers(folder, 'checkpoint', 'S-01'),
      tiers(folder, 'checkpoint', 'S-02'),
      tiers(folder, 'report', 'S-02', '--json')
    ])
    expectOk(all, `${status.s01(0, 'undecided', 'checkpoint', 'run passes')}\n${status.s02('undecided', 'checkpoint', 0, 'run passes')}`)
    expectOk(checkpoint1, checkpointS01)
    // contracts/C-06.md (YAML front matter, `slice: S-02`) joins S-02; C-05 has nothing to check, and the checkpoint says so.
    expect({code: checkpoint2.code, stderr: checkpoint2.stderr}).toEqual({
      code: 0,
      stderr: 'tiers: warning: C-05 SpendColumnHeader: verify tier with no acceptance criteria or steps\n'
    })
    expect(normalize(checkpoint2.stdout)).toBe(checkpointS02 + '\n')
    expect(json(report).contracts.map((contract: {label: string}) => contract.label)).toEqual(['C-04 FormatSpend', 'C-05 SpendColumnHeader', 'C-06 ExportCsv'])
    // The loop works the same.
    expect((await tiers(folder, 'respond', 'S-02', 'Yes')).code).toBe(0)
    expect((await readState(folder, 'S-02')).decision.status).toBe('approved')
  })
})
