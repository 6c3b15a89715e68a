/**
 * No unit of a spec-driven tool is hidden silently. For any document made
 * of a prefix (markdown, HTML lines, blocks left unclosed, lists, quotes,
 * indentation) and then one unit under a heading behind any markup on its
 * line, the tool's reader either reads that unit with its criterion, or
 * names its line among its problems: a spec-kit user story, an OpenSpec
 * requirement of a change, a Kiro requirement, a GSD roadmap phase, a
 * BMAD story (v6 and v4) and its acceptance criteria.
 *
 * Seeds are fixed, so a run is reproducible. CI runs 200 documents per
 * tool; `FUZZ_SCALE` multiplies them (`npm run fuzz`), `FUZZ_SEED` picks
 * other seeds.
 */
import {asStory, parseMarkdownText, readBmadStory, readDeltaSpec, readGsdRoadmap, readRequirements, readStories} from '@verification-tiers/spec-tools'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import {describe, expect, it} from 'vitest'
import {linePrefix, prefix} from './fuzz/hidden-contract.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const seed = process.env.FUZZ_SEED === undefined ? 36 : Number(process.env.FUZZ_SEED)
const numRuns = Math.max(1, Math.round(200 * scale))

const criterion = 'the saved card is charged once'

/** How one tool writes a unit: its heading's text, the body under it, and how its reader reads a document. */
interface UnitShape {
  headings: Arbitrary<string>
  /** The depth of the unit's heading, as its tool writes it: 2 to 4 unless given. */
  depths?: Arbitrary<number>
  /** What the document holds before the prefix (the section a unit lives in). */
  opening: string
  body: string
  /** Whether the unit at `line` was read with the criterion, and whether some problem names `line`. */
  outcome(value: string, line: number): {read: boolean; reported: boolean}
}

const shapes: Record<string, UnitShape> = {
  'spec-kit user story': {
    headings: fc.constantFrom('User Story 2 - Pay (Priority: P1)', 'User Story 3 (Priority: P2)', '用户故事 4 - 付款（优先级：P1）', 'Story Two - Pay'),
    opening: '# Feature Specification: Checkout\n\n## User Scenarios & Testing\n\n',
    body: `**Acceptance Scenarios**:\n\n1. **Given** a saved card, **When** the buyer pays, **Then** ${criterion}.\n`,
    outcome(value, line) {
      const {contracts, problems} = readStories('specs/001-checkout/spec.md', value)
      return {
        read: contracts.some(
          (contract) => contract.headingPosition.start.line === line && asStory(contract).criteria.some((item) => item.text.includes(criterion))
        ),
        reported: problems.some((problem) => problem.place.start.line === line)
      }
    }
  },
  'OpenSpec requirement': {
    headings: fc.constantFrom('Requirement: Pay with a saved card', 'Requirement:Pay', 'requirement: Pay'),
    opening: '## ADDED Requirements\n\n',
    body: `The system SHALL charge a saved card.\n\n#### Scenario: Pay\n- **WHEN** the buyer pays\n- **THEN** ${criterion}\n`,
    outcome(value, line) {
      const file = 'openspec/changes/add-pay/specs/checkout/spec.md'
      const {requirements, problems} = readDeltaSpec(file, value, parseMarkdownText(value))
      return {
        read: requirements.some(
          (requirement) => requirement.headingPosition.start.line === line && requirement.scenarios.some((item) => item.text.includes(criterion))
        ),
        reported: problems.some((problem) => problem.line === line)
      }
    }
  },
  'Kiro requirement': {
    headings: fc.constantFrom('Requirement 2: Pay', 'Requirement 3', 'REQ-4: Pay', '需求 5：付款'),
    opening: '# Requirements Document\n\n',
    body: `#### Acceptance Criteria\n\n1. WHEN the buyer pays THEN ${criterion} SHALL hold\n`,
    outcome(value, line) {
      const {contracts, problems} = readRequirements('.kiro/specs/checkout/requirements.md', value, {slice: 'checkout', defaultTier: 'verify'})
      return {
        read: contracts.some(({contract}) => contract.headingPosition.start.line === line && contract.criteria.some((item) => item.text.includes(criterion))),
        reported: problems.some((problem) => problem.line === line)
      }
    }
  },
  'GSD roadmap phase': {
    headings: fc.constantFrom('Phase 2: Pay', 'Phase 2.1: Pay (INSERTED)', 'Phase CK-03: Pay', 'Phase 12A: Pay'),
    opening: '# Roadmap: Checkout\n\n## Phase Details\n\n',
    body: `**Goal**: Pay\n**Success Criteria** (what must be TRUE):\n  1. ${criterion}\n`,
    outcome(value, line) {
      const {phases, problems} = readGsdRoadmap('.planning/ROADMAP.md', value)
      return {
        read: [...phases.values()].some((phase) => phase.headingPosition.start.line === line && phase.criteria.some((item) => item.text.includes(criterion))),
        reported: problems.some((problem) => problem.line === line)
      }
    }
  },
  'BMAD story': {
    headings: fc.constantFrom('Story 2.1: Pay', 'Story 1.2 - Pay', 'Story se1-3: Pay', 'Story 4.5'),
    depths: fc.constant(1),
    opening: '',
    body: `Status: Draft\n\n## Acceptance Criteria\n\n1. **Given** a saved card, **When** the buyer pays, **Then** ${criterion}\n`,
    outcome: bmadOutcome((story, line) => story.contract.headingPosition.start.line === line)
  },
  'BMAD acceptance criteria heading': {
    headings: fc.constantFrom('Acceptance Criteria', 'Acceptance Criteria (v2)', 'acceptance criteria'),
    depths: fc.constant(2),
    opening: '# Story 2.1: Pay\n\n## Status\n\nApproved\n\n',
    body: `1. Given a saved card, when the buyer pays, then ${criterion}\n`,
    outcome: bmadOutcome(() => true)
  }
}

/** How a BMAD story file (v6's and v4's are read alike) is read: its story, with the criterion, at `line` by `at`. */
function bmadOutcome(at: (story: NonNullable<ReturnType<typeof readBmadStory>['story']>, line: number) => boolean): UnitShape['outcome'] {
  return (value, line) => {
    const {story, problems} = readBmadStory('docs/stories/2.1.story.md', value, {slice: '2.1.story', defaultTier: 'verify'})
    return {
      read: story !== null && at(story, line) && story.contract.criteria.some((item) => item.text.includes(criterion)),
      reported: problems.some((problem) => problem.line === line)
    }
  }
}

/** A document of `shape`: its opening, any prefix, then the unit's heading behind any markup, then its body. */
function documents(shape: UnitShape) {
  return fc.tuple(prefix, linePrefix, shape.depths ?? fc.constantFrom(2, 3, 3, 3, 4), shape.headings).map(([start, before, depth, heading]) => {
    const head = shape.opening + start
    return {value: `${head}${before}${'#'.repeat(depth)} ${heading}\n\n${shape.body}`, line: head.split('\n').length}
  })
}

describe('no unit of a spec-driven tool is hidden silently', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`a ${name} after any prefix and behind any markup is read with its criterion, or its line is named (${numRuns} documents)`, () => {
      fc.assert(
        fc.property(documents(shape), ({value, line}) => {
          const {read, reported} = shape.outcome(value, line)
          return read || reported
        }),
        {seed, numRuns}
      )
    })

    it(`has ${name} documents of each kind: read, and hidden by markup`, () => {
      // A property that holds because every unit is read, or every one hidden, tests little.
      const outcomes = fc.sample(documents(shape), {seed, numRuns: 300}).map(({value, line}) => shape.outcome(value, line))
      expect(outcomes.filter((each) => each.read).length).toBeGreaterThan(30)
      expect(outcomes.filter((each) => !each.read && each.reported).length).toBeGreaterThan(30)
    })
  }
})
