/**
 * Unit tests of a slice’s history: the decision is derived from the answers
 * and escalation choices, a stored one that disagrees is an error naming
 * the file and place (the way out: the person answers again), and what a
 * state file lost of a committed one is counted.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {
  decisionSource,
  deriveDecision,
  GateError,
  historyLoss,
  parseSliceState,
  readSliceState,
  recordEscalation,
  recordResponse,
  recordRoute,
  resolveSlice,
  FileReadError,
  statePath,
  withdrawAnswer
} from '@verification-tiers/runtime'
import type {AnswerEntry, GateContext, SliceState} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'
import {temporaryFolders} from './helpers.js'

const temporaryDir = temporaryFolders('verification-tiers-history-')

const person = {by: {name: 'Ada', email: 'ada@example.com'}, channel: 'terminal'} as const
const relayed = {by: null, channel: 'relayed'} as const
const slice = resolveSlice({id: 'S-01', name: 'Cards', contracts: []})
let tick = 0
const clock = () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++))

async function context(threshold = 3): Promise<GateContext> {
  return {dir: await temporaryDir(), slice, contracts: [], contractsHash: 'sha256:one', threshold, now: clock}
}

/** The state file as stored (not as read), to forge. */
const stored = async (gate: GateContext): Promise<SliceState> => JSON.parse(await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8'))
const store = (gate: GateContext, state: unknown) => fs.writeFile(statePath(gate.dir, 'S-01'), JSON.stringify(state, null, 2) + '\n')
/** The message a read of the state file fails with. */
async function readError(gate: GateContext): Promise<string> {
  const error = await readSliceState(gate.dir, 'S-01').then(
    () => null,
    (caught: unknown) => caught
  )
  expect(error).toBeInstanceOf(FileReadError)
  return (error as Error).message.replace(`${statePath(gate.dir, 'S-01')}:`, '')
}

const wayOut = '; the person answers its checkpoint again (`tiers review S-01`), or fix the file (it is never reset silently)'

describe('deriveDecision', () => {
  it('replays the answers that stand and the escalation choices in order', async () => {
    const gate = await context(2)
    const approved = await recordResponse(gate, 'yes', person)
    expect(deriveDecision(approved.state)).toEqual({status: 'approved', at: '2025-01-01T00:00:00.000Z', contractsHash: 'sha256:one', mismatch: []})
    expect(decisionSource(approved.state)).toMatchObject({list: 'answers', index: 0})
    await recordResponse(gate, 'a')
    const rejected = await recordResponse(gate, 'b', relayed)
    expect(deriveDecision(rejected.state)).toBeNull()
    expect(decisionSource(rejected.state)).toBeNull()
    const skipped = await recordEscalation(gate, '3', person)
    expect(deriveDecision(skipped.state)).toEqual({
      status: 'accepted-as-auto',
      at: skipped.state.escalations[0]!.at,
      contractsHash: 'sha256:one',
      mismatch: ['a', 'b']
    })
    expect(decisionSource(skipped.state)).toMatchObject({list: 'escalations', index: 0})
    // A later approval keeps the mismatch the skip deferred.
    await recordResponse(gate, 'c')
    const again = await recordResponse({...gate, contractsHash: 'sha256:two'}, 'yes', person)
    expect(again.state.decision).toEqual({status: 'approved', at: again.state.answers.at(-1)!.at, contractsHash: 'sha256:two', mismatch: ['a', 'b']})
    // Withdrawn, an answer gives nothing: the decision before it stands again.
    expect((await withdrawAnswer(gate, person)).state.decision).toBeNull()
    expect((await withdrawAnswer(gate, person)).state.decision).toEqual(skipped.state.decision)
    expect(await readSliceState(gate.dir, 'S-01')).toMatchObject({decision: skipped.state.decision})
  })

  it('counts no approval or skip that was not given by the person at a terminal, on contracts it names', async () => {
    const gate = await context()
    const state = (await recordResponse(gate, 'yes', person)).state
    const answer = state.answers[0]!
    expect(deriveDecision({...state, answers: [{...answer, channel: 'relayed'}]})).toBeNull()
    const {channel: _channel, fingerprint: _fingerprint, ...older} = answer
    expect(deriveDecision({...state, answers: [older]})).toBeNull()
  })

  it('refuses to record an approval or an escalation choice that is relayed, writing nothing', async () => {
    const gate = await context(1)
    await expect(recordResponse(gate, 'yes')).rejects.toThrow(
      new GateError('Unexpected approval of slice S-01 relayed, expected the person’s own answer at a terminal: nothing was recorded')
    )
    await expect(fs.access(statePath(gate.dir, 'S-01'))).rejects.toThrow()
    await recordResponse(gate, 'the grid', relayed)
    await expect(recordEscalation(gate, '3', relayed)).rejects.toThrow(
      'Unexpected escalation choice 3 for slice S-01 relayed, expected the person’s own answer at a terminal: nothing was recorded'
    )
    expect((await stored(gate)).escalations).toEqual([])
  })
})

describe('a stored decision the history does not give', () => {
  it('is an error naming the file, line and column, and what the answers give: an approval with nothing behind it', async () => {
    const gate = await context()
    await recordResponse(gate, 'the grid', relayed)
    const state = await stored(gate)
    const forged = {status: 'approved', at: '2025-02-02T00:00:00.000Z', contractsHash: 'sha256:one', mismatch: []}
    await store(gate, {...state, decision: forged})
    expect(await readError(gate)).toBe(
      '18:15: Unexpected `decision` approved 2025-02-02T00:00:00.000Z for sha256:one with no approval by a person behind it in `answers`, expected null, as the rejection `answers[0]` leaves it' +
        wayOut
    )
    // An approval answer that was relayed backs nothing, and is named.
    const answer = {...state.answers[0]!, reply: 'yes', outcome: 'approval', at: forged.at}
    await store(gate, {...state, rejectionCount: 0, rejections: [], decision: forged, answers: [answer]})
    expect(await readError(gate)).toBe(
      '7:15: Unexpected `decision` approved 2025-02-02T00:00:00.000Z for sha256:one with no approval by a person behind it in `answers` (`answers[0]` was relayed, and an approval is only ever the person’s, at a terminal), expected null' +
        wayOut
    )
  })

  it('is an error for a file written before answers were logged, with an approved decision', async () => {
    const gate = await context()
    await fs.mkdir(path.dirname(statePath(gate.dir, 'S-01')))
    const decision = {status: 'approved', at: '2025-01-01T00:00:00.000Z', contractsHash: 'sha256:one', mismatch: []}
    await store(gate, {version: 1, slice: 'S-01', rejectionCount: 0, rejections: [], escalations: [], decision})
    expect(await readError(gate)).toBe(
      '7:15: Unexpected `decision` approved 2025-01-01T00:00:00.000Z for sha256:one with no approval by a person behind it in `answers` (the file has no `answers`: it was written before they were kept), expected null' +
        wayOut
    )
    // The way out: the person approves again, at a terminal; the history then gives the decision.
    const approved = await recordResponse(gate, 'yes', person)
    expect(approved.kind).toBe('approved')
    expect(approved.state.answers[0]).toMatchObject({decisionBefore: null, channel: 'terminal'})
    expect(await readSliceState(gate.dir, 'S-01')).toMatchObject({decision: {status: 'approved', at: approved.state.answers[0]!.at}})
  })

  it('is an error for a skip nobody chose, a decision for other contracts, and a decision the answers give that is not stored', async () => {
    const gate = await context(1)
    await recordResponse(gate, 'the grid', relayed)
    const state = await stored(gate)
    await store(gate, {...state, decision: {status: 'accepted-as-auto', at: 'x', contractsHash: 'sha256:one', mismatch: []}})
    expect(await readError(gate)).toMatch(
      /^18:15: Unexpected `decision` accepted-as-auto x for sha256:one with no skip \(escalation choice 3\) by a person behind it in `escalations`, expected null, as the rejection `answers\[0\]` leaves it;/
    )

    const approved = await recordResponse({...gate, dir: (await context()).dir}, 'yes', person)
    const decision = approved.state.decision!
    await store(gate, {...approved.state, decision: {...decision, contractsHash: 'sha256:two'}})
    expect(await readError(gate)).toBe(
      `7:15: Unexpected \`decision\` approved ${decision.at} for sha256:two, expected approved ${decision.at} for sha256:one, as \`answers[0]\` gives it${wayOut}`
    )
    // An approval logged before `channel` and `fingerprint` were kept backs nothing either.
    const {channel: _channel, fingerprint: _fingerprint, ...older} = approved.state.answers[0]!
    await store(gate, {...approved.state, answers: [older]})
    expect(await readError(gate)).toBe(
      `7:15: Unexpected \`decision\` approved ${decision.at} for sha256:one with no approval by a person behind it in \`answers\` (\`answers[0]\` does not say it was given at a terminal, on which contracts), expected null${wayOut}`
    )
    await store(gate, {...approved.state, decision: null})
    expect(await readError(gate)).toBe(
      `7:15: Unexpected \`decision\` null, expected approved ${decision.at} for sha256:one, as \`answers[0]\` gives it${wayOut}`
    )
  })

  it('holds for every command but an answer at a terminal: a relayed rejection is refused, a rejection at a terminal gives the decision anew', async () => {
    const gate = await context()
    await recordResponse(gate, 'the grid', relayed)
    const state = await stored(gate)
    const forged = {...state, decision: {status: 'approved', at: 'x', contractsHash: 'sha256:one', mismatch: []}}
    await store(gate, forged)
    await expect(recordResponse(gate, 'the badge', relayed)).rejects.toThrow(FileReadError)
    await expect(recordRoute(gate, '1', null)).rejects.toThrow(FileReadError)
    await expect(withdrawAnswer(gate, person)).rejects.toThrow(FileReadError)
    expect(await stored(gate)).toEqual(forged)
    const rejected = await recordResponse(gate, 'the badge', person)
    expect(rejected.state).toMatchObject({decision: null, rejectionCount: 2})
    expect(rejected.state.answers[1]).toMatchObject({decisionBefore: null, channel: 'terminal'})
    expect((await readSliceState(gate.dir, 'S-01')).decision).toBeNull()
  })

  it('is an error for an answer’s decisionBefore, or escalations logged out of order, whose way out is to fix the file', async () => {
    const gate = await context()
    await recordResponse(gate, 'yes', person)
    const approved = (await recordResponse(gate, 'the grid', relayed)).state
    const state = await stored(gate)
    await store(gate, {...state, answers: [state.answers[0], {...state.answers[1], decisionBefore: null}]})
    expect(await readError(gate)).toBe(
      `39:25: Unexpected \`answers[1].decisionBefore\` null, expected approved ${approved.answers[0]!.at} for sha256:one: the decision the answers and escalation choices before it give; fix the file (it is never reset silently)`
    )
    await store(gate, {...state, answers: [state.answers[0], {...state.answers[1], escalationsBefore: 1}]})
    expect(await readError(gate)).toBe(
      '45:28: Unexpected `answers[1].escalationsBefore` 1, expected 0: the escalation choices logged before it, in order; fix the file (it is never reset silently)'
    )
    // Not repaired by an answer: the answer gives the decision, not the past.
    await expect(recordResponse(gate, 'the badge', person)).rejects.toThrow(FileReadError)
  })

  it('reads a decision with the mismatch of the log, whatever the stored one lists', async () => {
    const gate = await context(1)
    await recordResponse(gate, 'the grid', relayed)
    await recordEscalation(gate, '3', person)
    const state = await stored(gate)
    await store(gate, {...state, decision: {...state.decision!, mismatch: []}})
    expect((await readSliceState(gate.dir, 'S-01')).decision?.mismatch).toEqual(['the grid'])
  })
})

describe('historyLoss', () => {
  const read = (state: SliceState) => parseSliceState('S-01.json', JSON.stringify(state), 'S-01', 'none')

  it('counts each committed answer, rejection and escalation choice gone', async () => {
    const gate = await context()
    for (const feedback of ['a', 'b', 'c']) await recordResponse(gate, feedback, relayed)
    const committed = (await recordEscalation(gate, '1', person)).state
    const empty = read({...committed, rejectionCount: 0, rejections: [], escalations: [], answers: []})
    expect(historyLoss(committed, empty)).toEqual({lost: {answers: 3, rejections: 3, escalations: 1}, changed: {answers: 0, rejections: 0, escalations: 0}})
    // Truncated: the last rejection and its answer gone.
    const truncated = read({
      ...committed,
      rejections: committed.rejections.slice(0, 2),
      answers: committed.answers.slice(0, 2),
      escalations: [{...committed.escalations[0]!, rejectionCount: 2}]
    })
    expect(historyLoss(committed, truncated)).toEqual({lost: {answers: 1, rejections: 1, escalations: 0}, changed: {answers: 0, rejections: 0, escalations: 1}})
  })

  it('takes what later commands do: a rejection routed, an answer withdrawn with its rejection, new answers', async () => {
    const gate = await context()
    await recordResponse(gate, 'a', relayed)
    const committed = (await recordResponse(gate, 'b', relayed)).state
    await recordRoute(gate, '1', null)
    await withdrawAnswer(gate, person)
    await recordRoute(gate, '2', null)
    const now = (await recordResponse(gate, 'c', relayed)).state
    expect(historyLoss(committed, now)).toBeNull()
    expect(historyLoss(committed, committed)).toBeNull()
  })

  it('counts a withdrawal the person did not make at a terminal as a change: the answer changed, its rejection lost', async () => {
    const gate = await context()
    await recordResponse(gate, 'yes', person)
    await recordResponse(gate, 'a', relayed)
    const committed = (await recordResponse(gate, 'b', relayed)).state
    // As `--undo` writes it, by hand: without `withdrawnChannel`, or relayed.
    const byHand = (withdrawal: Partial<AnswerEntry>) => {
      const answers = committed.answers.map((answer, index) =>
        index === 0 ? answer : {...answer, withdrawnAt: '2025-01-02T00:00:00.000Z', withdrawnRejection: committed.rejections[index - 1]!, ...withdrawal}
      )
      return read({...committed, rejectionCount: 0, rejections: [], answers, decision: null})
    }
    const twoOfEach = {lost: {answers: 0, rejections: 2, escalations: 0}, changed: {answers: 2, rejections: 0, escalations: 0}}
    expect(historyLoss(committed, byHand({}))).toEqual(twoOfEach)
    expect(historyLoss(committed, byHand({withdrawnBy: null, withdrawnChannel: 'relayed'}))).toEqual(twoOfEach)
    // The person's, at a terminal, changes nothing that was committed.
    expect(historyLoss(committed, byHand({withdrawnBy: person.by, withdrawnChannel: 'terminal'}))).toBeNull()
  })

  it('counts an entry altered as changed: an approval’s fingerprint, a route rewritten', async () => {
    const gate = await context()
    await recordResponse(gate, 'a', relayed)
    await recordRoute(gate, '1', null)
    const committed = (await recordResponse(gate, 'yes', person)).state
    const [rejection] = committed.rejections
    const [first, approval] = committed.answers
    const now = read({
      ...committed,
      rejections: [{...rejection!, classification: 'contract_gap'}],
      answers: [first!, {...approval!, fingerprint: 'sha256:two'}],
      decision: null
    })
    expect(historyLoss(committed, now)).toEqual({lost: {answers: 0, rejections: 0, escalations: 0}, changed: {answers: 1, rejections: 1, escalations: 0}})
  })
})
