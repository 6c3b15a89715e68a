/**
 * Unit tests of the runtime’s pure parts: a slice’s tier, its aggregated
 * checkpoint items, routing rejections, and the text of the
 * route and the tier report.
 */
import type {Contract} from '@verification-tiers/contracts'
import {rejectionOptions, testWriterNeverReceives, visualCheckpointWarning} from '@verification-tiers/protocol'
import {
  findEscalationOption,
  findRejectionOption,
  renderRoute,
  renderTierReport,
  renderVerifyCheckpoint,
  resolveSlice,
  resolveSliceTier,
  routeRejection,
  tierReport,
  verifyCheckpointData
} from '@verification-tiers/runtime'
import type {ResolvedSlice} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'

/** A contract with what the runtime reads of it. */
function contract(id: string, name: string, tier: string | null, criteria: string[] = [], steps: string[] = []): Contract {
  const item = (text: string) => ({text, position: {start: {line: 1, column: 1}, end: {line: 1, column: 1}}, check: null})
  return {
    id,
    name,
    label: `${id} ${name}`,
    tier,
    effectiveTier: tier === 'auto' ? 'auto' : 'verify',
    criteria: criteria.map(item),
    steps: steps.map(item)
  } as unknown as Contract
}

const search = (): ResolvedSlice =>
  resolveSlice({
    id: 'S-07',
    name: 'Search',
    contracts: [
      contract('C-10', 'SearchBox', 'verify', ['Typing filters the list', 'Clearing the box shows every item'], ['Open /search']),
      contract('C-11', 'SearchApi', 'auto', ['Ignored: the tier is auto'], ['Ignored too']),
      contract('C-12', 'SearchEmpty', null, ['An empty result says "No matches"'], ['Search for zzz'])
    ]
  })

describe('resolveSliceTier', () => {
  const tier = (...values: Array<string | null>) => resolveSliceTier(values.map((value) => ({tier: value})))

  it('takes the highest tier: verify > auto', () => {
    expect(tier('auto', 'verify', 'auto')).toBe('verify')
    expect(tier('verify', 'auto')).toBe('verify')
    expect(tier('verify')).toBe('verify')
  })

  it('is auto only when every contract is auto', () => {
    expect(tier('auto')).toBe('auto')
    expect(tier('auto', 'auto', 'auto')).toBe('auto')
  })

  it('counts a missing or invalid tier as verify', () => {
    expect(tier('auto', null)).toBe('verify')
    for (const invalid of ['manual', 'Auto', 'AUTO', ' auto', 'auto-verify', '', 'skip']) expect(tier('auto', invalid)).toBe('verify')
  })

  it('is auto for a slice without contracts (nothing to check)', () => {
    expect(tier()).toBe('auto')
  })
})

describe('resolveSlice', () => {
  it('aggregates the criteria and steps of the verify contracts in contract order, tagged with their contract', () => {
    const slice = search()
    expect(slice.tier).toBe('verify')
    expect(slice.criteria).toEqual([
      {text: 'Typing filters the list', contract: 'C-10 SearchBox'},
      {text: 'Clearing the box shows every item', contract: 'C-10 SearchBox'},
      {text: 'An empty result says "No matches"', contract: 'C-12 SearchEmpty'}
    ])
    expect(slice.steps).toEqual([
      {text: 'Open /search', contract: 'C-10 SearchBox'},
      {text: 'Search for zzz', contract: 'C-12 SearchEmpty'}
    ])
  })

  it('keeps each contract’s tier as written and the one that applies', () => {
    expect(search().contracts).toEqual([
      {id: 'C-10', label: 'C-10 SearchBox', tier: 'verify', tierInSlice: 'verify', tierFrom: 'contract', criteria: 2, steps: 1},
      {id: 'C-11', label: 'C-11 SearchApi', tier: 'auto', tierInSlice: 'auto', tierFrom: 'contract', criteria: 1, steps: 1},
      {id: 'C-12', label: 'C-12 SearchEmpty', tier: null, tierInSlice: 'verify', tierFrom: 'default', criteria: 1, steps: 1}
    ])
    expect(search().nothingToCheck).toEqual([])
  })

  it('gives a contract without a tier the slice’s stated tier; a contract’s own tier still counts', () => {
    const stated = (tier: 'auto' | 'verify', own: string | null) =>
      resolveSlice({id: 'S-09', name: 'Stated', tier, contracts: [contract('C-30', 'Own', own, ['x'], []), contract('C-31', 'Bare', null, [], [])]})
    const auto = stated('auto', null)
    expect(auto.tier).toBe('auto')
    expect(auto.contracts.map((one) => [one.label, one.tierInSlice, one.tierFrom])).toEqual([
      ['C-30 Own', 'auto', 'slice'],
      ['C-31 Bare', 'auto', 'slice']
    ])
    expect(auto.criteria).toEqual([])
    // verify still wins over auto: a verify contract makes an auto slice verify.
    const mixed = stated('auto', 'verify')
    expect(mixed.tier).toBe('verify')
    expect(mixed.contracts.map((one) => [one.tierInSlice, one.tierFrom])).toEqual([
      ['verify', 'contract'],
      ['auto', 'slice']
    ])
    expect(mixed.criteria).toEqual([{text: 'x', contract: 'C-30 Own'}])
    expect(mixed.nothingToCheck).toEqual([])
    const verify = stated('verify', 'auto')
    expect(verify.tier).toBe('verify')
    expect(verify.nothingToCheck).toEqual(['C-31 Bare'])
    expect(resolveSliceTier([{tier: null}], 'auto')).toBe('auto')
    expect(resolveSliceTier([{tier: null}])).toBe('verify')
  })

  it('aggregates nothing for an all-auto slice', () => {
    const slice = resolveSlice({id: 'S-08', name: 'Plumbing', contracts: [contract('C-20', 'Api', 'auto', ['x'], ['y'])]})
    expect(slice).toMatchObject({tier: 'auto', criteria: [], steps: []})
  })

  it('feeds the Verify checkpoint: only criteria, only steps, or neither', () => {
    const render = (criteria: string[], steps: string[]) =>
      renderVerifyCheckpoint(verifyCheckpointData(resolveSlice({id: 'S-01', name: 'Cards', contracts: [contract('C-01', 'Grid', 'verify', criteria, steps)]})))
    const choices = `  1) Yes — mark complete and continue
  2) No — I'll describe what's wrong
  3) Partially — some criteria met, I'll describe the gaps`
    expect(render(['A grid of 3 columns'], [])).toBe(`ALL TESTS PASSING — Slice S-01: Cards

Please verify the output matches your intent.

Acceptance criteria:
  [ ] A grid of 3 columns

Does this match what you intended?
${choices}`)
    expect(render([], ['Open /cards'])).toBe(`ALL TESTS PASSING — Slice S-01: Cards

Please verify the output matches your intent.

Steps to verify:
  1. Open /cards

Does this match what you intended?
${choices}`)
    expect(render([], [])).toBe(`ALL TESTS PASSING — Slice S-01: Cards

Does the output match your intent?
${choices}`)
  })
})

// How replies are read: `response.test.ts`.

describe('routeRejection', () => {
  const contracts = [{label: 'C-10 SearchBox', source: '### C-10: SearchBox\n\n**Verification:** verify'}]
  const route = (choice: string, detail: string | null = null) =>
    routeRejection({option: findRejectionOption(choice)!, slice: search(), feedback: ' it is slow ', detail, contracts})

  it('finds options by choice, trimmed, and nothing else', () => {
    expect(findRejectionOption(' 2 ')?.classification).toBe('contract_gap')
    for (const choice of ['0', '4', 'one', '', '1)']) expect(findRejectionOption(choice)).toBeUndefined()
    expect(findEscalationOption('3')?.decision).toBe('skip')
    expect(findEscalationOption('4')).toBeUndefined()
  })

  it('sends a test gap (1) to the test writer with the feedback verbatim, the contracts and criteria', () => {
    expect(route('1')).toEqual({
      sliceId: 'S-07',
      sliceName: 'Search',
      choice: '1',
      title: 'Tighten the tests',
      classification: 'test_gap',
      gap: 'Test gap',
      target: 'test writer',
      action: rejectionOptions[0].action,
      actionTaken: 'spawned test writer with feedback',
      feedback: ' it is slow ',
      detail: null,
      contracts,
      criteria: search().criteria,
      never: ['implementation code', 'test source from the current cycle']
    })
  })

  it('sends a contract gap (2) to the user, with nothing held back', () => {
    expect(route('2')).toEqual({
      sliceId: 'S-07',
      sliceName: 'Search',
      choice: '2',
      title: 'Revise the contract',
      classification: 'contract_gap',
      gap: 'Contract gap',
      target: 'user',
      action: rejectionOptions[1].action,
      actionTaken: 'presented contract to user for revision',
      feedback: ' it is slow ',
      detail: null,
      contracts,
      criteria: search().criteria,
      // The user may see anything: the never list is the test writer’s.
      never: []
    })
  })

  it('sends an implementation gap (3) to the test writer with the detail verbatim', () => {
    expect(route('3', '  under 200 ms  ')).toMatchObject({
      choice: '3',
      classification: 'implementation_gap',
      gap: 'Implementation gap',
      target: 'test writer',
      actionTaken: 'spawned test writer with detailed description',
      feedback: ' it is slow ',
      detail: '  under 200 ms  ',
      never: testWriterNeverReceives
    })
  })

  it('copies the contracts it is given', () => {
    const routed = route('1')
    expect(routed.contracts).not.toBe(contracts)
    expect(routed.contracts).toEqual(contracts)
  })
})

describe('renderRoute', () => {
  const contracts = [{label: 'C-10 SearchBox', source: '### C-10: SearchBox\n\n**Verification:** verify'}]
  const render = (choice: string, detail: string | null = null) =>
    renderRoute(routeRejection({option: findRejectionOption(choice)!, slice: search(), feedback: ' it is slow ', detail, contracts}))
  const handoff = `Acceptance criteria:
  [ ] Typing filters the list (C-10 SearchBox)
  [ ] Clearing the box shows every item (C-10 SearchBox)
  [ ] An empty result says "No matches" (C-12 SearchEmpty)

--- C-10 SearchBox ---
### C-10: SearchBox

**Verification:** verify`

  it('prints a test-writer route with what it must never send', () => {
    expect(render('1')).toBe(`ROUTE — Slice S-07: Search

1) Tighten the tests: Test gap (\`test_gap\`), to the test writer.
Spawn test writer with the feedback (verbatim), the contract and the acceptance criteria; it adds or tightens tests, then the implementer passes them. Re-run the tier gate.

Feedback (verbatim): " it is slow "

${handoff}

Never send: implementation code or test source from the current cycle.`)
  })

  it('prints the never list of whatever route it is given', () => {
    const route = routeRejection({option: findRejectionOption('2')!, slice: search(), feedback: 'x', detail: null, contracts: []})
    expect(renderRoute({...route, never: ['secrets']})).toMatch(/\n\nNever send: secrets\.$/)
    expect(renderRoute(route)).not.toContain('Never send')
  })

  it('prints a route to the user without the never list', () => {
    expect(render('2')).toBe(`ROUTE — Slice S-07: Search

2) Revise the contract: Contract gap (\`contract_gap\`), to the user.
Present the contract to the user to revise its criteria or definition. Restart the slice from Step 1.

Feedback (verbatim): " it is slow "

${handoff}`)
  })

  it('prints the detail of route 3 verbatim', () => {
    expect(render('3', 'Results within 200 ms of typing')).toBe(`ROUTE — Slice S-07: Search

3) Provide more detail: Implementation gap (\`implementation_gap\`), to the test writer.
Collect the detail. Spawn test writer with the detail, the feedback (verbatim), the contract and the acceptance criteria; then the implementer. Re-run the tier gate.

Feedback (verbatim): " it is slow "
Detail (verbatim): "Results within 200 ms of typing"

${handoff}

Never send: implementation code or test source from the current cycle.`)
  })

  it('leaves out the criteria when there are none', () => {
    const slice = resolveSlice({id: 'S-02', name: 'Export', contracts: [contract('C-06', 'Csv', 'verify', [], ['Click Export'])]})
    const text = renderRoute(routeRejection({option: findRejectionOption('1')!, slice, feedback: 'no file', detail: null, contracts: []}))
    expect(text).toBe(`ROUTE — Slice S-02: Export

1) Tighten the tests: Test gap (\`test_gap\`), to the test writer.
Spawn test writer with the feedback (verbatim), the contract and the acceptance criteria; it adds or tightens tests, then the implementer passes them. Re-run the tier gate.

Feedback (verbatim): "no file"

Never send: implementation code or test source from the current cycle.`)
  })
})

describe('tierReport and renderTierReport', () => {
  it('reports each contract’s tier, defaults and counts, and what looks wrong', () => {
    const report = tierReport(search())
    expect(report).toEqual({
      sliceId: 'S-07',
      sliceName: 'Search',
      tier: 'verify',
      contracts: [
        {label: 'C-10 SearchBox', tier: 'verify', defaulted: false, criteria: 2, steps: 1},
        {label: 'C-11 SearchApi', tier: 'auto', defaulted: false, criteria: 1, steps: 1},
        {label: 'C-12 SearchEmpty', tier: 'verify', defaulted: true, criteria: 1, steps: 1}
      ],
      warnings: ['C-11 SearchApi: auto tier lists acceptance criteria or steps, which are ignored']
    })
    expect(renderTierReport(report)).toBe(`TIER REPORT — Slice S-07: Search

Effective tier: verify

Contracts:
  C-10 SearchBox: verify — criteria: 2, steps: 1
  C-11 SearchApi: auto — criteria: 1, steps: 1
  C-12 SearchEmpty: verify (default) — criteria: 1, steps: 1

Warnings:
  - C-11 SearchApi: auto tier lists acceptance criteria or steps, which are ignored`)
  })

  it('warns about invalid tiers, empty verify contracts and the deprecated config toggle', () => {
    const slice = resolveSlice({
      id: 'S-09',
      name: 'Odd',
      contracts: [contract('C-30', 'Manual', 'manual', ['Looks right']), contract('C-31', 'Bare', null)]
    })
    const report = tierReport(slice, {workflow: {visual_checkpoint: true}})
    expect(renderTierReport(report)).toBe(`TIER REPORT — Slice S-09: Odd

Effective tier: verify

Contracts:
  C-30 Manual: verify — criteria: 1, steps: 0
  C-31 Bare: verify (default) — criteria: 0, steps: 0

Warnings:
  - C-30 Manual: tier \`manual\` is not \`auto\` or \`verify\`; read as \`verify\`
  - C-31 Bare: verify tier with no acceptance criteria or steps
  - ${visualCheckpointWarning}`)
  })

  it('has no Warnings section when nothing looks wrong', () => {
    const slice = resolveSlice({id: 'S-08', name: 'Plumbing', contracts: [contract('C-20', 'Api', 'auto')]})
    expect(renderTierReport(tierReport(slice, {mode: 'yolo', workflow: {}}))).toBe(`TIER REPORT — Slice S-08: Plumbing

Effective tier: auto

Contracts:
  C-20 Api: auto — criteria: 0, steps: 0`)
  })
})
