/**
 * A property of the stop hook over random work: after any sequence of edits
 * to a source file, edits to a contract, `verify` of a slice, and replies
 * (an approval or feedback), the stop hook never allows the agent to stop
 * (`{}` or an allow with a message) while some slice has no passing run
 * since the last change that concerns it: any source edit concerns every
 * slice, a contract edit its own slice.
 *
 * The oracle is this model, not the hook’s code: the hook may be stricter
 * (in git, a contract edit makes every slice’s run stale), never looser.
 * Steps run in-process (`verifySlices`, `recordResponse`, `answerStopHook`)
 * on a scratch git repository, one per run, and each verify spawns the
 * checks’ shells, so the default is a few runs: `FUZZ_SCALE=10` runs ten
 * times as many, `FUZZ_SEED` picks another seed.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {answerStopHook, checkApprovable, verifySlices} from '@verification-tiers/evidence'
import {findSlice, gateContext, loadProject} from '@verification-tiers/project'
import {lintTexts} from '@verification-tiers/lint'
import {lintedTextsOf} from '@verification-tiers/lint/text-cache'
import {recordResponse} from '@verification-tiers/runtime'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {git} from './helpers/tiers-bin.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))

/** The contract files linted in this thread: each verify's worker would load the engine again, and the worker is not what this property is about. */
const lintHere = async (files: ReadonlyArray<{path: string; text: string}>) => new Map(lintedTextsOf(await lintTexts(files)))

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const sliceIds = ['S-01', 'S-02'] as const
type SliceId = (typeof sliceIds)[number]

/** A contract section: S-01 auto (a check on the file), S-02 verify (a check on its content, and a criterion for a person); `notes` are prose lines in its body. */
function contractText(notes: Record<SliceId, string[]>): string {
  const body = (lines: string[]) => lines.map((line) => `${line}\n\n`).join('')
  return `# Contracts

## S-01: Build

### C-01: Build

${body(notes['S-01'])}**Slice:** S-01
**Verification:** auto
**Acceptance Criteria:**
- The build passes -- verified by: \`test -f src/app.txt\`

## S-02: Checkout

### C-02: Checkout

${body(notes['S-02'])}**Slice:** S-02
**Verification:** verify
**Acceptance Criteria:**
- The total is shown -- verified by: \`grep -q total src/app.txt\`
- The page reads well to a person
`
}

type Action =
  | {kind: 'edit-source'; withTotal: boolean; salt: number}
  | {kind: 'edit-contract'; slice: SliceId; salt: number}
  | {kind: 'verify'; slice: SliceId}
  | {kind: 'respond'; slice: SliceId; approve: boolean}
  | {kind: 'hook'}

const sliceArb = fc.constantFrom(...sliceIds)
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({kind: fc.constant('edit-source' as const), withTotal: fc.boolean(), salt: fc.nat(1000)}),
  fc.record({kind: fc.constant('edit-contract' as const), slice: sliceArb, salt: fc.nat(1000)}),
  {arbitrary: fc.record({kind: fc.constant('verify' as const), slice: sliceArb}), weight: 3},
  {arbitrary: fc.record({kind: fc.constant('respond' as const), slice: sliceArb, approve: fc.boolean()}), weight: 2},
  {arbitrary: fc.record({kind: fc.constant('hook' as const)}), weight: 2}
)

/** What the model knows: the step of each slice’s last relevant change, and of its last passing verify. */
interface Model {
  step: number
  changedAt: Record<SliceId, number>
  passedAt: Record<SliceId, number | null>
}

async function scratch(notes: Record<SliceId, string[]>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-stop-property-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight'))
  await fs.mkdir(path.join(folder, 'src'))
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), contractText(notes))
  await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), JSON.stringify({test: {command: 'test -f src/app.txt'}}))
  await fs.writeFile(path.join(folder, 'src', 'app.txt'), 'app\n')
  await git(folder, 'init', '-q')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'scratch')
  return folder
}

describe('the stop hook over random work', () => {
  it('never allows while a slice has no passing run since its last change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, {minLength: 1, maxLength: 8}), async (actions) => {
        const notes: Record<SliceId, string[]> = {'S-01': [], 'S-02': []}
        const folder = await scratch(notes)
        const dir = path.join(folder, '.greenlight')
        const model: Model = {step: 0, changedAt: {'S-01': 0, 'S-02': 0}, passedAt: {'S-01': null, 'S-02': null}}
        // The hook runs after every sequence too.
        for (const action of [...actions, {kind: 'hook'} as const]) {
          model.step++
          if (action.kind === 'edit-source') {
            await fs.writeFile(path.join(folder, 'src', 'app.txt'), `app ${action.salt}${action.withTotal ? ' total' : ''}\n`)
            for (const id of sliceIds) model.changedAt[id] = model.step
          } else if (action.kind === 'edit-contract') {
            notes[action.slice].push(`Note ${action.salt}.`)
            await fs.writeFile(path.join(dir, 'CONTRACTS.md'), contractText(notes))
            model.changedAt[action.slice] = model.step
          } else if (action.kind === 'verify') {
            const project = await loadProject(dir)
            const [run] = await verifySlices(project, [findSlice(project, action.slice)], {timeoutSeconds: 10, lintFiles: lintHere})
            if (run?.all_automated_pass) model.passedAt[action.slice] = model.step
            else model.passedAt[action.slice] = null
          } else if (action.kind === 'respond') {
            const project = await loadProject(dir)
            const context = gateContext(project, findSlice(project, action.slice))
            try {
              if (action.approve) await checkApprovable(project, context)
              // The person answers, at a terminal: an approval from anywhere else is never recorded.
              await recordResponse(context, action.approve ? 'yes' : 'The total is in the wrong place', {by: null, channel: 'terminal'})
            } catch {
              // Refused (no fresh run, an auto slice, an escalation due): nothing recorded, as the cli would say.
            }
          } else {
            const answer = await answerStopHook({from: [folder], session: 'property', maxBlocks: 1_000_000})
            const unverified = sliceIds.filter((id) => {
              const passed = model.passedAt[id]
              return passed === null || passed < model.changedAt[id]
            })
            if (unverified.length > 0) {
              expect(answer, `slices ${unverified.join(', ')} have no passing run since their last change`).toEqual({
                decision: 'block',
                reason: expect.any(String)
              })
            }
          }
        }
      }),
      {seed: baseSeed, numRuns: runs(10), endOnFailure: true}
    )
  }, 300_000)
})
