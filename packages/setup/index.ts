export {contractsFolder, greenlightFolder, planInit, plannedDiff, writePlanned} from './lib/init.js'
export {gitignoreFile, ignoreEntries, planGitignore, stateInGit} from './lib/gitignore.js'
// The error of a file `tiers init` cannot read or merge into, as every package names one.
export {FileReadError} from '@verification-tiers/input/read'
export type {PlannedFile, Step} from './lib/files.js'
export {ciProviders, workflowFile, workflowLintCommand} from './lib/workflow.js'
export type {CiProvider, TestCommand} from './lib/workflow.js'
export {agentOfInput, defaultHookAgent, hookAgent, hookAgentIds, hookAgents, unknownAgent} from './lib/agents.js'
export type {HookAgent, HookAnswer} from './lib/agents.js'
