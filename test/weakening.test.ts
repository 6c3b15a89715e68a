/**
 * Weakening the bar needs a person: what a person approved is pinned with
 * the approval, and a change that asks less of a person (verify to auto,
 * criteria deleted, a tool's default set to auto, on a branch since its
 * base) keeps the slice verify in `status`, `checkpoint`, `contracts`, the
 * Stop hook and `tiers ci`, each change with its old and new text and its
 * place, until a person approves the slice as it is. Through the cli's
 * `main` in this process (a person's approval at a real terminal is
 * `person-answers.test.ts`'s).
 *
 * Run `npx tsc -b` first: the cli is `packages/cli/dist`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {git} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers, runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const greeting = `# Contracts

### C-01: Greeting

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- The greeting reads well to a person
- The greeting names the person
`

/** The attack: the tier set to auto and the criteria deleted. */
const lowered = `# Contracts

### C-01: Greeting

**Slice:** S-01
**Verification:** auto
`

/** A committed repository on `main` whose `folder` holds `files`. */
async function repository(files: Record<string, string>): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-weakening-')))
  folders.push(root)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), {recursive: true})
    await fs.writeFile(path.join(root, file), text)
  }
  await git(root, 'init', '-q', '-b', 'main')
  await git(root, 'add', '-A')
  await git(root, 'commit', '-q', '-m', 'Project')
  return root
}

const greenlight = () => repository({'.greenlight/CONTRACTS.md': greeting, '.greenlight/config.json': '{"test": {"command": "true"}}\n'})

/** An answer's time, as `<time>`. */
const normalize = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')

const contractsFile = (root: string) => path.join(root, '.greenlight', 'CONTRACTS.md')

/** The changes of the attack, one line each, with `file` as their place. */
const attackLines = (file: string) => [
  'slice S-01: tier verify → auto',
  `C-01 Greeting: tier verify → auto (${file}:3)`,
  `C-01 Greeting: acceptance criterion "The greeting reads well to a person" → removed (${file}:3)`,
  `C-01 Greeting: acceptance criterion "The greeting names the person" → removed (${file}:3)`
]

const holdRule = '(it stays verify until a person approves it as it is)'
const choices = "  1) Yes — mark complete and continue\n  2) No — I'll describe what's wrong\n  3) Partially — some criteria met, I'll describe the gaps"
const closing =
  'A person approves a verify slice at its checkpoint, in their own terminal (tiers review <slice>), and commits its state (<project>/tiers/<slice>.json).'

describe('a slice lowered after a person approved it', () => {
  it('stays verify, saying each change old → new with its place, until a person approves it as it is; then auto applies', async () => {
    const root = await greenlight()
    const stopHook = async () => JSON.parse((await runTiers(root, ['stop-hook'], JSON.stringify({session_id: 'agent-1', cwd: root}))).stdout)
    expect((await runTiers(root, ['verify', 'S-01'])).code).toBe(0)
    const approved = await runTiers(root, ['respond', 'S-01', 'yes'], '', {}, {terminal: true})
    expect([approved.code, approved.stdout.split('\n')[0]]).toEqual([0, 'APPROVED — Slice S-01: S-01'])
    // The slice as the person saw it, committed beside the answer.
    const state = JSON.parse(await fs.readFile(path.join(root, '.greenlight', 'tiers', 'S-01.json'), 'utf8'))
    expect(state.answers[0].pins).toEqual({
      tier: 'verify',
      humanCheck: null,
      retired: null,
      contracts: [
        {key: 'C-01', label: 'C-01 Greeting', tier: 'verify', criteria: ['The greeting reads well to a person', 'The greeting names the person'], steps: []}
      ]
    })
    await git(root, 'add', '-A')
    await git(root, 'commit', '-q', '-m', 'Approve S-01')

    await fs.writeFile(contractsFile(root), lowered)
    const status = await runTiers(root, ['status'])
    expect({code: status.code, stdout: normalize(status.stdout)}).toEqual({
      code: 0,
      stdout: `S-01 S-01: verify, 0/3 rejections, approved <time> (stale: contracts changed since), run stale, next: verify; changed since approved (verify until a person approves it as it is): ${attackLines('.greenlight/CONTRACTS.md').join('; ')}\n`
    })
    // The agent runs the checks again: they pass, and the slice still waits for a person.
    expect((await runTiers(root, ['verify', '--all'])).code).toBe(0)
    const changes = attackLines(contractsFile(root))
    expect(await stopHook()).toEqual({
      systemMessage: `All automated criteria pass.\nChanged since a person approved the slice ${holdRule}:\n${changes.map((line) => `  - ${line}`).join('\n')}`
    })
    expect(await runTiers(root, ['ci'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 1 thing waits for a person or a fix:\n  S-01: changed since a person approved it, not confirmed by a person: ${changes.join('; ')}\n\n${closing}\n`,
      stderr: ''
    })
    const checkpoint = `ALL TESTS PASSING — Slice S-01: S-01\n\nChanged since a person approved the slice ${holdRule}:\n${attackLines(
      '.greenlight/CONTRACTS.md'
    )
      .map((line) => `  - ${line}`)
      .join('\n')}\n\nDoes the output match your intent?\n${choices}`
    expect(await runTiers(root, ['checkpoint', 'S-01'])).toEqual({code: 0, stdout: `${checkpoint}\n`, stderr: ''})
    // The agent cannot confirm it.
    expect((await runTiers(root, ['respond', 'S-01', 'yes'])).code).toBe(1)

    const review = await runTiers(root, ['review', 'S-01'], 'yes\n', {}, {terminal: true})
    expect(review.code).toBe(0)
    expect(review.stdout).toContain(`${checkpoint}\n\nYour answer (yes, or what is wrong): `)
    expect(review.stdout).toContain(
      `Recorded. The slice is complete: go on to summary and docs.\nConfirmed, as changed since a person approved the slice:\n${attackLines(
        '.greenlight/CONTRACTS.md'
      )
        .map((line) => `  - ${line}`)
        .join('\n')}\nTo withdraw this answer: tiers respond --undo S-01\n`
    )
    // Confirmed: the weaker tier applies.
    expect(normalize((await runTiers(root, ['status'])).stdout)).toBe('S-01 S-01: auto, 0/3 rejections, approved <time>, run passes, next: done\n')
    expect(await runTiers(root, ['checkpoint', 'S-01'])).toEqual({
      code: 0,
      stdout: 'Slice S-01: S-01 is auto: every contract is auto, so no checkpoint is needed.\n',
      stderr: ''
    })
    expect((await runTiers(root, ['ci'])).code).toBe(0)
    expect(await stopHook()).toEqual({})
  })
})

/** A BMAD spec whose frozen block holds the intent a person approved. */
const receiptSpec = `---
title: 'Fix the total on the receipt'
type: 'bugfix'
status: 'in-review'
---

<frozen-after-approval reason="human-owned intent — do not modify unless human renegotiates">

## Intent

**Problem:** The receipt misspells its total.

## Boundaries & Constraints

**Never:** change the price of a repair.

</frozen-after-approval>

## Tasks & Acceptance

**Acceptance Criteria:**
- Given a paid repair, when the receipt prints, then its last line reads "Total"
`

describe('the intent of a BMAD spec changed after a person approved it', () => {
  it('holds the spec, saying the change old → new with its line, until a person approves it as it is', async () => {
    const artifacts = '_bmad-output/implementation-artifacts'
    const root = await repository({
      [`${artifacts}/spec-fix-receipt.md`]: receiptSpec,
      [`${artifacts}/1-1-print-a-receipt.md`]:
        '# Story 1.1: Print a receipt\n\nStatus: review\n\n## Acceptance Criteria\n\n1. Given a paid repair, when the cyclist asks, then a receipt prints\n',
      '_bmad-output/tiers.json': '{"test": {"command": "true"}}\n'
    })
    const stopHook = async () => JSON.parse((await runTiers(root, ['stop-hook'], JSON.stringify({session_id: 'agent-1', cwd: root}))).stdout)
    expect((await runTiers(root, ['verify', '--all'])).code).toBe(0)
    for (const slice of ['1-1-print-a-receipt', 'spec-fix-receipt'])
      expect((await runTiers(root, ['respond', slice, 'yes'], '', {}, {terminal: true})).code).toBe(0)
    const state = JSON.parse(await fs.readFile(path.join(root, '_bmad-output', 'tiers', 'spec-fix-receipt.json'), 'utf8'))
    expect(state.answers[0].pins.contracts[0].intent).toEqual([
      '## Intent',
      'Problem: The receipt misspells its total.',
      '## Boundaries & Constraints',
      'Never: change the price of a repair.'
    ])
    await git(root, 'add', '-A')
    await git(root, 'commit', '-q', '-m', 'Approve the spec')
    expect((await runTiers(root, ['verify', '--all'])).code).toBe(0)
    expect(await stopHook()).toEqual({})

    // The agent edits a line of the block only the person may change.
    const spec = path.join(root, artifacts, 'spec-fix-receipt.md')
    await fs.writeFile(spec, receiptSpec.replace('**Never:** change the price of a repair.', '**Never:** change the price of a repair without asking.'))
    const change = (file: string) =>
      `Spec: Fix the total on the receipt: intent "Never: change the price of a repair." → "Never: change the price of a repair without asking." (${file}:15)`
    const status = await runTiers(root, ['status', 'spec-fix-receipt'])
    expect({code: status.code, stdout: normalize(status.stdout)}).toEqual({
      code: 0,
      stdout: `spec-fix-receipt Spec: Fix the total on the receipt: verify, 0/3 rejections, approved <time> (stale: contracts changed since), run stale, next: verify; changed since approved (verify until a person approves it as it is): ${change(`${artifacts}/spec-fix-receipt.md`)}\n`
    })
    expect((await runTiers(root, ['verify', '--all'])).code).toBe(0)
    expect(await stopHook()).toEqual({
      systemMessage: `All automated criteria pass. For a human to check:\n  - Spec: Fix the total on the receipt.1: Given a paid repair, when the receipt prints, then its last line reads "Total"\nChanged since a person approved the slice ${holdRule}:\n  - ${change(spec)}`
    })
    const held = await runTiers(root, ['ci'])
    expect([held.code, held.stdout.split('\n').slice(0, 2)]).toEqual([
      1,
      [
        'MERGE HELD — 1 thing waits for a person or a fix:',
        `  spec-fix-receipt Spec: Fix the total on the receipt: changed since a person approved it, not confirmed by a person: ${change(spec)}`
      ]
    ])
    // The agent cannot confirm it; the person does.
    expect((await runTiers(root, ['respond', 'spec-fix-receipt', 'yes'])).code).toBe(1)
    const confirmed = await runTiers(root, ['respond', 'spec-fix-receipt', 'yes'], '', {}, {terminal: true})
    expect(confirmed.stdout).toContain(`Confirmed, as changed since a person approved the slice:\n  - ${change(`${artifacts}/spec-fix-receipt.md`)}\n`)
    expect(normalize((await runTiers(root, ['status', 'spec-fix-receipt'])).stdout)).toBe(
      'spec-fix-receipt Spec: Fix the total on the receipt: verify, 0/3 rejections, approved <time>, run passes, next: done\n'
    )
    expect((await runTiers(root, ['ci'])).code).toBe(0)
    expect(await stopHook()).toEqual({})
  })
})

describe('a slice lowered after a person approved it (in this process)', () => {
  it('a Kiro project whose tiers.json sets the default to auto: held, placed at the setting, until a person approves', async () => {
    const requirements = `# Requirements Document

## Requirements

### Requirement 1: Share a recipe

**User Story:** As a cook, I want to share a recipe with a friend.

#### Acceptance Criteria

1. WHEN the user clicks Share THEN the system SHALL create a link
`
    const root = await repository({'.kiro/specs/recipe-sharing/requirements.md': requirements, '.kiro/tiers.json': '{"test": {"command": "true"}}\n'})
    expect((await runTiersHere(root, ['verify', 'recipe-sharing'])).code).toBe(0)
    expect((await runTiersHere(root, ['respond', 'recipe-sharing', 'yes'])).code).toBe(0)
    expect((await runTiersHere(root, ['status'])).stdout).toMatch(
      /^recipe-sharing recipe-sharing: verify, 0\/3 rejections, approved \S+, run passes, next: done\n$/
    )

    // The contracts are as they were: only the setting lowers them.
    await fs.writeFile(path.join(root, '.kiro', 'tiers.json'), '{\n  "test": {"command": "true"},\n  "verification": {"default": "auto"}\n}\n')
    const changes = (file: string) => [`slice recipe-sharing: tier verify → auto (${file}:3)`, `Requirement 1: Share a recipe: tier verify → auto (${file}:3)`]
    const status = await runTiersHere(root, ['status'])
    expect(normalize(status.stdout)).toBe(
      `recipe-sharing recipe-sharing: verify, 0/3 rejections, approved <time>, run stale, next: verify; changed since approved (verify until a person approves it as it is): ${changes('.kiro/tiers.json').join('; ')}\n`
    )
    const contracts = await runTiersHere(root, ['contracts'])
    expect(contracts.stdout).toContain(
      `\n\nchanged since a person approved (2; each slice stays verify until a person approves it as it is):\n  slice recipe-sharing: tier verify → auto (.kiro/tiers.json:3)\n  recipe-sharing: Requirement 1: Share a recipe: tier verify → auto (.kiro/tiers.json:3)\n`
    )
    const setting = path.join(root, '.kiro', 'tiers.json')
    expect(JSON.parse((await runTiersHere(root, ['ci', '--json'])).stdout).holds).toEqual([
      {
        project: path.join(root, '.kiro'),
        slice: 'recipe-sharing',
        line: `recipe-sharing: changed since a person approved it, not confirmed by a person: ${changes(setting).join('; ')}`,
        since: 'approval'
      }
    ])
    // The setting changed the sources: the agent verifies again, and its checks pass.
    expect((await runTiersHere(root, ['verify', '--all'])).code).toBe(0)
    const hook = JSON.parse((await runTiersHere(root, ['stop-hook'], JSON.stringify({session_id: 'agent-1', cwd: root}))).stdout)
    expect(hook).toEqual({
      systemMessage: `All automated criteria pass.\nChanged since a person approved the slice ${holdRule}:\n${changes(setting)
        .map((line) => `  - ${line}`)
        .join('\n')}`
    })

    const confirmed = await runTiersHere(root, ['respond', 'recipe-sharing', 'yes'])
    expect(confirmed.stdout).toContain(
      `Confirmed, as changed since a person approved the slice:\n${changes('.kiro/tiers.json')
        .map((line) => `  - ${line}`)
        .join('\n')}\n`
    )
    expect(normalize((await runTiersHere(root, ['status'])).stdout)).toBe(
      'recipe-sharing recipe-sharing: auto, 0/3 rejections, approved <time>, run passes, next: done\n'
    )
    expect((await runTiersHere(root, ['ci'])).code).toBe(0)
  })

  it('tiers ci --base: a slice verify at the base and auto on the branch, never approved, holds the merge until a person approves it against the base', async () => {
    const root = await greenlight()
    await git(root, 'checkout', '-q', '-b', 'feature')
    await fs.writeFile(contractsFile(root), lowered)
    await git(root, 'commit', '-q', '-am', 'Set the greeting to auto')

    // Without the base nothing was approved to compare with: auto.
    expect((await runTiersHere(root, ['ci'])).code).toBe(0)
    const changes = attackLines(contractsFile(root))
    expect(await runTiersHere(root, ['ci', '--base', 'main'])).toEqual({
      code: 1,
      stdout: `MERGE HELD — 1 thing waits for a person or a fix:\n  S-01: changed since main, where it was verify, not confirmed by a person: ${changes.join('; ')}\n\n${closing}\nA slice changed since main is shown with its changes by tiers review <slice> --base main.\n`,
      stderr: ''
    })
    expect((await runTiersHere(root, ['verify', 'S-01'])).code).toBe(0)
    expect((await runTiersHere(root, ['checkpoint', 'S-01'])).stdout).toBe('Slice S-01: S-01 is auto: every contract is auto, so no checkpoint is needed.\n')
    const checkpoint = await runTiersHere(root, ['checkpoint', 'S-01', '--base', 'main'])
    expect(checkpoint.stdout).toBe(
      `ALL TESTS PASSING — Slice S-01: S-01\n\nChanged since main, where it was verify ${holdRule}:\n${attackLines('.greenlight/CONTRACTS.md')
        .map((line) => `  - ${line}`)
        .join('\n')}\n\nDoes the output match your intent?\n${choices}\n`
    )
    expect((await runTiersHere(root, ['review', 'S-01', '--base', 'main'], 'yes\n')).code).toBe(0)
    await git(root, 'add', '-A')
    await git(root, 'commit', '-q', '-m', 'Approve S-01 as auto')
    expect(await runTiersHere(root, ['ci', '--base', 'main'])).toEqual({
      code: 0,
      stdout: 'MERGE READY — every verify slice is approved for its contracts as they are (0 approved)\n',
      stderr: ''
    })
  })

  it('places a change to a BMAD spec’s frozen intent: a text added or moved at its line, one removed at the block, all removed at the spec', async () => {
    const artifacts = '_bmad-output/implementation-artifacts'
    const root = await repository({
      [`${artifacts}/spec-fix-receipt.md`]: receiptSpec,
      [`${artifacts}/1-1-print-a-receipt.md`]: '# Story 1.1: Print a receipt\n\n## Acceptance Criteria\n\n1. Given a paid repair, then a receipt prints\n',
      '_bmad-output/tiers.json': '{"test": {"command": "true"}}\n'
    })
    expect((await runTiersHere(root, ['verify', 'spec-fix-receipt'])).code).toBe(0)
    expect((await runTiersHere(root, ['respond', 'spec-fix-receipt', 'yes'])).code).toBe(0)
    const spec = path.join(root, artifacts, 'spec-fix-receipt.md')
    const changed = async () =>
      JSON.parse((await runTiersHere(root, ['status', 'spec-fix-receipt', '--json'])).stdout).slices[0].weakenings.map(
        (weakening: {line: string}) => weakening.line
      )
    const place = `${artifacts}/spec-fix-receipt.md`
    await fs.writeFile(spec, receiptSpec.replace('**Problem:** The receipt misspells its total.\n\n', ''))
    expect(await changed()).toEqual([`Spec: Fix the total on the receipt: intent "Problem: The receipt misspells its total." → removed (${place}:7)`])
    await fs.writeFile(spec, receiptSpec.replace('## Boundaries & Constraints\n', '## Boundaries & Constraints\n\n**Always:** round the total.\n'))
    expect(await changed()).toEqual([`Spec: Fix the total on the receipt: intent without "Always: round the total." → added (${place}:15)`])
    await fs.writeFile(
      spec,
      receiptSpec
        .replace('## Intent\n\n**Problem:** The receipt misspells its total.\n\n', '')
        .replace('</frozen', '## Intent\n\n**Problem:** The receipt misspells its total.\n\n</frozen')
    )
    expect(await changed()).toEqual([
      `Spec: Fix the total on the receipt: intent "## Intent" → moved (${place}:13)`,
      `Spec: Fix the total on the receipt: intent "Problem: The receipt misspells its total." → moved (${place}:15)`
    ])
    await fs.writeFile(spec, receiptSpec.replace(/<frozen-after-approval[\s\S]*<\/frozen-after-approval>\n/, ''))
    expect(await changed()).toEqual(
      ['## Intent', 'Problem: The receipt misspells its total.', '## Boundaries & Constraints', 'Never: change the price of a repair.'].map(
        (text) => `Spec: Fix the total on the receipt: intent ${JSON.stringify(text)} → removed (${place}:1)`
      )
    )
    // A block left unclosed holds the merge at its tag.
    await fs.writeFile(spec, receiptSpec.replace('</frozen-after-approval>\n', ''))
    const ci = await runTiersHere(root, ['ci'])
    expect([ci.code, ci.stdout.split('\n')[1]]).toEqual([
      1,
      `  ${spec}:7: Unexpected \`<frozen-after-approval>\` without its closing tag, expected \`</frozen-after-approval>\` on a line of its own`
    ])
  })

  it('places each change where the project says it now: the graph entry of a retired check, the line of a reworded criterion', async () => {
    const graph = (tier: string) =>
      `{\n  "slices": {\n    "S-01": {\n      "name": "Hello",\n      "contracts": ["C-01"],\n      "tier": "${tier}"\n    }\n  }\n}\n`
    const contracts = (criterion: string) => `# Contracts\n\n### C-01: Greeting\n\n**Acceptance Criteria:**\n- ${criterion}\n`
    const root = await repository({
      '.greenlight/GRAPH.json': graph('verify — human check: The page reads well'),
      '.greenlight/CONTRACTS.md': contracts('The greeting names the person'),
      '.greenlight/config.json': '{"test": {"command": "true"}}\n'
    })
    expect((await runTiersHere(root, ['verify', 'S-01'])).code).toBe(0)
    expect((await runTiersHere(root, ['respond', 'S-01', 'yes'])).code).toBe(0)
    await fs.writeFile(path.join(root, '.greenlight', 'GRAPH.json'), graph('retired: the end-to-end suite covers it'))
    await fs.writeFile(contractsFile(root), contracts('The greeting names someone'))
    const data = JSON.parse((await runTiersHere(root, ['status', '--json'])).stdout)
    expect(data.slices[0]).toMatchObject({tier: 'verify', next: 'verify'})
    expect(data.slices[0].weakenings.map((weakening: {line: string}) => weakening.line)).toEqual([
      'slice S-01 Hello: tier verify → auto (.greenlight/GRAPH.json:3)',
      'slice S-01 Hello: human check "The page reads well" → retired: "retired: the end-to-end suite covers it" (.greenlight/GRAPH.json:3)',
      'C-01 Greeting: tier verify → auto (.greenlight/GRAPH.json:3)',
      'C-01 Greeting: acceptance criterion "The greeting names the person" → "The greeting names someone" (.greenlight/CONTRACTS.md:6)'
    ])
  })

  it('asks nothing new for a change that raises the bar: a criterion added is a stale approval, listing no change', async () => {
    const root = await greenlight()
    expect((await runTiersHere(root, ['verify', 'S-01'])).code).toBe(0)
    expect((await runTiersHere(root, ['respond', 'S-01', 'yes'])).code).toBe(0)
    await fs.writeFile(contractsFile(root), `${greeting}- The greeting waves\n`)
    expect(normalize((await runTiersHere(root, ['status'])).stdout)).toBe(
      'S-01 S-01: verify, 0/3 rejections, approved <time> (stale: contracts changed since), run stale, next: verify\n'
    )
    expect((await runTiersHere(root, ['ci'])).stdout).toContain('  S-01: verify, approved for other contracts: they changed since (')
  })
})
