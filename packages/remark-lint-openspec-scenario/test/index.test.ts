import remarkLintOpenspecScenario from 'remark-lint-openspec-scenario'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'
import {lintAt} from '../../../test/helpers/lint-at.js'

const {url} = ruleHarness('openspec-scenario', remarkLintOpenspecScenario)
const lint = (path: string, value: string) => lintAt(path, value, [remarkLintOpenspecScenario])

const delta = `## ADDED Requirements

### Requirement: Hold a book

#### Scenario: Hold an available book

- **WHEN** a member holds a book on the shelf
- **THEN** the book is kept at the desk for three days

### Requirement: Cancel a hold

#### Scenario: Cancel

- the hold is gone

## REMOVED Requirements

### Requirement: Paper slips
`

describe('remark-lint-openspec-scenario', () => {
  it('reports a scenario without WHEN and THEN, at its heading, in the reader’s words', async () => {
    expect(await lint('openspec/changes/add-holds/specs/holds/spec.md', delta)).toEqual([
      '12:1-12:22: Unexpected scenario "Cancel" without WHEN or THEN, expected `- **WHEN** …` and `- **THEN** …` lines (openspec-scenario)'
    ])
  })

  it('reports a requirement without a scenario in a change and in a capability’s spec; a REMOVED one needs none', async () => {
    const value = '## MODIFIED Requirements\n\n### Requirement: Renew\n\nMembers renew once.\n'
    expect(await lint('/repo/openspec/changes/renew/specs/loans/spec.md', value)).toEqual([
      '3:1-3:23: Unexpected MODIFIED requirement "Renew" without a scenario (openspec validate: MODIFIED "Renew" must include at least one scenario), expected at least one `#### Scenario: …` block with WHEN and THEN lines (openspec-scenario)'
    ])
    expect(await lint('openspec/specs/loans/spec.md', value.replace('MODIFIED Requirements', 'Requirements'))).toEqual([
      '3:1-3:23: Unexpected requirement "Renew" without a scenario (openspec validate: Requirement must have at least one scenario), expected at least one `#### Scenario: …` block with WHEN and THEN lines (openspec-scenario)'
    ])
  })

  it('reads no other file: an archived change, a Greenlight contract file, a spec elsewhere', async () => {
    for (const path of ['openspec/changes/archive/2024-01-01-renew/specs/loans/spec.md', 'CONTRACTS.md', 'docs/specs/loans/spec.md']) {
      expect(await lint(path, delta)).toEqual([])
    }
  })

  it('gives messages a docs url', () => {
    expect(url).toMatch(/remark-lint-openspec-scenario#readme$/)
  })
})
