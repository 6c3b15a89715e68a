/**
 * `tiers lint` (through the cli's `main`) and `remark` with the preset on BMAD and GSD
 * folders: the lint reads what the gate reads as a unit, and nothing else.
 * BMAD's planning documents (epics with Given/When/Then stories, an
 * architecture with decision records), a story's Dev Notes (an `AC4`
 * heading, a `**Verification:**` line) and GSD's roadmap, context and
 * research hold no contract; a story the gate reports (one without
 * acceptance criteria) is reported.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, linkedProject, remarkBin, runProcess} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const preset = 'remark-preset-lint-verification-tiers'

/** Neither bin may be forced into or out of colours, nor `tiers lint` into the github format, by the environment. */
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined, GITHUB_ACTIONS: undefined}

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const epics = `# Garden Log - Epic Breakdown

## Epic 1: Plantings

### Story 1.1: Add a planting

As a gardener, I want to add a planting, so that I remember what grows where.

**Acceptance Criteria:**

**Given** an empty bed
**When** I add tomatoes to it
**Then** the bed lists tomatoes

### Story 1.2: Water reminder

**Acceptance Criteria:**

**Given** a bed watered three days ago
**When** the morning comes
**Then** the reminder works as expected
`

const architecture = `# Architecture Decision Document

## Core Decisions

### ADR-001: Keep plantings in SQLite

We keep plantings in one SQLite file.

### ADR-002: Send reminders by e-mail

**Verification:** a manual check of the inbox

Reminders go out at seven.
`

/** A story with its criteria, and Dev Notes holding an `AC4` heading and a Verification line. */
const story = `# Story 1.2: Water reminder

Status: review

## Story

As a gardener, I want a reminder, so that nothing dries out.

## Acceptance Criteria

1. Given a bed watered three days ago, when the morning comes, then the gardener gets one e-mail naming the bed

## Tasks / Subtasks

- [x] Task 1: Send the e-mail (AC: 1)

## Dev Notes

### AC4 — Quiet hours

No e-mail leaves between ten at night and seven.

**Verification:** Run the reminder job at eleven and see that nothing goes out.
`

/** A story without acceptance criteria: the gate reports it. */
const storyWithout = `# Story 2.1: Harvest log

Status: ready-for-dev

## Dev Notes

### AC1 — Weights

**Verification:** Weigh a basket.
`

const roadmap = `# Roadmap: Reading Room

## Phases

### Phase 1: Shelf Map

**Goal**: Readers find a book on the shelf map

**Success Criteria** (what must be TRUE):
  1. The map shows each shelf at its place

Plans:
- [ ] 01-01-PLAN.md
`

const context = `# Phase 1: Shelf Map - Context

## Implementation Decisions

### D-01: Draw shelves as boxes

**Verification:** eyeball it
`

const research = `# Phase 1: Shelf Map - Research

### C-01: Canvas or SVG

**Verification:** sometimes

**Acceptance Criteria:**
- The drawing works as expected
`

const files = {
  '_bmad-output/planning-artifacts/epics.md': epics,
  '_bmad-output/planning-artifacts/architecture.md': architecture,
  '_bmad-output/implementation-artifacts/1-2-water-reminder.md': story,
  '_bmad-output/implementation-artifacts/sprint-status.yaml': 'development_status:\n  1-2-water-reminder: review\n',
  '.planning/ROADMAP.md': roadmap,
  '.planning/phases/01-shelf-map/01-CONTEXT.md': context,
  '.planning/phases/01-shelf-map/01-RESEARCH.md': research
}

describe('tiers lint on BMAD and GSD folders', {timeout: 120_000}, () => {
  it('reports nothing in planning documents, Dev Notes, a roadmap, a context or research; remark with the preset neither', async () => {
    const cwd = await linkedProject(folders, 'verification-tiers-lint-tools-', files)
    const [tiers, remark] = await Promise.all([
      runTiers(cwd, ['lint', '--frail', '_bmad-output', '.planning'], '', env),
      runProcess(remarkBin, ['--use', preset, '--frail', '--no-color', '--no-stdout', '--quiet', '_bmad-output', '.planning'], {cwd, env})
    ])
    expect(tiers).toEqual({code: 0, stdout: '', stderr: ''})
    expect({code: remark.code, stderr: remark.stderr}).toEqual({code: 0, stderr: ''})
  })

  it('reports a story without acceptance criteria, in the gate’s words, and only that', async () => {
    const cwd = await linkedProject(folders, 'verification-tiers-lint-tools-', {
      ...files,
      '_bmad-output/implementation-artifacts/2-1-harvest-log.md': storyWithout
    })
    const [tiers, frail, remark] = await Promise.all([
      runTiers(cwd, ['lint', '--no-color', '.'], '', env),
      runTiers(cwd, ['lint', '--frail', '--no-color', '.'], '', env),
      runProcess(remarkBin, ['--use', preset, '--no-color', '--no-stdout', '--quiet', '.'], {cwd, env})
    ])
    const report = [
      '_bmad-output/implementation-artifacts/2-1-harvest-log.md',
      '1:1-1:25 warning Unexpected story without acceptance criteria, expected `## Acceptance Criteria` with numbered Given/When/Then items verify-tier-criteria remark-lint',
      '',
      '⚠ 1 warning',
      ''
    ].join('\n')
    expect(tiers).toEqual({code: 0, stdout: '', stderr: report})
    expect(frail).toEqual({code: 1, stdout: '', stderr: report})
    expect({code: remark.code, stderr: remark.stderr}).toEqual({code: 0, stderr: report})
  })
})
