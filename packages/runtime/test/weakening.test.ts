/**
 * Unit tests of what an approval pins and what lowers it: `slicePins`,
 * `findWeakenings` (each kind, with the old and the new text; none for a
 * change that raises the bar or only reorders), `approvedPins`, `holdSlice`,
 * and the gate that keeps a weakened slice at `verify` until a person
 * approves it again.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type {Contract} from '@verification-tiers/contracts'
import {
  approvedPins,
  describeWeakening,
  findWeakenings,
  holdSlice,
  parseSliceState,
  recordResponse,
  resolveSlice,
  slicePins,
  sliceStatus,
  weakeningsSinceApproval
} from '@verification-tiers/runtime'
import type {GateContext, SliceInput, SlicePins} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

/** A contract with what the runtime reads of it. */
function contract(id: string | null, name: string, tier: string | null, criteria: string[] = [], steps: string[] = []): Contract {
  const item = (text: string) => ({text, position: {start: {line: 1, column: 1}, end: {line: 1, column: 1}}, check: null})
  return {id, name, label: id === null ? name : `${id} ${name}`, tier, criteria: criteria.map(item), steps: steps.map(item)} as unknown as Contract
}

const greeting = (tier: string | null = 'verify', criteria = ['The greeting names the person', 'The greeting fits one line'], steps = ['Open /hello']) =>
  contract('C-01', 'Greeting', tier, criteria, steps)
const farewell = (tier: string | null = 'verify') => contract(null, 'Farewell', tier, ['The farewell waves'])

const slice = (changes: Partial<SliceInput> = {}): SliceInput => ({id: 'S-01', name: 'Hello', contracts: [greeting(), farewell()], ...changes})
const pins = (changes: Partial<SliceInput> = {}): SlicePins => slicePins(slice(changes))
const lines = (was: SlicePins, now: SlicePins) => findWeakenings(was, now, 'slice S-01 Hello').map(describeWeakening)

describe('slicePins', () => {
  it('keeps the slice’s tier and own check, and each contract by its id (else its name) with its tier in the slice and its texts', () => {
    expect(pins({humanCheck: 'The page reads well', contracts: [greeting(null), farewell('auto')], tier: 'verify'})).toEqual({
      tier: 'verify',
      humanCheck: 'The page reads well',
      retired: null,
      contracts: [
        {
          key: 'C-01',
          label: 'C-01 Greeting',
          tier: 'verify',
          criteria: ['The greeting names the person', 'The greeting fits one line'],
          steps: ['Open /hello']
        },
        {key: 'Farewell', label: 'Farewell', tier: 'auto', criteria: ['The farewell waves'], steps: []}
      ]
    })
  })

  it('takes a contract’s tier from its slice when it states none: a default set to auto is pinned as it applied', () => {
    expect(pins({tier: 'auto', contracts: [greeting(null)]}).contracts.map((one) => one.tier)).toEqual(['auto'])
    expect(pins({tier: 'auto', contracts: [greeting(null)]}).tier).toBe('auto')
  })
})

describe('findWeakenings', () => {
  const approved = pins({humanCheck: 'The page reads well'})

  it('finds nothing when nothing changed', () => {
    expect(findWeakenings(approved, pins({humanCheck: 'The page reads well'}), 'slice S-01 Hello')).toEqual([])
  })

  it('finds the slice and a contract gone from verify to auto, with the old and new text', () => {
    expect(findWeakenings(pins(), pins({contracts: [greeting('auto'), farewell('auto')]}), 'slice S-01 Hello')).toEqual([
      {kind: 'slice-tier', contract: null, subject: 'slice S-01 Hello', was: 'tier verify', now: 'auto'},
      {kind: 'contract-tier', contract: 'C-01', subject: 'C-01 Greeting', was: 'tier verify', now: 'auto'},
      {kind: 'contract-tier', contract: 'Farewell', subject: 'Farewell', was: 'tier verify', now: 'auto'}
    ])
  })

  it('finds a tool’s default (the slice’s stated tier) set to auto on contracts that state none', () => {
    const before = pins({contracts: [greeting(null)]})
    expect(lines(before, pins({contracts: [greeting(null)], tier: 'auto'}))).toEqual([
      'slice S-01 Hello: tier verify → auto',
      'C-01 Greeting: tier verify → auto'
    ])
  })

  it('finds a verify contract gone from the slice', () => {
    expect(findWeakenings(pins(), pins({contracts: [greeting()]}), 'slice S-01 Hello')).toEqual([
      {
        kind: 'contract-removed',
        contract: 'Farewell',
        subject: 'Farewell',
        was: 'verify contract of 1 acceptance criterion and 0 steps',
        now: 'removed from the slice'
      }
    ])
  })

  it('finds a criterion or a step removed, and one reworded, with the old and new text and where the new one is', () => {
    const now = pins({contracts: [greeting('verify', ['The greeting names the person, or "friend"'], ['Open /hi']), farewell()]})
    expect(findWeakenings(pins(), now, 'slice S-01 Hello')).toEqual([
      {
        kind: 'criterion-reworded',
        contract: 'C-01',
        subject: 'C-01 Greeting',
        was: 'acceptance criterion "The greeting names the person"',
        now: '"The greeting names the person, or \\"friend\\""',
        item: {list: 'criteria', index: 0}
      },
      {kind: 'criterion-removed', contract: 'C-01', subject: 'C-01 Greeting', was: 'acceptance criterion "The greeting fits one line"', now: 'removed'},
      {kind: 'step-reworded', contract: 'C-01', subject: 'C-01 Greeting', was: 'step "Open /hello"', now: '"Open /hi"', item: {list: 'steps', index: 0}}
    ])
    expect(lines(pins(), pins({contracts: [greeting('verify', [], []), farewell()]}))).toEqual([
      'C-01 Greeting: acceptance criterion "The greeting names the person" → removed',
      'C-01 Greeting: acceptance criterion "The greeting fits one line" → removed',
      'C-01 Greeting: step "Open /hello" → removed'
    ])
  })

  it('finds the attack whole: a contract set to auto and its criteria deleted', () => {
    expect(lines(pins({contracts: [greeting()]}), pins({contracts: [greeting('auto', [], [])]}))).toEqual([
      'slice S-01 Hello: tier verify → auto',
      'C-01 Greeting: tier verify → auto',
      'C-01 Greeting: acceptance criterion "The greeting names the person" → removed',
      'C-01 Greeting: acceptance criterion "The greeting fits one line" → removed',
      'C-01 Greeting: step "Open /hello" → removed'
    ])
  })

  it('finds the slice’s own human check retired, removed or reworded', () => {
    expect(lines(approved, pins({retired: 'The tests cover it'}))).toEqual([
      'slice S-01 Hello: human check "The page reads well" → retired: "The tests cover it"'
    ])
    expect(lines(approved, pins())).toEqual(['slice S-01 Hello: human check "The page reads well" → removed'])
    expect(lines(approved, pins({humanCheck: 'The page loads'}))).toEqual(['slice S-01 Hello: human check "The page reads well" → "The page loads"'])
    // A slice whose own check made it verify goes auto with it.
    const alone = pins({contracts: [], humanCheck: 'The page reads well'})
    expect(lines(alone, pins({contracts: [], retired: 'Covered'}))).toEqual([
      'slice S-01 Hello: tier verify → auto',
      'slice S-01 Hello: human check "The page reads well" → retired: "Covered"'
    ])
  })

  it('finds nothing for what raises the bar or only reorders: auto to verify, an added contract, criterion, step or check, items in another order', () => {
    const low = pins({contracts: [greeting('auto'), farewell('auto')]})
    expect(findWeakenings(low, pins(), 'slice S-01 Hello')).toEqual([])
    const raised = pins({
      humanCheck: 'New check',
      contracts: [
        greeting('verify', ['The greeting fits one line', 'The greeting names the person', 'It waves back'], ['Open /hello', 'Refresh']),
        farewell(),
        contract('C-09', 'Extra', 'verify', ['More'])
      ]
    })
    expect(findWeakenings(pins(), raised, 'slice S-01 Hello')).toEqual([])
  })

  it('finds nothing for what an auto contract loses: it asked a person nothing', () => {
    const before = pins({contracts: [greeting(), farewell('auto')]})
    expect(findWeakenings(before, pins({contracts: [greeting()]}), 'slice S-01 Hello')).toEqual([])
    expect(findWeakenings(before, pins({contracts: [greeting(), contract(null, 'Farewell', 'auto', [])]}), 'slice S-01 Hello')).toEqual([])
  })

  describe('of the intent only a person may change (a BMAD spec’s frozen block)', () => {
    const intent = ['## Intent', 'Problem: The receipt misspells its total.', 'Never: change the price', 'Keep the layout']
    const spec = (texts: string[] | null, tier: string | null = 'verify'): Contract => {
      const made = contract(null, 'Spec: Receipt', tier, ['The total reads "Total"'])
      const item = (text: string, index: number) => ({text, position: {start: {line: 10 + index, column: 1}, end: {line: 10 + index, column: 1}}, check: null})
      return texts === null ? made : {...made, intent: {position: {start: {line: 9, column: 1}, end: {line: 20, column: 1}}, items: texts.map(item)}}
    }
    const approved = pins({contracts: [spec(intent)]})

    it('is pinned when the contract has it, and absent from the pin otherwise', () => {
      expect(approved.contracts).toEqual([
        {key: 'Spec: Receipt', label: 'Spec: Receipt', tier: 'verify', criteria: ['The total reads "Total"'], steps: [], intent}
      ])
      expect(pins({contracts: [spec(null)]}).contracts[0]).not.toHaveProperty('intent')
    })

    it('finds nothing when it is the same', () => {
      expect(findWeakenings(approved, pins({contracts: [spec([...intent])]}), 'slice S-01 Hello')).toEqual([])
    })

    it('finds any change: a text reworded, removed, added or moved, with the old and the new text and where the new one is', () => {
      const changed = [
        '## Intent',
        'Problem: The receipt misspells its total.',
        'Keep the layout',
        'Always: change the price when asked',
        'Never: change the price'
      ]
      expect(
        findWeakenings(
          approved,
          pins({contracts: [spec(['## Intent', 'Problem: The receipt is wrong.', 'Never: change the price', 'Keep the layout'])]}),
          'slice S-01 Hello'
        )
      ).toEqual([
        {
          kind: 'intent-changed',
          contract: 'Spec: Receipt',
          subject: 'Spec: Receipt',
          was: 'intent "Problem: The receipt misspells its total."',
          now: '"Problem: The receipt is wrong."',
          item: {list: 'intent', index: 1}
        }
      ])
      expect(findWeakenings(approved, pins({contracts: [spec(changed)]}), 'slice S-01 Hello')).toEqual([
        {
          kind: 'intent-changed',
          contract: 'Spec: Receipt',
          subject: 'Spec: Receipt',
          was: 'intent "Never: change the price"',
          now: 'moved',
          item: {list: 'intent', index: 4}
        },
        {
          kind: 'intent-changed',
          contract: 'Spec: Receipt',
          subject: 'Spec: Receipt',
          was: 'intent without "Always: change the price when asked"',
          now: 'added',
          item: {list: 'intent', index: 3}
        }
      ])
      expect(lines(approved, pins({contracts: [spec(['## Intent', 'Keep the layout'])]}))).toEqual([
        'Spec: Receipt: intent "Problem: The receipt misspells its total." → removed',
        'Spec: Receipt: intent "Never: change the price" → removed'
      ])
      expect(lines(approved, pins({contracts: [spec(null)]}))).toEqual(intent.map((text) => `Spec: Receipt: intent ${JSON.stringify(text)} → removed`))
    })

    it('compares long intent at its changed part, and past a million pairs of texts counts every text of the part as changed', () => {
      const long = Array.from({length: 1100}, (_, index) => `Line ${index}`)
      const reworded = long.with(550, 'Line 550, or not')
      expect(lines(pins({contracts: [spec(long)]}), pins({contracts: [spec(reworded)]}))).toEqual(['Spec: Receipt: intent "Line 550" → "Line 550, or not"'])
      const reversed = findWeakenings(pins({contracts: [spec(long)]}), pins({contracts: [spec(long.toReversed())]}), 'slice S-01 Hello')
      expect([reversed.length, new Set(reversed.map((weakening) => weakening.now))]).toEqual([1100, new Set(['moved'])])
    })

    it('finds nothing when the approval pinned none (it was given before intent was pinned), or the contract was auto', () => {
      const before = pins({contracts: [spec(null)]})
      expect(findWeakenings(before, pins({contracts: [spec(['Anything'])]}), 'slice S-01 Hello')).toEqual([])
      expect(findWeakenings(pins({contracts: [spec(intent, 'auto')]}), pins({contracts: [spec([], 'auto')]}), 'slice S-01 Hello')).toEqual([])
    })
  })

  it('matches repeated texts once each: one of two equal criteria removed is a removal', () => {
    const twice = pins({contracts: [greeting('verify', ['Same', 'Same'], [])]})
    expect(lines(twice, pins({contracts: [greeting('verify', ['Same'], [])]}))).toEqual(['C-01 Greeting: acceptance criterion "Same" → removed'])
  })
})

describe('holdSlice', () => {
  it('keeps a weakened slice at verify and leaves the rest as resolved', () => {
    const auto = resolveSlice(slice({contracts: [greeting('auto')]}))
    const weakenings = findWeakenings(pins({contracts: [greeting()]}), pins({contracts: [greeting('auto')]}), 'slice S-01 Hello')
    expect(holdSlice(auto, weakenings)).toEqual({...auto, tier: 'verify'})
    expect(holdSlice(auto, [])).toBe(auto)
  })
})

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

describe('the gate of a weakened slice', () => {
  let tick = 0
  const clock = () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++))
  const contextOf = (dir: string, input: SliceInput, contractsHash: string): GateContext => {
    const resolved = resolveSlice(input)
    return {dir, slice: resolved, contracts: [], contractsHash, pins: slicePins(input, resolved), now: clock}
  }

  it('pins the slice with an approval; a weakening keeps it at verify, waiting for its checkpoint, until a person approves it as it is', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-weakening-'))
    folders.push(dir)
    const approved = contextOf(dir, slice({contracts: [greeting()]}), 'sha256:one')
    const first = await recordResponse(approved, 'yes', {by: null, channel: 'terminal'})
    expect(first.state.answers.at(-1)?.pins).toEqual(approved.pins)
    expect(await sliceStatus(approved)).toMatchObject({tier: 'verify', next: 'done', weakenings: []})

    // Set to auto, criteria deleted: the contracts changed, and the bar with them.
    const lowered = contextOf(dir, slice({contracts: [greeting('auto', [], [])]}), 'sha256:two')
    expect(lowered.slice.tier).toBe('auto')
    const status = await sliceStatus(lowered)
    expect(status).toMatchObject({tier: 'verify', stale: true, next: 'checkpoint'})
    expect(status.weakenings.map(describeWeakening)).toEqual([
      'slice S-01 Hello: tier verify → auto',
      'C-01 Greeting: tier verify → auto',
      'C-01 Greeting: acceptance criterion "The greeting names the person" → removed',
      'C-01 Greeting: acceptance criterion "The greeting fits one line" → removed',
      'C-01 Greeting: step "Open /hello" → removed'
    ])

    // The same contracts on a tool default set to auto: the hash is the same, the bar is not; a second approval confirms it.
    const defaulted = contextOf(dir, slice({contracts: [greeting(null)]}), 'sha256:three')
    await recordResponse(defaulted, 'yes', {by: null, channel: 'terminal'})
    const autoDefault = contextOf(dir, slice({contracts: [greeting(null)], tier: 'auto'}), 'sha256:three')
    expect(await sliceStatus(autoDefault)).toMatchObject({
      tier: 'verify',
      stale: false,
      next: 'checkpoint',
      weakenings: [{kind: 'slice-tier'}, {kind: 'contract-tier'}]
    })
    const confirmed = await recordResponse(autoDefault, 'yes', {by: null, channel: 'terminal'})
    expect(confirmed.kind).toBe('approved')
    expect(confirmed.state.answers.at(-1)?.pins?.tier).toBe('auto')
    expect(await sliceStatus(autoDefault)).toMatchObject({tier: 'auto', next: 'done', weakenings: []})
    // Approved again as it is, nothing more is recorded.
    expect((await recordResponse(autoDefault, 'yes', {by: null, channel: 'terminal'})).kind).toBe('already-approved')
  })

  it('takes no bar from an approval without pins (an older file), a withdrawn one, or one a skip at the escalation followed', async () => {
    const now = contextOf('/nowhere', slice({contracts: [greeting('auto')]}), 'sha256:one')
    const approval = {
      reply: 'yes',
      outcome: 'approval' as const,
      at: '2025-01-01T00:00:00.000Z',
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: null,
      withdrawnRejection: null
    }
    const pinned = {...approval, pins: pins({contracts: [greeting()]})}
    expect(weakeningsSinceApproval(now, {answers: [approval], escalations: []})).toEqual([])
    expect(weakeningsSinceApproval(now, {answers: [{...pinned, withdrawnAt: '2025-01-02T00:00:00.000Z'}], escalations: []})).toEqual([])
    expect(weakeningsSinceApproval(now, {answers: [pinned], escalations: []})).toHaveLength(2)
    const skip = {choice: '3', decision: 'skip' as const, at: '2025-01-03T00:00:00.000Z', rejectionCount: 3}
    expect(approvedPins({answers: [pinned], escalations: [skip]})).toBeNull()
    expect(approvedPins({answers: [pinned], escalations: [{...skip, at: '2024-12-31T00:00:00.000Z'}]})).toEqual(pinned.pins)
  })

  it('reads pins from a state file, and says what is wrong with pins of the wrong shape', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-weakening-'))
    folders.push(dir)
    const gate = contextOf(dir, slice(), 'sha256:one')
    const {state} = await recordResponse(gate, 'yes', {by: null, channel: 'terminal'})
    const text = await fs.readFile(path.join(dir, 'tiers', 'S-01.json'), 'utf8')
    expect(parseSliceState('S-01.json', text, 'S-01')).toEqual(state)
    const answer = {
      reply: 'yes',
      outcome: 'approval',
      at: '2025-01-01T00:00:00.000Z',
      decisionBefore: null,
      escalationsBefore: 0,
      withdrawnAt: null,
      withdrawnRejection: null
    }
    const broken = {
      version: 1,
      slice: 'S-01',
      rejectionCount: 0,
      rejections: [],
      escalations: [],
      decision: null,
      answers: [{...answer, pins: {...gate.pins, contracts: [{key: 'C-01'}]}}]
    }
    expect(() => parseSliceState('S-01.json', JSON.stringify(broken, null, 2), 'S-01')).toThrow(
      'S-01.json:17:15: Unexpected `answers[0].pins` {"tier":"verify","humanCheck":null,"ret…, expected `{"tier", "humanCheck", "retired", "contracts"}` with each contract’s `key`, `label`, `tier`, `criteria`, `steps` and, when it has one, `intent`; fix or remove the file (it is never reset silently)'
    )
    const pinned = (intent?: unknown) => ({
      key: 'C-01',
      label: 'C-01 Greeting',
      tier: 'verify',
      criteria: ['The greeting names the person'],
      steps: [],
      ...(intent === undefined ? {} : {intent})
    })
    const written = (intent?: unknown) => JSON.stringify({...broken, answers: [{...answer, pins: {...gate.pins, contracts: [pinned(intent)]}}]}, null, 2)
    // A state file written before intent was pinned reads as it is; one with intent reads it; intent of another shape is refused.
    expect(parseSliceState('S-01.json', written(), 'S-01').answers[0]?.pins?.contracts).toEqual([pinned()])
    expect(parseSliceState('S-01.json', written(['## Intent']), 'S-01').answers[0]?.pins?.contracts).toEqual([pinned(['## Intent'])])
    expect(() => parseSliceState('S-01.json', written('## Intent'), 'S-01')).toThrow('S-01.json:17:15: Unexpected `answers[0].pins`')
  })
})
