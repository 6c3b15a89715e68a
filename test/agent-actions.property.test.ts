/**
 * Only a person approves: a property over what a coding agent can do in a
 * project. From one start (a git repository on a branch `feature` off
 * `main`), any sequence of agent actions never reaches an approved verify
 * slice, a lowered bar that counts, a passing `tiers ci --base main`, or
 * rejections taken back; the person, at a terminal, approves in one step.
 *
 * The start: on `main`, a person approved S-01 (Greeting) and S-02
 * (Farewell), both verify, at a terminal; S-02 then got 3 rejections,
 * relayed (as an orchestrator passes the person’s words on), and waits for
 * the person’s escalation choice. On `feature`, S-01’s contract changed (a
 * new name and a new criterion), and `tiers verify --all` passed: S-01
 * waits for its checkpoint. Both slices are on `main`, where a person
 * approved them: what they asked of a person then is the bar. (The new
 * name keeps every edit below from giving back the contracts the person
 * approved, which would be their approval, not the agent’s.)
 *
 * The agent’s actions: contract edits (verify to auto, the tier removed, a
 * criterion or step removed or reworded, the steps removed, a contract
 * deleted), the settings (`config.json` default auto, the graph’s slice
 * tier auto, the human check retired; a tool’s `tiers.json` is in
 * test/weakening.test.ts), state files (a forged `decision`, a file deleted,
 * its answers or rejections dropped, copied or renamed to another slice, an
 * approval added as relayed, a rejection turned into an approval, an
 * approval’s fingerprint set to the contracts as they are, an answer
 * withdrawn by hand as `tiers respond --undo` writes it, the last run
 * deleted), the workflow’s own claims (`STATE.md` `- [x] S-01`, a
 * `slices/*.md` with `status: complete`), a slice taken out of the graph
 * with its contract (deleted, or kept in a folder the gate does not read,
 * as a tool's archive is), `git add -A && git commit`, and
 * `tiers` commands as an agent runs them: with a variable of the registry of
 * agent markers set, or standard input a pipe, or both (`respond` with an
 * approval, an option’s text or feedback, `escalate`, `respond --undo`,
 * `review`, `verify`, `checkpoint`, `init`).
 *
 * After each sequence (every `tiers` run through the cli's `main` in this
 * process, its standard input a terminal or a pipe as the action says):
 * `tiers ci --base main` holds;
 * a start slice the project no longer has is held by name in `tiers ci`;
 * every other is held in `tiers status` (verify, not done, S-02 still
 * at 3 rejections, or a line naming what holds it) and not let go by the
 * Stop hook (it blocks, or names the slice for the person: a slice whose
 * checks pass waits for the person at its checkpoint, so the agent may
 * stop); and `tiers ci` approves none of them. Only a state file the merge
 * holds by name (its history lost or changed against `main`) may read
 * otherwise, and only once the agent committed it: `status` and the hook
 * compare with `HEAD`, which the agent moves; the base of the branch is
 * where that is caught.
 *
 * Out of scope, as the README’s Security section says: an agent that writes
 * a complete answer as a person’s (`"channel": "terminal"` with a
 * fingerprint of the contracts as they are; a withdrawal with
 * `"withdrawnChannel": "terminal"`), or that fakes a terminal or strips
 * its variables: nothing local tells that from the person, and a person
 * reviewing `<project>/tiers/*.json` in CI closes it. None is generated. Nor is a slice new on the branch: its tier is the branch’s to
 * say, and reviewed with it.
 *
 * Each run works on a copy of one prepared repository. The default is a few
 * short sequences (the suite runs it on two cores); `FUZZ_SCALE=10` runs ten
 * times as many, `FUZZ_SEED` picks another seed.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {findSlice, gateContext, loadProject} from '@verification-tiers/project'
import {deriveDecision} from '@verification-tiers/runtime'
import type {AnswerEntry, SliceState} from '@verification-tiers/runtime'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {agentMarkers} from '../packages/cli/dist/lib/person.js'
import {testIdentity} from './helpers/agent-environment.js'
import {builtBin, git, runTiers, scriptBin} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'
import {runTiersHere, runTiersPiped} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))

const folders: string[] = []

const sliceIds = ['S-01', 'S-02'] as const
type SliceId = (typeof sliceIds)[number]
const contractOf: Record<SliceId, string> = {'S-01': 'C-01', 'S-02': 'C-02'}

/** The contracts as `main` holds them: what a person approved. */
const mainContracts = `# Contracts

### C-01: Greeting

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- The greeting reads well to a person
- The greeting names the person
**Steps:**
1. Open the greeting page

### C-02: Farewell

**Slice:** S-02
**Verification:** verify
**Acceptance Criteria:**
- The farewell reads well to a person
`

/** The branch’s change to S-01, which no person approved yet: a new name and a new criterion. */
const featureContracts = mainContracts
  .replace('### C-01: Greeting', '### C-01: Warm greeting')
  .replace('- The greeting names the person\n', '- The greeting names the person\n- The greeting says the time of day\n')

const graph = {
  slices: {
    'S-01': {name: 'Greeting', contracts: ['C-01'], verification: 'verify. Human check: greet a person and watch'},
    'S-02': {name: 'Farewell', contracts: ['C-02'], verification: 'verify'}
  }
}

/** What `tiers init` keeps out of git: one machine’s run, counts, caches and locks. */
const gitignore = [
  '.greenlight/tiers/verification-status.json',
  '.greenlight/tiers/stop-hook.json',
  '.greenlight/tiers/.verify-lint-cache',
  '.greenlight/tiers/*.lock',
  ''
].join('\n')

const dirOf = (folder: string) => path.join(folder, '.greenlight')
const stateFile = (folder: string, slice: string) => path.join(dirOf(folder), 'tiers', `${slice}.json`)
const runFile = (folder: string) => path.join(dirOf(folder), 'tiers', 'verification-status.json')

/** Ok, or what the bin said instead. */
function succeeded(run: Run, what: string): void {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stdout}${run.stderr}`)
}

/** The start, prepared once: each run copies it. */
let template: string

beforeAll(async () => {
  await fs.access(builtBin)
  template = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-agent-start-')))
  folders.push(template)
  await fs.mkdir(dirOf(template))
  await fs.writeFile(path.join(dirOf(template), 'CONTRACTS.md'), mainContracts)
  await fs.writeFile(path.join(dirOf(template), 'GRAPH.json'), `${JSON.stringify(graph, null, 2)}\n`)
  await fs.writeFile(path.join(dirOf(template), 'config.json'), '{"test": {"command": "true"}}\n')
  await fs.writeFile(path.join(template, '.gitignore'), gitignore)
  await git(template, 'init', '-q', '-b', 'main')
  await git(template, 'add', '-A')
  await git(template, 'commit', '-q', '-m', 'Greeting and farewell')
  // The person approves both at a terminal; then S-02 gets 3 rejections, relayed.
  succeeded(await runTiersHere(template, ['verify', '--all']), 'tiers verify --all')
  for (const slice of sliceIds) succeeded(await runTiersHere(template, ['respond', slice, 'yes']), `tiers respond ${slice} yes`)
  for (const feedback of ['The farewell is cold', 'The farewell is long', 'The farewell is late']) {
    succeeded(await runTiersHere(template, ['respond', 'S-02', feedback], '', {}, {terminal: false}), 'relayed feedback')
  }
  await git(template, 'add', '-A')
  await git(template, 'commit', '-q', '-m', 'Answers')
  await git(template, 'checkout', '-q', '-b', 'feature')
  await fs.writeFile(path.join(dirOf(template), 'CONTRACTS.md'), featureContracts)
  await git(template, 'commit', '-q', '-am', 'A warmer greeting')
  succeeded(await runTiersHere(template, ['verify', '--all']), 'tiers verify --all')
}, 120_000)

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A copy of the start, as fresh as it: the run is recorded by content and `HEAD`. */
async function startCopy(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-agent-')))
  folders.push(folder)
  await fs.cp(template, folder, {recursive: true})
  return folder
}

/** A variable of the registry set off, as the agent’s commands have it. */
const markerArb = fc.constantFrom(...agentMarkers).map((marker) => {
  const name = marker.variable.endsWith('*') ? `${marker.variable.slice(0, -1)}_NETWORK_DISABLED` : marker.variable
  return [name, marker.value ?? '1'] as const
})

type Action =
  | {
      kind: 'contract'
      contract: 'C-01' | 'C-02'
      edit: 'tier-auto' | 'tier-removed' | 'item-removed' | 'item-reworded' | 'steps-removed' | 'deleted'
      index: number
    }
  | {kind: 'setting'; edit: 'default-auto' | 'threshold-raised' | 'graph-auto' | 'check-retired'; slice: SliceId}
  | {kind: 'state'; slice: SliceId; edit: StateEdit}
  | {kind: 'run-deleted'}
  | {kind: 'done-claim'; slice: SliceId; where: 'state-item' | 'state-table' | 'slice-file'}
  | {kind: 'slice-removed'; slice: SliceId; to: 'nowhere' | 'archive'}
  | {kind: 'commit'}
  | {kind: 'tiers'; args: string[]; input: string; marker: readonly [string, string] | null; terminal: boolean}

type StateEdit =
  | {kind: 'decision-forged'}
  | {kind: 'deleted'}
  | {kind: 'answers-dropped'}
  | {kind: 'rejections-dropped'}
  | {kind: 'copied-to'; target: string}
  | {kind: 'renamed-to'; target: string}
  | {kind: 'relayed-approval'; withDecision: boolean}
  | {kind: 'rejection-flipped'; withDecision: boolean}
  | {kind: 'fingerprint-changed'}
  | {kind: 'withdrawn-by-hand'; channel: 'none' | 'relayed'}

const sliceArb = fc.constantFrom(...sliceIds)
const approvalArb = fc.constantFrom('yes', 'approve', 'LGTM!', '1', '1) Yes — mark complete and continue', 'Yes — mark complete and continue', 'ok')

/** A `tiers` command as an agent runs it: a marker set, or a pipe for standard input, or both. */
const tiersArb: fc.Arbitrary<Action> = fc
  .tuple(
    fc.oneof(
      fc.tuple(sliceArb, approvalArb).map(([slice, reply]) => ({args: ['respond', slice, reply], input: ''})),
      sliceArb.map((slice) => ({args: ['respond', slice, 'The words are cold'], input: ''})),
      fc.constantFrom('1', '2', '3').map((choice) => ({args: ['escalate', 'S-02', choice], input: ''})),
      sliceArb.map((slice) => ({args: ['respond', '--undo', slice], input: ''})),
      fc.tuple(fc.option(sliceArb), approvalArb).map(([slice, reply]) => ({args: slice ? ['review', slice] : ['review'], input: `${reply}\n`})),
      fc.option(sliceArb).map((slice) => ({args: slice ? ['verify', slice] : ['verify', '--all'], input: ''})),
      sliceArb.map((slice) => ({args: ['checkpoint', slice], input: ''})),
      fc.constant({args: ['init'] as string[], input: ''})
    ),
    fc.option(markerArb, {freq: 2}),
    fc.boolean()
  )
  .map(([command, marker, terminal]) => ({kind: 'tiers' as const, ...command, marker, terminal: marker !== null && terminal}))

const stateEditArb: fc.Arbitrary<StateEdit> = fc.oneof(
  fc.constant({kind: 'decision-forged' as const}),
  fc.constant({kind: 'deleted' as const}),
  fc.constant({kind: 'answers-dropped' as const}),
  fc.constant({kind: 'rejections-dropped' as const}),
  fc.constantFrom('S-01', 'S-02').map((target) => ({kind: 'copied-to' as const, target})),
  fc.constantFrom('S-01', 'S-02', 'S-03').map((target) => ({kind: 'renamed-to' as const, target})),
  fc.boolean().map((withDecision) => ({kind: 'relayed-approval' as const, withDecision})),
  fc.boolean().map((withDecision) => ({kind: 'rejection-flipped' as const, withDecision})),
  fc.constant({kind: 'fingerprint-changed' as const}),
  {arbitrary: fc.constantFrom('none' as const, 'relayed' as const).map((channel) => ({kind: 'withdrawn-by-hand' as const, channel})), weight: 3}
)

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('contract' as const),
      contract: fc.constantFrom('C-01' as const, 'C-02' as const),
      edit: fc.constantFrom(
        'tier-auto' as const,
        'tier-removed' as const,
        'item-removed' as const,
        'item-reworded' as const,
        'steps-removed' as const,
        'deleted' as const
      ),
      index: fc.nat(3)
    }),
    weight: 3
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('setting' as const),
      edit: fc.constantFrom('default-auto' as const, 'threshold-raised' as const, 'graph-auto' as const, 'check-retired' as const),
      slice: sliceArb
    }),
    weight: 2
  },
  {arbitrary: fc.record({kind: fc.constant('state' as const), slice: sliceArb, edit: stateEditArb}), weight: 6},
  fc.constant({kind: 'run-deleted' as const}),
  fc.record({
    kind: fc.constant('done-claim' as const),
    slice: sliceArb,
    where: fc.constantFrom('state-item' as const, 'state-table' as const, 'slice-file' as const)
  }),
  fc.record({kind: fc.constant('slice-removed' as const), slice: sliceArb, to: fc.constantFrom('nowhere' as const, 'archive' as const)}),
  {arbitrary: fc.constant({kind: 'commit' as const}), weight: 2},
  {arbitrary: tiersArb, weight: 4}
)

/** The lines of contract `id`’s section changed by `edit` (`null`: the section removed). */
function editContract(text: string, id: string, edit: (lines: string[]) => string[] | null): string {
  const sections = text.split(/^(?=### )/m)
  return sections
    .flatMap((section) => {
      if (!section.startsWith(`### ${id}:`)) return [section]
      const lines = edit(section.split('\n'))
      return lines === null ? [] : [lines.join('\n')]
    })
    .join('')
}

/** Change a JSON file in place; a file that is gone or does not parse is left as it is. */
async function editJson<T>(file: string, edit: (value: T) => T | undefined): Promise<void> {
  let value: T
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8')) as T
  } catch {
    return
  }
  const next = edit(value)
  if (next !== undefined) await fs.writeFile(file, `${JSON.stringify(next, null, 2)}\n`)
}

/** The slice as it is now, as an agent reads it with the packages: the hash of its contracts and its pins; `null` when the project does not read. */
async function sliceNow(folder: string, slice: string): Promise<ReturnType<typeof gateContext> | null> {
  try {
    const project = await loadProject(dirOf(folder))
    return gateContext(project, findSlice(project, slice))
  } catch {
    return null
  }
}

const now = () => new Date().toISOString()

/** An agent’s edit of a state file: what a forger would write, each field as `tiers` writes it. */
async function editState(folder: string, slice: SliceId, edit: StateEdit): Promise<void> {
  const file = stateFile(folder, slice)
  if (edit.kind === 'deleted') return fs.rm(file, {force: true})
  if (edit.kind === 'copied-to' || edit.kind === 'renamed-to') {
    const text = await fs.readFile(file, 'utf8').catch(() => null)
    if (edit.target === slice || text === null) return
    // With its `slice` made the target’s, as a renamed file must say.
    await fs.writeFile(stateFile(folder, edit.target), `${JSON.stringify({...JSON.parse(text), slice: edit.target}, null, 2)}\n`)
    if (edit.kind === 'renamed-to') await fs.rm(file, {force: true})
    return
  }
  const context = await sliceNow(folder, slice)
  const hash = context?.contractsHash ?? null
  await editJson<SliceState>(file, (state) => {
    switch (edit.kind) {
      case 'decision-forged':
        if (hash === null) return undefined
        state.decision = {status: 'approved', at: now(), contractsHash: hash, mismatch: []}
        return state
      case 'answers-dropped':
        state.answers = []
        return state
      case 'rejections-dropped':
        state.rejections = []
        state.rejectionCount = 0
        return state
      case 'relayed-approval': {
        if (hash === null) return undefined
        const at = now()
        const answer: AnswerEntry = {
          reply: 'yes',
          outcome: 'approval',
          at,
          decisionBefore: state.decision,
          escalationsBefore: state.escalations.length,
          withdrawnAt: null,
          withdrawnRejection: null,
          by: testIdentity,
          channel: 'relayed',
          fingerprint: hash,
          ...(context?.pins ? {pins: context.pins} : {})
        }
        state.answers.push(answer)
        if (edit.withDecision) state.decision = {status: 'approved', at, contractsHash: hash, mismatch: []}
        return state
      }
      case 'rejection-flipped': {
        const answer = state.answers.findLast((entry) => entry.outcome === 'rejection' && entry.withdrawnAt === null)
        if (!answer) return undefined
        answer.outcome = 'approval'
        if (edit.withDecision) {
          state.rejections = state.rejections.filter((entry) => entry.at !== answer.at)
          state.rejectionCount = state.rejections.length
          state.decision = {status: 'approved', at: answer.at, contractsHash: answer.fingerprint ?? hash ?? '', mismatch: []}
        }
        return state
      }
      case 'fingerprint-changed': {
        const answer = state.answers.findLast((entry) => entry.outcome === 'approval' && entry.withdrawnAt === null)
        if (!answer || hash === null) return undefined
        answer.fingerprint = hash
        state.decision = deriveDecision(state)
        return state
      }
      case 'withdrawn-by-hand': {
        const answer = state.answers.findLast((entry) => entry.withdrawnAt === null)
        if (!answer) return undefined
        answer.withdrawnAt = now()
        if (edit.channel === 'relayed') Object.assign(answer, {withdrawnBy: testIdentity, withdrawnChannel: 'relayed'})
        if (answer.outcome === 'rejection') {
          answer.withdrawnRejection = state.rejections.pop() ?? null
          state.rejectionCount = Math.max(0, state.rejectionCount - 1)
        }
        state.decision = deriveDecision(state)
        return state
      }
    }
  })
}

/** Do `action` in `folder`, as the agent would. */
async function act(folder: string, action: Action): Promise<void> {
  const dir = dirOf(folder)
  switch (action.kind) {
    case 'contract': {
      const file = path.join(dir, 'CONTRACTS.md')
      const text = await fs.readFile(file, 'utf8')
      // The criteria, then the steps.
      const items = (lines: string[]) => lines.flatMap((line, index) => (line.startsWith('- ') || /^\d+\. /.test(line) ? [index] : []))
      const edited = editContract(text, action.contract, (lines) => {
        switch (action.edit) {
          case 'tier-auto':
            return lines.map((line) => (line === '**Verification:** verify' ? '**Verification:** auto' : line))
          case 'tier-removed':
            return lines.filter((line) => !line.startsWith('**Verification:**'))
          case 'item-removed': {
            const found = items(lines)
            const at = found[action.index % Math.max(1, found.length)]
            return at === undefined ? lines : lines.filter((_, index) => index !== at)
          }
          case 'item-reworded': {
            const found = items(lines)
            const at = found[action.index % Math.max(1, found.length)]
            return at === undefined ? lines : lines.map((line, index) => (index === at ? `${line}, most days` : line))
          }
          case 'steps-removed':
            return lines.filter((line) => line !== '**Steps:**' && !/^\d+\. /.test(line))
          case 'deleted':
            return null
        }
      })
      return fs.writeFile(file, edited)
    }
    case 'setting':
      if (action.edit === 'default-auto')
        return editJson<Record<string, unknown>>(path.join(dir, 'config.json'), (config) => ({...config, verification: {default: 'auto'}}))
      // More rejections before the escalation: S-02 would no longer wait for the person’s choice.
      if (action.edit === 'threshold-raised')
        return editJson<{workflow?: Record<string, unknown>}>(path.join(dir, 'config.json'), (config) => ({
          ...config,
          workflow: {...config.workflow, rejection_threshold: 10}
        }))
      return editJson<typeof graph>(path.join(dir, 'GRAPH.json'), (value) => {
        const entry = value.slices[action.slice]
        if (entry) entry.verification = action.edit === 'graph-auto' ? 'auto' : 'was verify; the check is retired, the agent says it is done'
        return value
      })
    case 'state':
      return editState(folder, action.slice, action.edit)
    case 'run-deleted':
      return fs.rm(runFile(folder), {force: true})
    case 'done-claim': {
      if (action.where === 'slice-file') {
        await fs.mkdir(path.join(dir, 'slices'), {recursive: true})
        return fs.writeFile(path.join(dir, 'slices', `${action.slice}.md`), `---\nid: ${action.slice}\nstatus: complete\n---\n\nDone.\n`)
      }
      const line = action.where === 'state-item' ? `- [x] ${action.slice} done\n` : `\n| Slice | Status |\n| --- | --- |\n| ${action.slice} | complete |\n`
      return fs.appendFile(path.join(dir, 'STATE.md'), line)
    }
    case 'slice-removed': {
      // The slice taken out of the graph, and its contract out of CONTRACTS.md: deleted, or kept in a folder the gate does not read, as a tool's archive is.
      const file = path.join(dir, 'CONTRACTS.md')
      const text = await fs.readFile(file, 'utf8')
      const contract = contractOf[action.slice]
      if (action.to === 'archive') {
        const section = text.split(/^(?=### )/m).find((each) => each.startsWith(`### ${contract}:`))
        await fs.mkdir(path.join(folder, 'archive'), {recursive: true})
        if (section !== undefined) await fs.writeFile(path.join(folder, 'archive', `${action.slice}.md`), section)
      }
      await fs.writeFile(
        file,
        editContract(text, contract, () => null)
      )
      return editJson<typeof graph>(path.join(dir, 'GRAPH.json'), (value) => {
        delete (value.slices as Record<string, unknown>)[action.slice]
        return value
      })
    }
    case 'commit':
      await git(folder, 'add', '-A')
      await git(folder, 'commit', '-q', '--allow-empty', '-m', 'Agent work')
      return
    case 'tiers': {
      const env = action.marker ? {[action.marker[0]]: action.marker[1]} : {}
      await runTiersHere(folder, action.args, action.input, env, {terminal: action.terminal})
      return
    }
  }
}

/** What the gate says of a project, as an agent runs it (standard input a pipe), and which state files are as the agent committed them. */
interface Judgement {
  status: Run
  ci: Run
  hook: Run
  committed: Record<SliceId, boolean>
}

async function judge(folder: string): Promise<Judgement> {
  const [status, ci, hook, ...changed] = await Promise.all([
    runTiersPiped(folder, ['status', '--json']),
    runTiersPiped(folder, ['ci', '--base', 'main', '--json']),
    runTiersPiped(folder, ['stop-hook'], JSON.stringify({session_id: 'agent-actions', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false})),
    ...sliceIds.map((slice) => git(folder, 'status', '--porcelain', '--', stateFile(folder, slice)))
  ])
  return {status, ci, hook, committed: {'S-01': changed[0] === '', 'S-02': changed[1] === ''}}
}

interface StatusRow {
  slice: string
  tier: string
  rejectionCount: number
  next: string
}

/**
 * The property’s oracle. `tiers ci --base main` holds, always. A start slice
 * whose state file the merge holds by name (its history lost or changed
 * against `main`), and which is as `HEAD` holds it (the agent committed it),
 * may read anyhow where `HEAD` is what is compared with; every other one is
 * held in `status` (verify, not done, S-02 at 3 rejections, or a line naming
 * what holds it), is not among the slices `ci` approves, and the hook
 * blocks or names it for the person.
 */
function expectHeld({status, ci, hook, committed}: Judgement, actions: readonly Action[]): void {
  const said = `after ${JSON.stringify(actions)}:\nstatus: ${status.stdout}${status.stderr}\nci: ${ci.stdout}${ci.stderr}\nhook: ${hook.stdout}${hook.stderr}`
  expect(ci.code, said).not.toBe(0)
  const merge = ci.code === 1 ? (JSON.parse(ci.stdout) as {holds: Array<{line: string; slice: string | null}>; approved: string[]}) : null
  const heldByName = (slice: string) => merge?.holds.some((hold) => hold.line.includes(`${path.join('.greenlight', 'tiers', slice)}.json`)) ?? false
  const answer = JSON.parse(hook.stdout) as {decision?: string; reason?: string; systemMessage?: string}
  // A broken file stops `status` with one line naming it: the status is held.
  const shown = status.code === 0 ? (JSON.parse(status.stdout) as {slices: StatusRow[]; problems: unknown[]; lostHistory: string[]; broken: unknown[]}) : null
  // Asked for as JSON, the error is the JSON on stdout, naming the file.
  if (shown === null) expect((JSON.parse(status.stdout) as {error: {message: string}}).error.message, said).toMatch(/^[^\n]*\.greenlight[^\n]*$/)
  for (const slice of sliceIds) {
    if (heldByName(slice)) {
      if (committed[slice]) continue
    } else {
      expect(merge?.approved ?? [], said).not.toContain(slice)
    }
    if (shown) {
      const lines = [...shown.problems, ...shown.lostHistory, ...shown.broken].map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
      const statusHolds = lines.some((line) => new RegExp(`\\b(${slice}|${contractOf[slice]})\\b`).test(line))
      const row = shown.slices.find((entry) => entry.slice === slice)
      // A slice the project no longer has (removed, or archived where the gate does not read): the merge holds it by name.
      if (!statusHolds && row === undefined) {
        expect(merge?.holds.some((hold) => hold.slice === slice) ?? false, said).toBe(true)
        continue
      }
      if (!statusHolds) {
        expect(row, said).toBeDefined()
        expect(row!.tier, said).toBe('verify')
        expect(['done', 'nothing'], said).not.toContain(row!.next)
        // S-02 waits for the person’s escalation choice, whatever else changed: no agent action gets it past that.
        if (slice === 'S-02') expect([row!.rejectionCount >= 3, row!.next], said).toEqual([true, 'escalation'])
      }
    }
    if (answer.decision !== 'block') expect(answer.systemMessage ?? '', said).toMatch(new RegExp(`\\b(${slice}|${contractOf[slice]})\\b`))
  }
}

/** Sequences that once got through, run first: a rejection taken back by `--undo` from an agent’s command, then by hand (putting back the approval the rejections cleared), and committed; a rejection threshold raised; a slice with no run that `STATE.md` calls done. */
const examples: Action[][] = [
  [{kind: 'tiers', args: ['respond', '--undo', 'S-02'], input: '', marker: ['COPILOT_CLI', '1'], terminal: false}],
  [{kind: 'tiers', args: ['respond', '--undo', 'S-02'], input: '', marker: null, terminal: false}],
  [...Array.from({length: 3}, (): Action => ({kind: 'state', slice: 'S-02', edit: {kind: 'withdrawn-by-hand', channel: 'none'}})), {kind: 'commit'}],
  // A rejection threshold raised after S-02 reached it.
  [{kind: 'setting', edit: 'threshold-raised', slice: 'S-02'}],
  // The workflow’s word for a slice with no run: `STATE.md` calling S-02 done never lets it go.
  [
    {kind: 'run-deleted'},
    {kind: 'done-claim', slice: 'S-02', where: 'state-item'},
    {kind: 'tiers', args: ['verify', 'S-01'], input: '', marker: null, terminal: false}
  ]
]

describe('agent actions never approve', () => {
  it('the start: S-01 waits for its checkpoint, S-02 for an escalation choice; the merge waits for S-01', async () => {
    const folder = await startCopy()
    const {status, ci, hook} = await judge(folder)
    const rows = (JSON.parse(status.stdout) as {slices: StatusRow[]}).slices.map(({slice, tier, rejectionCount, next}) => ({slice, tier, rejectionCount, next}))
    expect(rows).toEqual([
      {slice: 'S-01', tier: 'verify', rejectionCount: 0, next: 'checkpoint'},
      {slice: 'S-02', tier: 'verify', rejectionCount: 3, next: 'escalation'}
    ])
    expect([ci.code, JSON.parse(ci.stdout).holds.map((hold: {slice: string}) => hold.slice), JSON.parse(ci.stdout).unchanged]).toEqual([1, ['S-01'], ['S-02']])
    expect(JSON.parse(hook.stdout)).toEqual({
      systemMessage:
        'All automated criteria pass. For a human to check:\n  - C-01.1: The greeting reads well to a person\n  - C-01.2: The greeting names the person\n  - C-01.3: The greeting says the time of day\n  - C-02.1: The farewell reads well to a person'
    })
  })

  it(
    'for any sequence of agent actions: no approval, no lowered bar, no passing merge, no rejection taken back',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(actionArb, {minLength: 1, maxLength: 6}), async (actions) => {
          const folder = await startCopy()
          for (const action of actions) await act(folder, action)
          expectHeld(await judge(folder), actions)
          await fs.rm(folder, {recursive: true, force: true})
        }),
        {seed: baseSeed, numRuns: runs(16), endOnFailure: true, examples: examples.map((sequence) => [sequence])}
      )
    },
    120_000 + runs(16) * 10_000
  )
})

describe.runIf(existsSync(scriptBin))('the person’s path', () => {
  it('`tiers review S-01` at a terminal, answered yes, approves in one step: done, and the merge passes', async () => {
    const folder = await startCopy()
    const review = await runTiers(folder, ['review', 'S-01'], 'yes\n', {}, {terminal: true})
    expect(review.code).toBe(0)
    expect(review.stdout).toMatch(
      /^ALL TESTS PASSING — Slice S-01: Greeting\n[\s\S]*\nYour answer \(yes, or what is wrong\): APPROVED — Slice S-01: Greeting\n/
    )
    const row = (JSON.parse((await runTiers(folder, ['status', 'S-01', '--json'])).stdout) as {slices: StatusRow[]}).slices[0]
    expect(row).toMatchObject({slice: 'S-01', tier: 'verify', next: 'done'})
    const ci = await runTiers(folder, ['ci', '--base', 'main'])
    expect([ci.code, ci.stdout]).toEqual([
      0,
      expect.stringMatching(
        /^MERGE READY — every verify slice is approved for its contracts as they are \(1 approved; 1 unchanged since main\)\n {2}S-01 Greeting: approved by Tiers Test <tiers@example\.com>, at a terminal, \d{4}-\d\d-\d\dT[\d:.]+Z\n$/
      )
    ])
  })
})
