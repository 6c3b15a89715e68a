/**
 * The checkpoint formats: what the runtime prints (from the precompiled
 * partials, with the Handlebars runtime only) is exactly what the generated
 * docs show, the fixed wording of each checkpoint (here, in full), and what a
 * real slice of the example project gives.
 */
import {execFile} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import type {Code, Root} from 'mdast'
import {extractContracts} from '@verification-tiers/contracts'
import {placeholders, rejectionOptions} from '@verification-tiers/protocol'
import type {EscalationData, VerifyCheckpointData} from '@verification-tiers/protocol'
import {
  partialNames,
  renderEscalation,
  renderPartial,
  renderRejectionOptions,
  renderVerifyCheckpoint,
  resolveSlice,
  verifyCheckpointData
} from '@verification-tiers/runtime'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {visit} from 'unist-util-visit'
import {describe, expect, it} from 'vitest'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const example = path.join(repo, 'content/examples/greenlight-project/.greenlight')

/** Partials the runtime renders that no doc shows (a routed rejection’s hand-off, the verifier’s tier report). */
const runtimeOnly = [
  'changed-since-approved',
  'criteria-remaining',
  'evidence-refusal',
  'evidence-state',
  'route',
  'stop-hook-failed',
  'stop-hook-manual',
  'stop-hook-missing',
  'stop-hook-valve',
  'tier-report',
  'verification-summary'
]

/** The ```text blocks of a generated doc, in order. */
function textBlocks(doc: string): string[] {
  const tree = remark().parse(fs.readFileSync(path.join(repo, 'content/references', doc), 'utf8')) as Root
  const blocks: string[] = []
  visit(tree, 'code', (node: Code) => {
    if (node.lang === 'text') blocks.push(node.value)
  })
  return blocks
}

describe('the docs show what the runtime prints', () => {
  const expected: Record<string, Array<{partial: string; text: string}>> = {
    'verification-tiers.md': [
      {partial: 'verify-checkpoint', text: renderVerifyCheckpoint(placeholders.verifyCheckpoint)},
      {partial: 'verify-checkpoint', text: renderVerifyCheckpoint(placeholders.verifyCheckpointEmpty)},
      {partial: 'rejection-options', text: renderRejectionOptions(placeholders.rejectionOptions)},
      {partial: 'escalation', text: renderEscalation(placeholders.escalation)}
    ],
    'checkpoint-protocol.md': [
      {partial: 'verify-checkpoint', text: renderVerifyCheckpoint(placeholders.verifyCheckpoint)},
      {partial: 'decision-checkpoint', text: renderPartial('decision-checkpoint', placeholders.decision)},
      {partial: 'external-action-checkpoint', text: renderPartial('external-action-checkpoint', placeholders.externalAction)},
      {partial: 'circuit-break-checkpoint', text: renderPartial('circuit-break-checkpoint', placeholders.circuitBreak)}
    ]
  }

  it.each(Object.entries(expected))('%s: every ```text block is the runtime’s output for the placeholder data', (doc, formats) => {
    expect(textBlocks(doc)).toEqual(formats.map((format) => format.text))
  })

  it('every checkpoint partial is shown in a doc; the others are runtime-only hand-offs and reports', () => {
    const shown = [...new Set(Object.values(expected).flatMap((formats) => formats.map((format) => format.partial)))].sort()
    expect(shown).toEqual([
      'circuit-break-checkpoint',
      'decision-checkpoint',
      'escalation',
      'external-action-checkpoint',
      'rejection-options',
      'verify-checkpoint'
    ])
    expect(
      partialNames()
        .filter((name) => !shown.includes(name))
        .sort()
    ).toEqual(runtimeOnly)
  })

  it('renderPartial renders by name and rejects an unknown name', () => {
    expect(renderPartial('verify-checkpoint', placeholders.verifyCheckpoint)).toBe(renderVerifyCheckpoint(placeholders.verifyCheckpoint))
    expect(() => renderPartial('visual-checkpoint', {})).toThrow(
      `Unknown checkpoint format \`visual-checkpoint\`, expected one of ${partialNames().join(', ')}`
    )
  })
})

describe('the formats, word for word', () => {
  it('the Verify checkpoint with placeholder data', () => {
    expect(renderVerifyCheckpoint(placeholders.verifyCheckpoint)).toBe(
      [
        'ALL TESTS PASSING — Slice {slice_id}: {slice_name}',
        '',
        'Please verify the output matches your intent.',
        '',
        'Acceptance criteria:',
        '  [ ] {criterion 1 from contract A}',
        '  [ ] {criterion 2 from contract A}',
        '  [ ] {criterion 3 from contract B}',
        '',
        'Steps to verify:',
        '  1. {step 1 from contract A}',
        '  2. {step 2 from contract A}',
        '  3. {step 3 from contract B}',
        '',
        'Does this match what you intended?',
        '  1) Yes — mark complete and continue',
        "  2) No — I'll describe what's wrong",
        "  3) Partially — some criteria met, I'll describe the gaps"
      ].join('\n')
    )
  })

  it('the rejection options with placeholder data', () => {
    expect(renderRejectionOptions(placeholders.rejectionOptions)).toBe(
      [
        `Your feedback: "{user's response}"`,
        '',
        'How should we address this?',
        '',
        "1) Tighten the tests -- the tests aren't specific enough to catch this mismatch",
        '   (routes to: test writer adds more precise assertions, then implementer passes them)',
        '',
        "2) Revise the contract -- the contract doesn't capture what I actually want",
        '   (routes to: you update the contract, then the slice restarts)',
        '',
        "3) Provide more detail -- I'll describe exactly what I expect",
        '   (routes to: test writer uses your detail to write targeted tests, then implementer passes them)',
        '',
        'Which option? (1/2/3)'
      ].join('\n')
    )
  })

  it('the escalation with placeholder data', () => {
    expect(renderEscalation(placeholders.escalation)).toBe(
      [
        'ESCALATION: {slice_name}',
        '',
        'This slice has been rejected 3 times. The verification criteria may not match',
        'what the contracts and tests can deliver.',
        '',
        'Rejection history:',
        '1. "{feedback 1}" -> {action taken}',
        '2. "{feedback 2}" -> {action taken}',
        '3. "{feedback 3}" -> {action taken}',
        '',
        'Options:',
        '1) Re-scope -- the contract is fundamentally wrong. Revise contracts and restart.',
        '2) Pair -- provide detailed, step-by-step guidance for exactly what you want.',
        '3) Skip verification -- mark this slice as auto-verified and proceed.',
        '   (The mismatch is acknowledged but deferred.)',
        '',
        'Which option? (1/2/3)'
      ].join('\n')
    )
  })
})

describe('a real slice: S-01 of the greenlight example project', () => {
  // S-01 “Campaign Cards” holds C-01 (verify), C-02 (auto) and C-03 (verify):
  // the checkpoint aggregates the criteria and steps of C-01 then C-03.
  const criteriaC01 = [
    'Campaigns render as cards in a 3-column grid on a 1280px wide screen',
    'Each card shows the campaign name, its status and its spend',
    'Clicking a card opens /campaigns/{id}'
  ]
  const criteriaC03 = ['A paused campaign shows a grey "Paused" badge', 'A live campaign shows a green "Live" badge']
  const stepsC01 = ['Run `npm run dev` and open http://localhost:3000/campaigns', 'Resize the window to 1280px wide and count the columns']
  const stepsC03 = ['Open /campaigns and pause one campaign']
  const slice = (criteria: readonly string[], steps: readonly string[]): VerifyCheckpointData => ({
    sliceId: 'S-01',
    sliceName: 'Campaign Cards',
    criteria,
    steps
  })

  const headline = 'ALL TESTS PASSING — Slice S-01: Campaign Cards'
  const choices = [
    '  1) Yes — mark complete and continue',
    "  2) No — I'll describe what's wrong",
    "  3) Partially — some criteria met, I'll describe the gaps"
  ]
  const criteriaLines = [
    'Acceptance criteria:',
    '  [ ] Campaigns render as cards in a 3-column grid on a 1280px wide screen',
    '  [ ] Each card shows the campaign name, its status and its spend',
    '  [ ] Clicking a card opens /campaigns/{id}',
    '  [ ] A paused campaign shows a grey "Paused" badge',
    '  [ ] A live campaign shows a green "Live" badge'
  ]
  const stepLines = [
    'Steps to verify:',
    '  1. Run `npm run dev` and open http://localhost:3000/campaigns',
    '  2. Resize the window to 1280px wide and count the columns',
    '  3. Open /campaigns and pause one campaign'
  ]

  it('the example project has those contracts in that slice', () => {
    const graph = JSON.parse(fs.readFileSync(path.join(example, 'GRAPH.json'), 'utf8'))
    expect(graph.slices['S-01']).toMatchObject({name: 'Campaign Cards', contracts: ['C-01', 'C-02', 'C-03']})
    const contracts = fs.readFileSync(path.join(example, 'CONTRACTS.md'), 'utf8')
    for (const text of [...criteriaC01, ...stepsC01]) expect(contracts).toContain(text)
    for (const text of [...criteriaC03, ...stepsC03]) expect(contracts).toContain(`  - ${text}\n`)
  })

  it('end to end: contracts read from CONTRACTS.md, slice resolved, checkpoint rendered', () => {
    const tree = remark()
      .use(remarkFrontmatter)
      .parse(fs.readFileSync(path.join(example, 'CONTRACTS.md'), 'utf8'))
    const contracts = extractContracts(tree as Root).filter((contract) => ['C-01', 'C-02', 'C-03'].includes(contract.id ?? ''))
    expect(contracts.map((contract) => [contract.id, contract.tier])).toEqual([
      ['C-01', 'verify'],
      ['C-02', 'auto'],
      ['C-03', 'verify']
    ])
    const resolved = resolveSlice({id: 'S-01', name: 'Campaign Cards', contracts})
    expect(resolved.tier).toBe('verify')
    expect(verifyCheckpointData(resolved)).toEqual({
      ...slice([...criteriaC01, ...criteriaC03], [...stepsC01, ...stepsC03]),
      humanCheck: null,
      verification: null,
      retired: null
    })
    expect(renderVerifyCheckpoint(verifyCheckpointData(resolved))).toBe(
      [
        headline,
        '',
        'Please verify the output matches your intent.',
        '',
        ...criteriaLines,
        '',
        ...stepLines,
        '',
        'Does this match what you intended?',
        ...choices
      ].join('\n')
    )
  })

  it('both criteria and steps: shows both, criteria first, in contract order', () => {
    expect(renderVerifyCheckpoint(slice([...criteriaC01, ...criteriaC03], [...stepsC01, ...stepsC03]))).toBe(
      [
        headline,
        '',
        'Please verify the output matches your intent.',
        '',
        ...criteriaLines,
        '',
        ...stepLines,
        '',
        'Does this match what you intended?',
        ...choices
      ].join('\n')
    )
  })

  it('criteria only: shows only the criteria', () => {
    expect(renderVerifyCheckpoint(slice([...criteriaC01, ...criteriaC03], []))).toBe(
      [headline, '', 'Please verify the output matches your intent.', '', ...criteriaLines, '', 'Does this match what you intended?', ...choices].join('\n')
    )
  })

  it('steps only: shows only the steps', () => {
    expect(renderVerifyCheckpoint(slice([], [...stepsC01, ...stepsC03]))).toBe(
      [headline, '', 'Please verify the output matches your intent.', '', ...stepLines, '', 'Does this match what you intended?', ...choices].join('\n')
    )
  })

  it('neither: asks only whether the output matches', () => {
    expect(renderVerifyCheckpoint(slice([], []))).toBe([headline, '', 'Does the output match your intent?', ...choices].join('\n'))
    expect(renderVerifyCheckpoint(placeholders.verifyCheckpointEmpty)).toBe(
      ['ALL TESTS PASSING — Slice {slice_id}: {slice_name}', '', 'Does the output match your intent?', ...choices].join('\n')
    )
  })

  it('the escalation after 3 real rejections', () => {
    const data: EscalationData = {
      sliceName: 'Campaign Cards',
      rejections: [
        {feedback: 'The grid has 2 columns at 1280px, not 3', action: rejectionOptions[0].actionTaken},
        {feedback: 'Cards show the budget, I asked for the spend', action: rejectionOptions[2].actionTaken},
        {feedback: 'Still 2 columns when the sidebar is open', action: rejectionOptions[0].actionTaken}
      ]
    }
    expect(renderEscalation(data)).toBe(
      [
        'ESCALATION: Campaign Cards',
        '',
        'This slice has been rejected 3 times. The verification criteria may not match',
        'what the contracts and tests can deliver.',
        '',
        'Rejection history:',
        '1. "The grid has 2 columns at 1280px, not 3" -> spawned test writer with feedback',
        '2. "Cards show the budget, I asked for the spend" -> spawned test writer with detailed description',
        '3. "Still 2 columns when the sidebar is open" -> spawned test writer with feedback',
        '',
        'Options:',
        '1) Re-scope -- the contract is fundamentally wrong. Revise contracts and restart.',
        '2) Pair -- provide detailed, step-by-step guidance for exactly what you want.',
        '3) Skip verification -- mark this slice as auto-verified and proceed.',
        '   (The mismatch is acknowledged but deferred.)',
        '',
        'Which option? (1/2/3)'
      ].join('\n')
    )
  })

  it('the user’s words are shown verbatim: no HTML escaping, no template evaluation', () => {
    const feedback = 'The <Grid> shows {{sliceName}} & "2" columns'
    expect(renderRejectionOptions({feedback}).split('\n')[0]).toBe(`Your feedback: "${feedback}"`)
  })

  it('the runtime is strict: missing data fails instead of printing blanks', () => {
    const {sliceName: _, ...missing} = slice([], [])
    expect(() => renderVerifyCheckpoint(missing as unknown as VerifyCheckpointData)).toThrow(/"sliceName" not defined/)
  })
})

describe('the runtime uses only the Handlebars runtime', () => {
  const dist = path.join(repo, 'packages/runtime/dist')
  const fullCompiler = /(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"]handlebars['"]/

  it('no file of the runtime’s dist imports the full compiler; the partials module imports nothing', () => {
    const files = fs
      .readdirSync(dist, {recursive: true})
      .map(String)
      .filter((file) => file.endsWith('.js'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(fs.readFileSync(path.join(dist, file), 'utf8'), file).not.toMatch(fullCompiler)
    expect(fs.readFileSync(path.join(dist, '../../protocol/partials.generated.js'), 'utf8')).not.toMatch(/\bimport\b|\brequire\s*\(/)
  })

  it('loading the runtime loads no Handlebars; rendering loads its runtime and no compiler module', async () => {
    const script = [
      "import {createRequire} from 'node:module'",
      'const cache = createRequire(import.meta.url).cache',
      "const handlebars = () => Object.keys(cache).filter((file) => file.includes('handlebars'))",
      "const {renderVerifyCheckpoint} = await import('@verification-tiers/runtime')",
      'const before = handlebars()',
      "renderVerifyCheckpoint({sliceId: 'S-01', sliceName: 'x', criteria: ['a'], steps: ['b']})",
      'console.log(JSON.stringify({before, after: handlebars()}))'
    ].join('\n')
    const {stdout} = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {cwd: repo, encoding: 'utf8'})
    const {before, after} = JSON.parse(stdout) as {before: string[]; after: string[]}
    expect(before).toEqual([])
    const loaded = after.map((file) => path.relative(path.join(repo, 'node_modules/handlebars'), file).split(path.sep).join('/'))
    expect(loaded).toContain('dist/cjs/handlebars.runtime.js')
    expect(loaded.filter((file) => /compiler|^dist\/cjs\/handlebars\.js$|^lib\/index\.js$/.test(file))).toEqual([])
  })
})
