/**
 * The files of other spec-driven tools (spec-kit, OpenSpec, Kiro, GSD, BMAD)
 * read as contracts of the model (`@verification-tiers/contracts`): one
 * reader per file shape, with the markdown parser they share. A package of
 * its own, so a tool that reads only Greenlight files never loads them.
 */
export {inFencedExample, parseMarkdownText} from './lib/markdown.js'
export {asStory, readStories} from './lib/speckit-parse.js'
export type {Stories} from './lib/speckit-parse.js'
export {readDeltaSpec, statedTier, tierStatements, toContract, verified} from './lib/openspec-delta.js'
export type {DeltaRequirement, DeltaSection, DeltaSpec, TierStatement} from './lib/openspec-delta.js'
export {readRequirements} from './lib/kiro-requirements.js'
export {readBugfix} from './lib/kiro-bugfix.js'
export type {RequirementsOptions, RequirementsReading} from './lib/kiro-requirements.js'
export {requirementWord} from './lib/kiro-headings.js'
export type {FileContract, FileProblem} from './lib/types.js'
export {fileDialectOf, readToolFile} from './lib/files.js'
export type {ToolFileReading, ToolName} from './lib/files.js'
export type {DeltaExpectation, DeltaSpecOptions} from './lib/openspec-delta.js'
export {
  firstLine,
  gsdContract,
  gsdPhaseNumber,
  readGsdPlan,
  readGsdRoadmap,
  readGsdUat,
  readGsdValidation,
  readGsdVerification,
  verificationProblems
} from './lib/gsd.js'
export type {GsdContractParts, GsdPlan, GsdRoadmap, GsdRoadmapPhase, GsdUat, GsdUatTest, GsdVerification} from './lib/gsd.js'
export {bmadStoryNumber, hiddenStoryHeadings, isBmadCompanion, isBmadSpec, isBmadStory, isBmadStoryName, readBmadSpec, readBmadStory} from './lib/bmad.js'
export type {BmadStory} from './lib/bmad.js'
