/**
 * Unit tests of the per-slice state: parsing and checking a state file,
 * hashing contracts, locked updates, and the gate that records responses,
 * routes and escalations in it.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {
  describeJsonError,
  emptySliceState,
  escalationData,
  GateError,
  hashContracts,
  parseSliceState,
  readSliceState,
  recordEscalation,
  recordResponse,
  recordRoute,
  resolveSlice,
  sliceStatus,
  sliceThreshold,
  FileReadError,
  statePath,
  updateSliceState,
  withdrawAnswer
} from '@verification-tiers/runtime'
import type {Contract} from '@verification-tiers/contracts'
import type {GateContext} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'
import {temporaryFolders} from './helpers.js'

const temporaryDir = temporaryFolders('verification-tiers-state-')

/** Who approves and makes escalation choices in these tests: the person, at a terminal. */
const person = {by: null, channel: 'terminal'} as const
const valid = {version: 1, slice: 'S-01', rejectionCount: 0, rejections: [], escalations: [], decision: null}
const fixHint = '; fix or remove the file (it is never reset silently)'

describe('parseSliceState', () => {
  it('reads a valid state', () => {
    const rejection = {feedback: 'no', partial: false, at: '2025-01-01T00:00:00.000Z', classification: null, action: null, detail: null, routedAt: null}
    const text = JSON.stringify({...valid, rejectionCount: 1, rejections: [rejection]})
    expect(parseSliceState('S-01.json', text, 'S-01')).toMatchObject({rejectionCount: 1, rejections: [{feedback: 'no'}]})
  })

  it('reads a file written before answers were logged as having none, and checks the answers of one that has them', () => {
    expect(parseSliceState('S-01.json', JSON.stringify(valid), 'S-01').answers).toEqual([])
    const answer = {
      reply: 'ok',
      outcome: 'approval',
      at: '2025-01-01T00:00:00.000Z',
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: null,
      withdrawnRejection: null
    }
    expect(parseSliceState('S-01.json', JSON.stringify({...valid, answers: [answer]}), 'S-01').answers).toEqual([answer])
    const text = JSON.stringify({...valid, answers: [{...answer, outcome: 'maybe'}]}, null, 2)
    expect(() => parseSliceState('S-01.json', text, 'S-01')).toThrow(
      'S-01.json:11:18: Unexpected `answers[0].outcome` "maybe", expected `approval` or `rejection`' + fixHint
    )
    expect(() => parseSliceState('S-01.json', JSON.stringify({...valid, answers: [{...answer, decisionBefore: {status: 'approved'}}]}), 'S-01')).toThrow(
      'Unexpected `answers[0].decisionBefore` {"status":"approved"}, expected null or a decision (`status`, `at`, `contractsHash`, `mismatch`)'
    )
  })

  it('reads who, how and on what an answer or an escalation choice was given, absent from older files, and checks them', () => {
    const answer = {
      reply: 'ok',
      outcome: 'approval',
      at: '2025-01-01T00:00:00.000Z',
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: null,
      withdrawnRejection: null
    }
    const provenance = {by: {name: 'Ada', email: null}, channel: 'terminal', fingerprint: 'sha256:one'}
    const escalation = {choice: '1', decision: 'rescope', at: '2025-01-01T00:00:00.000Z', rejectionCount: 0}
    // The approval, given at a terminal, gives the decision.
    const decision = {status: 'approved', at: answer.at, contractsHash: 'sha256:one', mismatch: []}
    const given = {...valid, decision, answers: [{...answer, ...provenance}], escalations: [{...escalation, ...provenance, channel: 'relayed', by: null}]}
    expect(parseSliceState('S-01.json', JSON.stringify(given), 'S-01')).toMatchObject({
      answers: [provenance],
      escalations: [{by: null, channel: 'relayed', fingerprint: 'sha256:one'}]
    })
    // Written before they were kept: read as they are, without them.
    const older = parseSliceState('S-01.json', JSON.stringify({...valid, answers: [answer], escalations: [escalation]}), 'S-01')
    expect(older.answers[0]).toEqual(answer)
    expect(older.escalations[0]).toEqual(escalation)
    const wrong: Array<[Record<string, unknown>, string]> = [
      [{channel: 'agent'}, 'Unexpected `answers[0].channel` "agent", expected `terminal` or `relayed`'],
      [{by: 'Ada'}, 'Unexpected `answers[0].by` "Ada", expected null or `{"name", "email"}` (each a string or null)'],
      [{by: {name: 'Ada'}}, 'Unexpected `answers[0].by` {"name":"Ada"}, expected null or `{"name", "email"}` (each a string or null)'],
      [{by: {name: 'Ada', email: 1}}, 'Unexpected `answers[0].by` {"name":"Ada","email":1}, expected null or `{"name", "email"}` (each a string or null)'],
      [{fingerprint: null}, 'Unexpected `answers[0].fingerprint` null, expected a string']
    ]
    for (const [change, message] of wrong) {
      expect(() => parseSliceState('S-01.json', JSON.stringify({...valid, answers: [{...answer, ...change}]}), 'S-01')).toThrow(message + fixHint)
    }
    expect(() => parseSliceState('S-01.json', JSON.stringify({...valid, escalations: [{...escalation, channel: 'x'}]}), 'S-01')).toThrow(
      'Unexpected `escalations[0].channel` "x", expected `terminal` or `relayed`'
    )
  })

  it('names the file and the line:column of a syntax error', () => {
    const error = (text: string) => {
      try {
        parseSliceState('tiers/S-01.json', text, 'S-01')
      } catch (caught) {
        expect(caught).toBeInstanceOf(FileReadError)
        expect((caught as FileReadError).file).toBe('tiers/S-01.json')
        return (caught as Error).message
      }
      throw new Error('expected a FileReadError')
    }
    expect(error('')).toBe(`tiers/S-01.json:1:1: Unexpected empty file, expected a value${fixHint}`)
    expect(error('  \n')).toBe(`tiers/S-01.json:2:1: Unexpected empty file, expected a value${fixHint}`)
    // Half a file: the error is at its end.
    expect(error('{\n  "version": 1,\n  "slice": "S-01"')).toBe(`tiers/S-01.json:3:18: Unexpected end of file, expected \`,\` or \`}\`${fixHint}`)
    expect(error('{\n  "version": 1,,\n}')).toBe(`tiers/S-01.json:2:16: Unexpected \`,\`, expected a property name in double quotes${fixHint}`)
    expect(error('{"version": 1}x')).toBe(`tiers/S-01.json:1:15: Unexpected \`x\` after the value, expected the end of the file${fixHint}`)
    // No raw offsets in the message.
    expect(error('{\n  "version": 1,,\n}')).not.toMatch(/position/)
  })

  it('says what is wrong with a state of the wrong shape', () => {
    const reason = (value: unknown, slice = 'S-01') => {
      try {
        parseSliceState('S-01.json', JSON.stringify(value), slice)
      } catch (caught) {
        expect(caught).toBeInstanceOf(FileReadError)
        return (caught as Error).message.replace('S-01.json:', '').replace(fixHint, '')
      }
      throw new Error('expected a FileReadError')
    }
    // Each message points at the value it is about (columns of the compact JSON).
    expect(reason(null)).toBe('1:1: Unexpected content, expected a slice state object')
    expect(reason([valid])).toBe('1:1: Unexpected content, expected a slice state object')
    expect(reason('state')).toBe('1:1: Unexpected content, expected a slice state object')
    expect(reason({...valid, version: 2})).toBe('1:12: Unexpected `version` 2, expected 1')
    expect(reason({...valid, version: undefined})).toBe('1:1: Unexpected `version` missing, expected 1')
    expect(reason(valid, 'S-02')).toBe('1:22: Unexpected `slice` "S-01", expected "S-02"')
    expect(reason({...valid, rejectionCount: -1})).toBe('1:46: Unexpected `rejectionCount` -1, expected a whole number')
    expect(reason({...valid, rejectionCount: 1.5})).toBe('1:46: Unexpected `rejectionCount` 1.5, expected a whole number')
    expect(reason({...valid, rejectionCount: '1'})).toBe('1:46: Unexpected `rejectionCount` "1", expected a whole number')
    expect(reason({...valid, rejections: {}})).toBe('1:61: Unexpected `rejections` {}, expected a list')
    expect(reason({...valid, rejections: ['no']})).toBe('1:62: Unexpected `rejections[0]` "no", expected an object')
    expect(reason({...valid, escalations: null})).toBe('1:78: Unexpected `escalations` null, expected a list')
    expect(reason({...valid, decision: 'approved'})).toBe('1:92: Unexpected `decision` "approved", expected an object')
    expect(reason({...valid, decision: {status: 'approved'}})).toBe('1:92: Unexpected `decision.at` missing, expected a string')
    // A decision without its status, which `status` would show as “undefined undefined”.
    const decision = {at: '2025-01-01T00:00:00.000Z', contractsHash: 'sha256:one', mismatch: []}
    expect(reason({...valid, decision})).toBe('1:92: Unexpected `decision.status` missing, expected `approved` or `accepted-as-auto`')
    expect(reason({...valid, decision: {...decision, status: 'done'}})).toBe(
      '1:177: Unexpected `decision.status` "done", expected `approved` or `accepted-as-auto`'
    )
  })

  it('describes JSON errors without parsing twice', () => {
    const text = '{"a": 1,}'
    let error: unknown
    try {
      JSON.parse(text)
    } catch (caught) {
      error = caught
    }
    // The trailing comma itself is the mistake.
    expect(describeJsonError(text, error)).toBe('1:8: Unexpected trailing comma before `}`, expected another property after `,`')
  })
})

describe('hashContracts', () => {
  it('is stable across CRLF and LF', () => {
    const lf = ['### C-01: Grid\n\n**Verification:** verify\n', '### C-02: Api\n']
    const crlf = lf.map((source) => source.replace(/\n/g, '\r\n'))
    expect(hashContracts(crlf)).toBe(hashContracts(lf))
    expect(hashContracts(lf)).toMatch(/^sha256:[\da-f]{64}$/)
    expect(hashContracts(lf)).toBe(hashContracts([...lf]))
  })

  it('changes with any change of the contracts, their order or their boundaries', () => {
    const base = hashContracts(['### C-01: Grid\n', '### C-02: Api\n'])
    expect(hashContracts(['### C-01: Grid \n', '### C-02: Api\n'])).not.toBe(base)
    expect(hashContracts(['### C-02: Api\n', '### C-01: Grid\n'])).not.toBe(base)
    expect(hashContracts(['### C-01: Grid\n### C-02: Api\n'])).not.toBe(base)
    expect(hashContracts([])).not.toBe(base)
  })
})

describe('readSliceState and updateSliceState', () => {
  it('reads a missing file as a fresh state and writes nothing', async () => {
    const dir = await temporaryDir()
    expect(await readSliceState(dir, 'S-01')).toEqual(emptySliceState('S-01'))
    await expect(fs.access(path.join(dir, 'tiers'))).rejects.toThrow()
  })

  it('writes `<dir>/tiers/<slice>.json` as formatted JSON', async () => {
    const dir = await temporaryDir()
    expect(statePath(dir, 'S-01')).toBe(path.join(dir, 'tiers', 'S-01.json'))
    const result = await updateSliceState(dir, 'S-01', (state) => {
      state.rejectionCount = 2
      return 'changed'
    })
    expect(result).toBe('changed')
    const text = await fs.readFile(statePath(dir, 'S-01'), 'utf8')
    expect(text).toBe(JSON.stringify({...emptySliceState('S-01'), rejectionCount: 2}, null, 2) + '\n')
    expect(await fs.readdir(path.join(dir, 'tiers'))).toEqual(['S-01.json'])
  })

  it('never loses an update when many run at once', async () => {
    const dir = await temporaryDir()
    await Promise.all(
      Array.from({length: 25}, (_, index) =>
        updateSliceState(dir, 'S-01', async (state) => {
          const count = state.rejectionCount
          await new Promise((resolve) => setTimeout(resolve, 1))
          state.rejectionCount = count + 1
          state.rejections.push({feedback: `f${index}`, partial: false, at: '', classification: null, action: null, detail: null, routedAt: null})
        })
      )
    )
    const state = await readSliceState(dir, 'S-01')
    expect(state.rejectionCount).toBe(25)
    expect(new Set(state.rejections.map((entry) => entry.feedback)).size).toBe(25)
  })

  it('leaves a broken file as it is, and releases the lock', async () => {
    const dir = await temporaryDir()
    await fs.mkdir(path.join(dir, 'tiers'))
    await fs.writeFile(statePath(dir, 'S-01'), '{"version": 1, "sli')
    const change = () => updateSliceState(dir, 'S-01', () => undefined)
    await expect(change()).rejects.toThrow(FileReadError)
    await expect(change()).rejects.toThrow(/S-01\.json:1:20: Unexpected end of file in a string, expected the closing `"`;/)
    expect(await fs.readFile(statePath(dir, 'S-01'), 'utf8')).toBe('{"version": 1, "sli')
    expect(await fs.readdir(path.join(dir, 'tiers'))).toEqual(['S-01.json'])
  })
})

describe('the gate', () => {
  const contract = (id: string, tier: string | null, criteria: string[]) =>
    ({id, name: id, label: `${id} Card`, tier, criteria: criteria.map((text) => ({text})), steps: []}) as unknown as Contract
  const slice = resolveSlice({id: 'S-01', name: 'Cards', contracts: [contract('C-01', 'verify', ['3 columns']), contract('C-02', 'auto', [])]})
  let tick = 0
  const clock = () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++))

  async function context(threshold?: number): Promise<GateContext> {
    return {
      dir: await temporaryDir(),
      slice,
      contracts: [{label: 'C-01 Card', source: '### C-01: Card'}],
      contractsHash: 'sha256:one',
      ...(threshold === undefined ? {} : {threshold}),
      now: clock
    }
  }

  it('records an approval with the contracts hash, and a later change makes it stale', async () => {
    const gate = await context()
    const result = await recordResponse(gate, ' Yes ', person)
    expect(result.kind).toBe('approved')
    expect(result.state.decision).toEqual({status: 'approved', at: expect.stringMatching(/^2025-01-01T/), contractsHash: 'sha256:one', mismatch: []})
    expect(await sliceStatus(gate)).toMatchObject({next: 'done', stale: false})
    expect(await sliceStatus({...gate, contractsHash: 'sha256:two'})).toMatchObject({next: 'checkpoint', stale: true})
  })

  it('counts rejections verbatim and escalates at the threshold', async () => {
    const gate = await context()
    const first = await recordResponse(gate, '  two columns  ')
    expect(first).toMatchObject({kind: 'rejected', escalate: false, threshold: 3, response: {feedback: '  two columns  ', partial: false}})
    expect(await sliceStatus(gate)).toMatchObject({next: 'route', rejectionCount: 1})
    await recordResponse(gate, '3 the badge is orange')
    const third = await recordResponse(gate, 'partially: 2 of 3')
    expect(third).toMatchObject({kind: 'rejected', escalate: true})
    expect(third.state.rejections.map((entry) => [entry.feedback, entry.partial])).toEqual([
      ['  two columns  ', false],
      ['3 the badge is orange', true],
      ['partially: 2 of 3', true]
    ])
    expect(await sliceStatus(gate)).toMatchObject({next: 'escalation', rejectionCount: 3, threshold: 3})
    expect(escalationData(slice, third.state)).toEqual({
      sliceName: 'Cards',
      rejections: [
        {feedback: '  two columns  ', action: 'not routed'},
        {feedback: '3 the badge is orange', action: 'not routed'},
        {feedback: 'partially: 2 of 3', action: 'not routed'}
      ]
    })
  })

  it('keeps the threshold each rejection was recorded under: a setting raised later never puts off the escalation', async () => {
    const gate = await context()
    for (const feedback of ['two columns', 'the badge is orange', 'no title']) await recordResponse(gate, feedback)
    const raised = {...gate, threshold: 10}
    expect(await sliceStatus(raised)).toMatchObject({next: 'escalation', rejectionCount: 3, threshold: 3})
    await expect(recordResponse(raised, 'still two columns')).rejects.toThrow('Unexpected rejection: slice S-01 waits for an escalation choice')
    // A lower setting counts at once; after a re-scope the setting alone counts again.
    expect(sliceThreshold({threshold: 2}, {rejectionCount: 3, rejections: (await readSliceState(gate.dir, 'S-01')).rejections})).toBe(2)
    const rescoped = await recordEscalation(raised, '1', person)
    expect(rescoped.state.rejections.map((entry) => entry.threshold)).toEqual([3, 3, 3])
    expect(await sliceStatus(raised)).toMatchObject({rejectionCount: 0, threshold: 10})
  })

  it('routes the latest rejection once, and only below the threshold', async () => {
    const gate = await context(2)
    await expect(recordRoute(gate, '1', null)).rejects.toThrow(GateError)
    await recordResponse(gate, 'no, 2 columns')
    await expect(recordRoute(gate, '4', null)).rejects.toThrow('Unexpected route choice `4`, expected 1, 2 or 3')
    await expect(recordRoute(gate, '3', null)).rejects.toThrow('Unexpected route 3 without `--detail`')
    const {route, state} = await recordRoute(gate, ' 2 ', null)
    expect(route).toMatchObject({classification: 'contract_gap', target: 'user', feedback: 'no, 2 columns'})
    expect(state.rejections[0]).toMatchObject({classification: 'contract_gap', action: 'presented contract to user for revision', detail: null})
    await expect(recordRoute(gate, '1', null)).rejects.toThrow('has no rejection waiting for a route')
    await recordResponse(gate, 'still no')
    await expect(recordRoute(gate, '1', null)).rejects.toThrow('Unexpected route: slice S-01 has 2 rejections, expected an escalation choice first')
  })

  it('escalates: re-scope restarts the count, pair keeps it and lets the guidance route, skip accepts as auto', async () => {
    const gate = await context(2)
    await expect(recordEscalation(gate, '1', person)).rejects.toThrow('Unexpected escalation: slice S-01 has 0 of 2 rejections, expected 2 before escalating')
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    await expect(recordEscalation(gate, '9', person)).rejects.toThrow('Unexpected escalation choice `9`, expected 1, 2 or 3')

    const pair = await recordEscalation(gate, '2', person)
    expect(pair.option.decision).toBe('pair')
    expect(pair.state.rejectionCount).toBe(2)
    expect(await sliceStatus(gate)).toMatchObject({next: 'route'})
    const {route} = await recordRoute(gate, '3', 'step by step')
    expect(route).toMatchObject({classification: 'implementation_gap', feedback: 'b', detail: 'step by step'})
    expect(await sliceStatus(gate)).toMatchObject({next: 'checkpoint'})

    expect((await recordResponse(gate, 'c')).state.rejectionCount).toBe(3)
    expect(await sliceStatus(gate)).toMatchObject({next: 'escalation'})
    const rescope = await recordEscalation(gate, '1', person)
    expect(rescope.state.rejectionCount).toBe(0)
    expect(await sliceStatus(gate)).toMatchObject({next: 'checkpoint', rejectionCount: 0})
    // Rejections from before the restart are history: not routed, not in the escalation.
    await expect(recordRoute(gate, '1', null)).rejects.toThrow('has no rejection waiting for a route')

    await recordResponse(gate, 'd')
    const last = await recordResponse(gate, 'e')
    expect(escalationData(slice, last.state).rejections.map((entry) => entry.feedback)).toEqual(['d', 'e'])
    const skip = await recordEscalation(gate, '3', person)
    expect(skip.state.decision).toEqual({status: 'accepted-as-auto', at: expect.any(String), contractsHash: 'sha256:one', mismatch: ['d', 'e']})
    expect(skip.state.escalations.map((entry) => [entry.decision, entry.rejectionCount])).toEqual([
      ['pair', 2],
      ['rescope', 3],
      ['skip', 2]
    ])
    expect(await sliceStatus(gate)).toMatchObject({next: 'done'})
  })

  it('refuses a rejection while the slice waits for an escalation choice, leaving the state as it was', async () => {
    const gate = await context(2)
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    expect(await sliceStatus(gate)).toMatchObject({next: 'escalation', rejectionCount: 2})
    const before = await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')
    const refusal = recordResponse(gate, 'c')
    await expect(refusal).rejects.toThrow(GateError)
    await expect(recordResponse(gate, 'partially: the footer')).rejects.toThrow(
      'Unexpected rejection: slice S-01 waits for an escalation choice, expected `tiers escalate S-01 <1|2|3>` first'
    )
    expect(await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')).toBe(before)
    expect(await sliceStatus(gate)).toMatchObject({next: 'escalation', rejectionCount: 2})

    // After the choice, rejections are taken again: pair goes on, re-scope restarts the count.
    await recordEscalation(gate, '2', person)
    const afterPair = await recordResponse(gate, 'c')
    expect(afterPair).toMatchObject({kind: 'rejected', escalate: true})
    expect(afterPair.state.rejectionCount).toBe(3)
    await expect(recordResponse(gate, 'd')).rejects.toThrow('waits for an escalation choice')
    await recordEscalation(gate, '1', person)
    expect((await recordResponse(gate, 'd')).state.rejectionCount).toBe(1)
  })

  it('still takes an approval while the slice waits for an escalation choice, and then refuses to escalate', async () => {
    const gate = await context(2)
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    const approved = await recordResponse(gate, 'yes', person)
    expect(approved.kind).toBe('approved')
    expect(approved.state).toMatchObject({rejectionCount: 2, decision: {status: 'approved', contractsHash: 'sha256:one', mismatch: []}})
    expect(await sliceStatus(gate)).toMatchObject({next: 'done'})
    const before = await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')
    await expect(recordEscalation(gate, '3', person)).rejects.toThrow(GateError)
    await expect(recordEscalation(gate, '1', person)).rejects.toThrow(
      'Unexpected escalation: slice S-01 is already decided (approved), expected a new rejection first'
    )
    expect(await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')).toBe(before)
  })

  it('sends a stale decision at the threshold back to the checkpoint, where a rejection is taken', async () => {
    const gate = await context(2)
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    await recordResponse(gate, 'approved', person)
    const changed = {...gate, contractsHash: 'sha256:two'}
    expect(await sliceStatus(changed)).toMatchObject({stale: true, rejectionCount: 2, next: 'checkpoint'})
    await expect(recordEscalation(changed, '1', person)).rejects.toThrow('is already decided (approved), expected a new rejection first')
    const rejected = await recordResponse(changed, 'c')
    expect(rejected).toMatchObject({kind: 'rejected', escalate: true})
    expect(await sliceStatus(changed)).toMatchObject({stale: false, decision: null, rejectionCount: 3, next: 'escalation'})
  })

  it('refuses a second escalation after a skip until a new rejection comes', async () => {
    const gate = await context(2)
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    await recordEscalation(gate, '3', person)
    const before = await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')
    await expect(recordEscalation(gate, '1', person)).rejects.toThrow(
      'Unexpected escalation: slice S-01 is already decided (accepted-as-auto), expected a new rejection first'
    )
    await expect(recordEscalation(gate, '3', person)).rejects.toThrow('is already decided (accepted-as-auto)')
    expect(await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')).toBe(before)
    // A rejection after the decision is taken: it clears the decision, and the slice escalates again.
    const again = await recordResponse(gate, 'c')
    expect(again).toMatchObject({kind: 'rejected', escalate: true})
    expect(again.state).toMatchObject({rejectionCount: 3, decision: null})
    const rescope = await recordEscalation(gate, '1', person)
    expect(rescope.state.escalations.map((entry) => entry.decision)).toEqual(['skip', 'rescope'])
    expect(rescope.state.rejectionCount).toBe(0)
  })

  it('needs nothing for an all-auto slice', async () => {
    const gate = await context()
    const auto = resolveSlice({id: 'S-03', name: 'Plumbing', contracts: [contract('C-02', 'auto', [])]})
    expect(await sliceStatus({...gate, slice: auto})).toMatchObject({tier: 'auto', next: 'nothing'})
  })

  it('asks for the description on a bare no, 2 or 3, and writes nothing', async () => {
    const gate = await context()
    await expect(recordResponse(gate, 'No.')).rejects.toThrow(
      'Unexpected reply "No." to slice S-01 without a description, expected what is wrong: tiers respond S-01 "what is wrong"; nothing was recorded'
    )
    await expect(recordResponse(gate, '3')).rejects.toThrow(
      'Unexpected reply "3" to slice S-01 without a description, expected what is missing: tiers respond S-01 "partially: what is missing"; nothing was recorded'
    )
    await expect(fs.access(statePath(gate.dir, 'S-01'))).rejects.toThrow()
  })

  it('withdraws the latest answer that stands: a rejection’s count and entry, an approval’s decision; each stays logged, withdrawn', async () => {
    const gate = await context()
    await expect(withdrawAnswer(gate, person)).rejects.toThrow(
      'Unexpected `--undo`: slice S-01 has no recorded answer to withdraw, expected one given with `tiers respond S-01 <reply>`'
    )
    const approved = await recordResponse(gate, 'ok', person)
    const first = approved.state.decision
    await recordResponse(gate, 'the badge is orange')
    await recordRoute(gate, '1', null)
    const second = await recordResponse(gate, 'yes, but the grid')
    expect(second.state).toMatchObject({rejectionCount: 2, decision: null})

    const undone = await withdrawAnswer(gate, person)
    expect(undone.answer).toEqual({
      reply: 'yes, but the grid',
      outcome: 'rejection',
      at: second.state.rejections[1]!.at,
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: expect.stringMatching(/^2025-01-01T/),
      withdrawnRejection: second.state.rejections[1],
      // Withdrawn by the person, at a terminal: the only withdrawal there is.
      withdrawnBy: null,
      withdrawnChannel: 'terminal',
      // Not told who answered, the runtime names no one: relayed.
      by: null,
      channel: 'relayed',
      fingerprint: 'sha256:one'
    })
    expect(undone.state.rejectionCount).toBe(1)
    expect(undone.state.rejections.map((entry) => entry.feedback)).toEqual(['the badge is orange'])
    // The routed rejection before it is the latest again, already routed.
    expect(await sliceStatus(gate)).toMatchObject({next: 'checkpoint', rejectionCount: 1})

    // The rejection that cleared the approval gives it back when withdrawn.
    const again = await withdrawAnswer(gate, person)
    expect(again.answer).toMatchObject({reply: 'the badge is orange', decisionBefore: first, withdrawnRejection: {classification: 'test_gap'}})
    expect(again.state).toMatchObject({rejectionCount: 0, rejections: [], decision: first})
    const approval = await withdrawAnswer(gate, person)
    expect(approval.answer).toMatchObject({reply: 'ok', outcome: 'approval', decisionBefore: null})
    expect(approval.state.decision).toBeNull()
    const stored = await readSliceState(gate.dir, 'S-01')
    expect(stored.answers.map((entry) => [entry.reply, entry.withdrawnAt !== null])).toEqual([
      ['ok', true],
      ['the badge is orange', true],
      ['yes, but the grid', true]
    ])
    await expect(withdrawAnswer(gate, person)).rejects.toThrow('has no recorded answer to withdraw')
  })

  it('keeps who answered, how and on what contracts with each answer and escalation choice; status shows the latest answer', async () => {
    const gate = await context(1)
    const by = {name: 'Ada Lovelace', email: 'ada@example.com'}
    expect(await sliceStatus(gate)).toMatchObject({lastAnswer: null})
    const rejected = await recordResponse(gate, 'the grid', {by, channel: 'relayed'})
    expect(rejected.state.answers.at(-1)).toMatchObject({reply: 'the grid', by, channel: 'relayed', fingerprint: 'sha256:one'})
    const escalated = await recordEscalation(gate, '2', {by: null, channel: 'terminal'})
    expect(escalated.state.escalations.at(-1)).toMatchObject({choice: '2', by: null, channel: 'terminal', fingerprint: 'sha256:one'})
    const approved = await recordResponse({...gate, contractsHash: 'sha256:two'}, 'yes', {by, channel: 'terminal'})
    expect(approved.state.answers.at(-1)).toMatchObject({reply: 'yes', outcome: 'approval', by, channel: 'terminal', fingerprint: 'sha256:two'})
    expect((await sliceStatus(gate)).lastAnswer).toEqual({
      reply: 'yes',
      outcome: 'approval',
      at: approved.state.decision!.at,
      by,
      channel: 'terminal',
      fingerprint: 'sha256:two'
    })
    // Withdrawn, the answer before stands again.
    await withdrawAnswer(gate, person)
    expect((await sliceStatus(gate)).lastAnswer).toMatchObject({reply: 'the grid', channel: 'relayed'})
  })

  it('withdraws only for the person at a terminal: relayed, a rejection taken back or a decision put back alike, it is refused, writing nothing', async () => {
    const gate = await context()
    await recordResponse(gate, 'yes', person)
    await recordResponse(gate, 'the badge is orange')
    const other = await context()
    await recordResponse(other, 'the grid')
    for (const withdrawn of [gate, other]) {
      const before = await fs.readFile(statePath(withdrawn.dir, 'S-01'), 'utf8')
      for (const refusal of [withdrawAnswer(withdrawn), withdrawAnswer(withdrawn, {by: {name: 'Ada', email: null}, channel: 'relayed'})]) {
        await expect(refusal).rejects.toThrow(
          'Unexpected withdrawal of slice S-01’s latest answer relayed, expected the person’s own answer at a terminal: nothing was recorded'
        )
      }
      expect(await fs.readFile(statePath(withdrawn.dir, 'S-01'), 'utf8')).toBe(before)
    }
    const by = {name: 'Ada', email: 'ada@example.com'}
    expect((await withdrawAnswer(other, {by, channel: 'terminal'})).answer).toMatchObject({reply: 'the grid', withdrawnBy: by, withdrawnChannel: 'terminal'})
  })

  it('refuses to withdraw an answer an escalation choice was recorded after, writing nothing', async () => {
    const gate = await context(2)
    await recordResponse(gate, 'a')
    await recordResponse(gate, 'b')
    await recordEscalation(gate, '1', person)
    const before = await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')
    await expect(withdrawAnswer(gate, person)).rejects.toThrow(
      'Unexpected `--undo`: an escalation choice of slice S-01 was recorded after its latest answer ("b"), expected none: the answer can no longer be withdrawn'
    )
    expect(await fs.readFile(statePath(gate.dir, 'S-01'), 'utf8')).toBe(before)
  })
})
