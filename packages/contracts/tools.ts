/**
 * The files of other spec-driven tools (spec-kit, OpenSpec, Kiro) read as
 * contracts: one reader per file shape, with the markdown parser they share.
 * Apart from the model's main entry so a tool that reads only Greenlight
 * files never loads them.
 */
export {inFencedExample, parseMarkdownText} from './lib/tools/markdown.js'
export {asStory, readStories} from './lib/tools/speckit-parse.js'
export type {Stories} from './lib/tools/speckit-parse.js'
export {readDeltaSpec, statedTier, tierStatements, toContract, verified} from './lib/tools/openspec-delta.js'
export type {DeltaRequirement, DeltaSection, DeltaSpec, TierStatement} from './lib/tools/openspec-delta.js'
export {readRequirements} from './lib/tools/kiro-requirements.js'
export {readBugfix} from './lib/tools/kiro-bugfix.js'
export type {RequirementsOptions, RequirementsReading} from './lib/tools/kiro-requirements.js'
export {requirementWord} from './lib/tools/kiro-headings.js'
export type {FileContract, FileProblem} from './lib/tools/types.js'
export {fileDialectOf, readToolFile} from './lib/tools/files.js'
export type {ToolFileReading, ToolName} from './lib/tools/files.js'
export type {DeltaExpectation, DeltaSpecOptions} from './lib/tools/openspec-delta.js'
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
} from './lib/tools/gsd.js'
export type {GsdContractParts, GsdPlan, GsdRoadmap, GsdRoadmapPhase, GsdUat, GsdUatTest, GsdVerification} from './lib/tools/gsd.js'
export {bmadStoryNumber, hiddenStoryHeadings, isBmadCompanion, isBmadSpec, isBmadStory, isBmadStoryName, readBmadSpec, readBmadStory} from './lib/tools/bmad.js'
export type {BmadStory} from './lib/tools/bmad.js'
