/**
 * The preset's rules on spec-kit, OpenSpec, Kiro, GSD and BMAD files: each file is read
 * as its tool's reader reads it (found by its path), so the same messages
 * point at the user's text.
 */
import remarkLintAcceptanceCriteriaCount from 'remark-lint-acceptance-criteria-count'
import remarkLintVerifyTierCriteria from 'remark-lint-verify-tier-criteria'
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

  it("reads no contract in the other files of a tool's folders: a plan, a design, an archived change", async () => {
    const notes = '# Plan\n\n### DD-001: Keep loans in SQLite\n\nWe chose SQLite.\n\n### R-1: Risk\n\n**Verification:** full regression pass\n'
    for (const path of [
      'specs/001-tool-library/plan.md',
      'specs/001-tool-library/research.md',
      '.kiro/specs/loans/design.md',
      'openspec/changes/archive/2025-01-01-loans/specs/loans/spec.md',
      'openspec/project.md'
    ]) {
      expect([path, await lint(path, notes)]).toEqual([path, []])
    }
    // Outside a tool's folders the same text holds two contracts with nothing to check, and an invalid tier.
    expect((await lint('docs/plan.md', notes)).length).toBe(3)
  })

  it('a vague word in a condition is no vague criterion: only the outcome is read', async () => {
    const value =
      '# Requirements Document\n\n### Requirement 1: Fees\n\n#### Acceptance Criteria\n\n1. WHEN late fees are implemented THEN the system SHALL show the fee on the loan\n2. WHEN a loan is late THEN the fee SHALL work as expected\n'
    expect(await lint('.kiro/specs/fees/requirements.md', value)).toEqual([
      '8:4-8:59: Unexpected vague criterion `work as expected` in Requirement 1: Fees, expected an observable outcome or a `-- verified by:` check (acceptance-criteria-specific)'
    ])
    // An OpenSpec scenario reads `Name: WHEN …; THEN …`: its condition is a clause of it.
    const delta =
      '## ADDED Requirements\n\n### Requirement: Fees\nThe system SHALL charge fees.\n\n#### Scenario: Fee shown\n- **WHEN** late fees are implemented\n- **THEN** the loan shows its fee\n'
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

describe('the preset on BMAD and GSD files', () => {
  // BMAD's planning documents: stories with Given/When/Then and decision records, headed as contracts are elsewhere.
  const epics = `# Garden Log - Epic Breakdown

## Epic 1: Plantings

### Story 1.1: Add a planting

As a gardener, I want to add a planting, so that I remember what grows where.

**Acceptance Criteria:**

**Given** an empty bed
**When** I add tomatoes to it
**Then** the bed lists tomatoes
`
  const architecture = `# Architecture Decision Document

### ADR-001: Keep plantings in SQLite

We keep plantings in one SQLite file.

### ADR-002: Send reminders by e-mail

**Verification:** a manual check of the inbox
`
  // A story whose Dev Notes hold an \`AC4\` heading and a Verification line: notes for the developer, not the story's criteria.
  const story = (criteria: string) => `# Story 1.2: Water reminder

Status: review

## Story

As a gardener, I want a reminder, so that nothing dries out.
${criteria}
## Dev Notes

### AC4 — Quiet hours

No e-mail leaves between ten at night and seven.

**Verification:** Run the reminder job at eleven and see that nothing goes out.
`
  const criteria =
    '\n## Acceptance Criteria\n\n1. Given a bed watered three days ago, when the morning comes, then the gardener gets one e-mail naming the bed\n'

  it("BMAD: no contract in the planning documents, nor in a story's Dev Notes", async () => {
    for (const [path, value] of [
      ['_bmad-output/planning-artifacts/epics.md', epics],
      ['_bmad-output/planning-artifacts/architecture.md', architecture],
      ['_bmad-output/implementation-artifacts/deferred-work.md', architecture],
      ['_bmad-output/implementation-artifacts/stories/1-2-water-reminder.md', architecture],
      ['_bmad-output/implementation-artifacts/1-2-water-reminder.md', story(criteria)],
      // v4's default story folder, its subfolders and its other files, as the gate reads them.
      ['docs/stories/1.2.water-reminder.story.md', story(criteria)],
      ['docs/stories/epic-1/1.2.water-reminder.story.md', story(criteria)],
      ['docs/stories/STORIES-INDEX.md', architecture]
    ]) {
      expect([path, await lint(path!, value!)]).toEqual([path, []])
    }
    // Outside BMAD's folder the same texts hold contracts, with problems.
    expect(await lint('docs/epics.md', epics)).toContain(
      '5:1-5:30: Unexpected contract Story 1.1: Add a planting without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` (verify-tier-criteria)'
    )
    expect(await lint('docs/1-2-water-reminder.md', story(criteria))).toEqual([
      '19:19-19:80: Unexpected verification tier `Run the reminder job at eleven and see that nothing goes out.` on AC-4 Quiet hours, expected `auto` or `verify` (verification-tier)',
      '19:1-19:80: Unexpected verify contract AC-4 Quiet hours without acceptance criteria or steps, expected at least one criterion or step (verify-tier-criteria)'
    ])
  })

  it("BMAD: a story without criteria in the gate's words, a vague criterion; a spec without criteria is a one-shot change", async () => {
    expect(await lint('_bmad-output/implementation-artifacts/1-2-water-reminder.md', story(''))).toEqual([
      '1:1-1:28: Unexpected story without acceptance criteria, expected `## Acceptance Criteria` with numbered Given/When/Then items (verify-tier-criteria)'
    ])
    expect(
      await lint(
        '_bmad-output/implementation-artifacts/1-2-water-reminder.md',
        story(criteria.replace('gets one e-mail naming the bed', 'reminder works as expected'))
      )
    ).toEqual([
      '11:1-11:108: Unexpected vague criterion `works as expected` in Story 1.2: Water reminder, expected an observable outcome or a `-- verified by:` check (acceptance-criteria-specific)'
    ])
    // `ignoreDefaultTier` leaves a unit that states no tier alone.
    expect(
      await lintAt('_bmad-output/implementation-artifacts/1-2-water-reminder.md', story(''), [[remarkLintVerifyTierCriteria, {ignoreDefaultTier: true}]])
    ).toEqual([])
    const spec = (criteria: string) =>
      `---\ntitle: 'Fix the bed label'\nstatus: 'review'\n---\n\n# Fix the bed label\n${criteria}\n**Execution:**\n\n- [ ] Change the label\n\n### C-01: Label\n\n**Verification:** someday\n`
    expect(await lint('_bmad-output/implementation-artifacts/spec-fix-bed-label.md', spec(''))).toEqual([])
    expect(
      await lint('_bmad-output/implementation-artifacts/spec-fix-bed-label.md', spec('\n**Acceptance Criteria:**\n\n- The label works as expected\n'))
    ).toEqual([
      '10:1-10:30: Unexpected vague criterion `works as expected` in Spec: Fix the bed label, expected an observable outcome or a `-- verified by:` check (acceptance-criteria-specific)'
    ])
  })

  it("GSD: no contract in the roadmap, a phase's context or research", async () => {
    const roadmap =
      '# Roadmap\n\n### Phase 1: Shelf\n\n**Goal**: Readers find a book on the shelf map\n\n**Success Criteria** (what must be TRUE):\n  1. The map shows each shelf at its place\n'
    const notes =
      '# Phase 1: Shelf - Research\n\n### D-01: Draw shelves as boxes\n\n**Verification:** eyeball it\n\n**Acceptance Criteria:**\n- It works as expected\n'
    for (const [path, value] of [
      ['.planning/ROADMAP.md', roadmap],
      ['.planning/phases/01-shelf/01-CONTEXT.md', notes],
      ['.planning/phases/01-shelf/01-RESEARCH.md', notes]
    ]) {
      expect([path, await lint(path!, value!)]).toEqual([path, []])
    }
    expect((await lint('docs/01-RESEARCH.md', notes)).length).toBe(2)
  })
})
