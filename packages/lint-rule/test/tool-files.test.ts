/**
 * The preset's rules on spec-kit, OpenSpec and Kiro files: each file is read
 * as its tool's reader reads it (found by its path), so the same messages
 * point at the user's text.
 */
import remarkLintAcceptanceCriteriaCount from 'remark-lint-acceptance-criteria-count'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {describe, expect, it} from 'vitest'
import {lintAt} from '../../../test/helpers/lint-at.js'

const lint = (path: string, value: string) => lintAt(path, value, [remarkPresetLintVerificationTiers])

describe('the preset on tool files', () => {
  it('spec-kit: a vague scenario, an invalid tier; `manual` reads as `verify`', async () => {
    const spec = `# Feature Specification: Tool library

## User Scenarios & Testing

### User Story 1 - Borrow a tool (Priority: P1)

**Verification:** sometimes

**Independent Test**: Borrow a drill at the desk.

**Acceptance Scenarios**:

1. **Given** a drill on the shelf, **When** a member borrows it, **Then** the loan works as expected

### User Story 2 - Return a tool (Priority: P2)

**Verification:** manual

**Independent Test**: Return the drill.

**Acceptance Scenarios**:

1. **Given** a lent drill, **When** it comes back, **Then** the shelf lists it again
`
    expect(await lint('specs/001-tool-library/spec.md', spec)).toEqual([
      '7:19-7:28: Unexpected verification tier `sometimes` on User Story 1 - Borrow a tool, expected `auto` or `verify` (verification-tier)',
      '13:4-13:101: Unexpected vague criterion `works as expected` in User Story 1 - Borrow a tool, expected an observable outcome or a `-- verified by:` check (acceptance-criteria-specific)'
    ])
    // Elsewhere the stories are read as Greenlight contracts: `manual` is invalid there, the scenarios no criteria.
    expect(await lint('docs/tool-library.md', spec)).toContain(
      '17:19-17:25: Unexpected verification tier `manual` on User Story 2 - Return a tool (Priority: P2), expected `auto` or `verify` (verification-tier)'
    )
  })

  it('reads no contract in the other files of a tool\'s folders: a plan, a design, an archived change', async () => {
    const notes = '# Plan\n\n### DD-001: Keep loans in SQLite\n\nWe chose SQLite.\n\n### R-1: Risk\n\n**Verification:** full regression pass\n'
    for (const path of ['specs/001-tool-library/plan.md', 'specs/001-tool-library/research.md', '.kiro/specs/loans/design.md', 'openspec/changes/archive/2025-01-01-loans/specs/loans/spec.md', 'openspec/project.md']) {
      expect([path, await lint(path, notes)]).toEqual([path, []])
    }
    // Outside a tool's folders the same text holds two contracts with nothing to check, and an invalid tier.
    expect((await lint('docs/plan.md', notes)).length).toBe(3)
  })

  it('a vague word in a condition is no vague criterion: only the outcome is read', async () => {
    const value = '# Requirements Document\n\n### Requirement 1: Fees\n\n#### Acceptance Criteria\n\n1. WHEN late fees are implemented THEN the system SHALL show the fee on the loan\n2. WHEN a loan is late THEN the fee SHALL work as expected\n'
    expect(await lint('.kiro/specs/fees/requirements.md', value)).toEqual([
      '8:4-8:59: Unexpected vague criterion `work as expected` in Requirement 1: Fees, expected an observable outcome or a `-- verified by:` check (acceptance-criteria-specific)'
    ])
    // An OpenSpec scenario reads `Name: WHEN …; THEN …`: its condition is a clause of it.
    const delta = '## ADDED Requirements\n\n### Requirement: Fees\nThe system SHALL charge fees.\n\n#### Scenario: Fee shown\n- **WHEN** late fees are implemented\n- **THEN** the loan shows its fee\n'
    expect(await lint('openspec/changes/add-fees/specs/fees/spec.md', delta)).toEqual([])
  })

  it('Kiro: a requirement with nothing to check; its criteria counted against a max the user sets, never the default', async () => {
    const items = Array.from({length: 6}, (_, index) => `${index + 1}. WHEN a member asks THEN the system SHALL answer ${index + 1}`).join('\n')
    const value = `# Requirements Document\n\n### Requirement 1: Answers\n\n#### Acceptance Criteria\n\n${items}\n\n### Requirement 2: Opening hours\n\nThe library opens at nine.\n`
    expect(await lint('.kiro/specs/answers/requirements.md', value)).toEqual([
      '14:1-14:33: Unexpected contract Requirement 2: Opening hours without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` (verify-tier-criteria)'
    ])
    expect(await lintAt('.kiro/specs/answers/requirements.md', value, [[remarkLintAcceptanceCriteriaCount, {max: 5}]])).toEqual([
      '12:4-12:53: Unexpected 6 acceptance criteria on Requirement 1: Answers, expected at most 5 (acceptance-criteria-count)'
    ])
  })

  it('OpenSpec: an invalid tier at its value, `manual` as `verify`, and what was removed is not linted', async () => {
    const value = `## ADDED Requirements

### Requirement: Late fees

**Verification:** someday

#### Scenario: One day late

- **WHEN** a tool comes back a day late
- **THEN** the member owes one fee

### Requirement: Fee waiver

- **Verification:** manual

#### Scenario: Waiver

- **WHEN** the desk waives a fee
- **THEN** the member owes nothing

## REMOVED Requirements

### Requirement: Paper receipts
`
    expect(await lint('openspec/changes/add-fees/specs/fees/spec.md', value)).toEqual([
      '5:19-5:26: Unexpected verification tier `someday` on fees: Late fees, expected `auto` or `verify` (verification-tier)'
    ])
  })
})
