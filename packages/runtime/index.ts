export {
  approvedSince,
  partialNames,
  renderEscalation,
  renderPartial,
  renderRejectionOptions,
  renderRoute,
  renderTierReport,
  renderVerifyCheckpoint
} from './lib/checkpoint.js'
export {contractTier, resolveSlice, resolveSliceTier, verifyCheckpointData} from './lib/slice.js'
export type {ContractTier, ResolvedSlice, SliceInput, TaggedItem} from './lib/slice.js'
export {interpretResponse, mentionsApproval, normalizeReply} from './lib/response.js'
export type {CheckpointResponse} from './lib/response.js'
export {findEscalationOption, findRejectionOption, routeRejection} from './lib/routing.js'
export type {EscalationOption, HandoffContract, RejectionOption, Route} from './lib/routing.js'
export {deprecationWarning, nothingToCheckWarning, tierReport} from './lib/report.js'
export type {TierReport} from './lib/report.js'
export {hashContracts} from './lib/hash.js'
export {
  emptySliceState,
  parseSliceState,
  readSliceState,
  keptSliceIds,
  stateFolder,
  statePath,
  updateSliceState
} from './lib/state.js'
export type {
  AnswerBy,
  AnswerChannel,
  AnswerEntry,
  AnswerOrigin,
  AnswerProvenance,
  EscalationEntry,
  RejectionEntry,
  SliceDecision,
  SliceState
} from './lib/state.js'
export {decisionSource, deriveDecision, givenByPerson, historyLoss, historyProblem} from './lib/history.js'
export type {DecisionSource, EntryCounts, HistoryCheck, HistoryLoss, HistoryProblem} from './lib/history.js'
export {
  escalationData,
  recordEscalation,
  recordResponse,
  recordRoute,
  sliceStatus,
  sliceSubject,
  sliceThreshold,
  weakeningsSinceApproval,
  withdrawAnswer
} from './lib/gate.js'
export type {GateContext, RespondResult, ShownAnswer, SliceStatus, WithdrawResult} from './lib/gate.js'
export {approvedPins, describeWeakening, findWeakenings, holdSlice, slicePins} from './lib/weakening.js'
export type {ContractPin, SlicePins, Weakening, WeakeningKind} from './lib/weakening.js'
export {IdError, isSessionId, isSliceId, sessionIdPattern, sessionIdRule, sliceIdPattern, sliceIdRule} from './lib/ids.js'
// Reading input, with the input package's reader, for the packages above that read what the runtime reads.
export {
  defaultReadLimits,
  describeJsonError,
  FileReadError,
  firstNonUtf8,
  formatSize,
  inputLimits,
  jsonPlace,
  parseJson,
  parseJsonText,
  readInputFile,
  readLimitCeilings
} from '@verification-tiers/input'
export type {FilePlace, JsonParse, ReadInputOptions, ReadLimits} from '@verification-tiers/input'
export {readJsonFile, updateJsonFile} from './lib/json-file.js'
export type {JsonFileKind} from './lib/json-file.js'
export {ConcurrentChangeError, GateError} from './errors.js'
export {FileWriteError, prepareOwnFolder, writeFailure, writeOwnFile} from './lib/own-file.js'
export {isHardFail, isPass, parseVerdict, toJobStatus} from './lib/verdict.js'
export type {JobStatus, ParsedVerdict} from './lib/verdict.js'
// A project's settings, read by the protocol, for the packages above that read them.
export {
  isNearMiss,
  parseProjectConfig,
  projectFreshnessExclude,
  projectReadLimits,
  projectTestCommand,
  readProjectConfig,
  settingsKeys
} from '@verification-tiers/protocol/settings'
export type {ProjectConfig, ReadConfig, SettingsFile} from '@verification-tiers/protocol/settings'
export {defaultFreshnessExclude, excludeMatcher, excludePatternProblem, freshnessExcludeRule, parseExcludePattern} from './lib/freshness.js'
export type {ExcludePattern} from './lib/freshness.js'
