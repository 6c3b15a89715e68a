import path from 'node:path'
import {labelFor, labelledField, readTier} from '@verification-tiers/contracts'
import type {ContractAnalysis, ContractField} from '@verification-tiers/contracts'
import {isBmadCompanion, isBmadSpec, isBmadStory, readBmadSpec, readBmadStory} from './bmad.js'
import {readBugfix} from './kiro-bugfix.js'
import {readRequirements} from './kiro-requirements.js'
import {parseMarkdownText} from './markdown.js'
import {readGsdVerification, verificationProblems} from './gsd.js'
import {readDeltaSpec, toContract, verified} from './openspec-delta.js'
import type {DeltaExpectation, TierStatement} from './openspec-delta.js'
import {asStory, readStories} from './speckit-parse.js'
import type {FileProblem} from './types.js'

/** A spec-driven tool whose files are read as contracts. */
export type ToolName = 'spec-kit' | 'openspec' | 'kiro' | 'gsd' | 'bmad'

/** One tool's file read as contracts, as the lint rules see it. */
export interface ToolFileReading {
  tool: ToolName
  /** Its units (user stories, requirements) as contracts, with their criteria at the user's text. */
  analysis: ContractAnalysis
  /** What the tool's reader saw and did not read, each with its line (as the gate reports them). */
  problems: FileProblem[]
  /** OpenSpec: requirements without a scenario and scenarios without WHEN or THEN, at their headings. */
  expectations: DeltaExpectation[]
}

/** A file shape of a tool: which paths it is, and how one is read. */
interface FileDialect {
  tool: ToolName
  /** Matched against the path with `/` separators. */
  path: RegExp
  read(file: string, text: string, match: RegExpExecArray): ToolFileReading
}

/** Every tool file shape, in the order paths are tried. */
export const fileDialects: readonly FileDialect[] = [
  {
    // A change's delta spec: `openspec/changes/<change>/specs/<capability>/spec.md` (an archived change is under `changes/archive/`, not read).
    tool: 'openspec',
    path: /(?:^|\/)openspec\/changes\/(?!archive\/)([^/]+)\/specs\/((?:[^/]+\/)*?[^/]+)\/spec\.md$/,
    read: (file, text, match) => readOpenSpecFile(file, text, match[1], match[2])
  },
  {
    // A capability's current spec: `openspec/specs/<capability>/spec.md`.
    tool: 'openspec',
    path: /(?:^|\/)openspec\/specs\/([^/]+)\/spec\.md$/,
    read: (file, text, match) => readOpenSpecFile(file, text, null, match[1])
  },
  {
    // A spec-kit feature: `specs/NNN-name/spec.md`.
    tool: 'spec-kit',
    path: /(?:^|\/)specs\/\d+-[^/]+\/spec\.md$/,
    read(file, text) {
      const {contracts, problems} = readStories(file, text)
      // `manual` reads as `verify` in a tool's file, as the gate reads it: no invalid tier.
      const stories = contracts.map(asStory).map((story) => ({
        ...story,
        fields: story.fields.map((field) => (field.key === 'verification' && /^manual$/i.test(readTier(field.value)) ? {...field, value: 'verify'} : field))
      }))
      return {tool: 'spec-kit', analysis: {contracts: stories, problems}, problems: [], expectations: []}
    }
  },
  {
    // A Kiro bugfix spec: `.kiro/specs/<feature>/bugfix.md`, its expected and unchanged behaviors.
    tool: 'kiro',
    path: /(?:^|\/)\.kiro\/specs\/([^/]+)\/bugfix\.md$/,
    read(file, text, match) {
      const {contracts, problems} = readBugfix(file, text, {slice: match[1], defaultTier: 'verify'})
      return {tool: 'kiro', analysis: {contracts: contracts.map((each) => each.contract), problems: []}, problems, expectations: []}
    }
  },
  {
    // A GSD phase's verification: `.planning/phases/<NN-name>/NN-VERIFICATION.md` (in a workstream or project folder too). Its human checks are steps the gate asks; the lint reads what it says against GSD's rule.
    tool: 'gsd',
    path: /(?:^|\/)\.planning\/(?:[^/]+\/)*?phases\/[^/]+\/(?:[^/]*-)?VERIFICATION\.md$/,
    read(file, text) {
      return {tool: 'gsd', analysis: {contracts: [], problems: []}, problems: verificationProblems(file, readGsdVerification(file, text)), expectations: []}
    }
  },
  {
    // A BMAD story (`# Story 1.2: Title`) or Build spec (`spec-<slug>.md`, `tech-spec-<slug>.md`) of `_bmad-output/implementation-artifacts/` or v4's `docs/stories/`: the story or spec is the unit, with its acceptance criteria; the rest of the file (Dev Notes, tasks) is no contract. Any other file there holds none.
    tool: 'bmad',
    // v6's story folder and its subfolders, and v4's default story folder (`docs/stories`).
    path: /(?:^|\/)(?:_bmad-output\/implementation-artifacts|docs\/stories)\/(?:[^/]+\/)*([^/]+)\.md$/i,
    read(file, text, match) {
      const options = {slice: match[1], defaultTier: 'verify' as const}
      const name = `${match[1]}.md`
      // A story's companion (a decision document headed as its story) has no contract for the lint: the gate reads it only where no story of its number is.
      const read =
        isBmadStory(text) && !isBmadCompanion(text) ? readBmadStory(file, text, options) : isBmadSpec(name, text) ? readBmadSpec(file, text, options) : null
      return {tool: 'bmad', analysis: {contracts: read?.story ? [read.story.contract] : [], problems: []}, problems: read?.problems ?? [], expectations: []}
    }
  },
  {
    // A Kiro feature's requirements: `.kiro/specs/<feature>/requirements.md`.
    tool: 'kiro',
    path: /(?:^|\/)\.kiro\/specs\/([^/]+)\/requirements\.md$/,
    read(file, text, match) {
      const {contracts, problems} = readRequirements(file, text, {slice: match[1], defaultTier: 'verify'})
      return {tool: 'kiro', analysis: {contracts: contracts.map((each) => each.contract), problems: []}, problems, expectations: []}
    }
  }
]

/**
 * The folders each tool writes, matched against a path with `/` separators:
 * a markdown file there that is not one of the tool's unit files (a
 * spec-kit `plan.md`, `research.md` or checklist, an OpenSpec proposal or
 * archived change, a Kiro `design.md`, GSD's roadmap and context, BMAD's
 * epics and architecture) holds no contracts, whatever its
 * headings look like: the gate reads only the unit files.
 */
export const toolFolders: ReadonlyArray<{tool: ToolName; path: RegExp}> = [
  {tool: 'spec-kit', path: /(?:^|\/)specs\/\d+-[^/]+\//},
  {tool: 'openspec', path: /(?:^|\/)openspec\//},
  {tool: 'kiro', path: /(?:^|\/)\.kiro\//},
  // GSD's plans, roadmap and verifications are read by the gate from their frontmatter and fields, not as contract headings.
  {tool: 'gsd', path: /(?:^|\/)\.planning\//},
  // BMAD's planning artifacts (epics, architecture, PRD) and the output folder's other files are the workflow's documents, not units the gate reads.
  {tool: 'bmad', path: /(?:^|\/)_bmad-output\//},
  // BMAD v4's default story folder: its indexes and summaries beside the stories are no units either.
  {tool: 'bmad', path: /(?:^|\/)docs\/stories\//}
]

/** The tool whose folder holds a path, `null` for a path in none. */
function toolFolderOf(file: string): ToolName | null {
  const posix = file.split(path.sep).join('/')
  return toolFolders.find((folder) => folder.path.test(posix))?.tool ?? null
}

/** The tool file shape a path is, with what its path names (change, capability, feature); `null` for any other file. */
export function fileDialectOf(file: string): {dialect: FileDialect; match: RegExpExecArray} | null {
  // Every tool's unit file is a `spec.md`, a `requirements.md`, a `bugfix.md`, a GSD `VERIFICATION.md` or a file of BMAD's output folder: any other path (most files) is none, without a pattern.
  if (
    !file.endsWith('spec.md') &&
    !file.endsWith('requirements.md') &&
    !file.endsWith('bugfix.md') &&
    !file.endsWith('VERIFICATION.md') &&
    !file.includes('_bmad-output') &&
    !file.includes('stories')
  )
    return null
  const posix = file.split(path.sep).join('/')
  for (const dialect of fileDialects) {
    const match = dialect.path.exec(posix)
    if (match) return {dialect, match}
  }
  return null
}

/**
 * A tool's file read as contracts, by its path: a unit file by its reader,
 * any other file in a tool's folder as holding none; `null` when the path
 * is in no tool's folder.
 */
export function readToolFile(file: string, text: string): ToolFileReading | null {
  const found = fileDialectOf(file)
  if (found) return found.dialect.read(file, text, found.match)
  const tool = toolFolderOf(file)
  return tool === null ? null : {tool, analysis: {contracts: [], problems: []}, problems: [], expectations: []}
}

/** An OpenSpec spec: each requirement a contract (`capability: Name`), its scenarios the criteria. */
function readOpenSpecFile(file: string, text: string, change: string | null, capability: string): ToolFileReading {
  const delta = readDeltaSpec(file, text, parseMarkdownText(text), {main: change === null})
  const problems = [...delta.problems]
  // What a change removes or renames is shown, never verified: nothing of it to lint.
  const contracts = delta.requirements
    .filter((requirement) => verified(requirement.section))
    .map((requirement) => {
      const contract = toContract(requirement, capability, change ?? '', file, problems)
      return {...contract, fields: requirement.tiers.map(tierField)}
    })
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  return {tool: 'openspec', analysis: {contracts, problems: []}, problems, expectations: delta.expectations}
}

/** A requirement's `**Verification:** value` line as the field the rules read; `manual` reads as `verify`, as the gate reads it. */
function tierField(statement: TierStatement): ContractField {
  const written = readTier(statement.value)
  return labelledField(labelFor('verification', 'bold'), /^manual$/i.test(written) ? 'verify' : written, 'bold', 'markdown', {
    position: {start: statement.labelPosition.start, end: (statement.valuePosition ?? statement.labelPosition).end},
    labelPosition: statement.labelPosition,
    valuePosition: statement.valuePosition
  })
}
