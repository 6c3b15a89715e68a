export {
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
export type {ProjectConfig, TierReport} from './lib/report.js'
export {hashContracts} from './lib/hash.js'
export {
  emptySliceState,
  parseSliceState,
  readSliceState,
  stateFolder,
  statePath,
  StateError,
  updateSliceState
} from './lib/state.js'
export type {AnswerBy, AnswerChannel, AnswerEntry, AnswerOrigin, AnswerProvenance, EscalationEntry, RejectionEntry, SliceDecision, SliceState} from './lib/state.js'
export {DecisionPutBackError, escalationData, recordEscalation, recordResponse, recordRoute, sliceStatus, withdrawAnswer} from './lib/gate.js'
export type {GateContext, RespondResult, ShownAnswer, SliceStatus, WithdrawResult} from './lib/gate.js'
export {IdError, isSessionId, isSliceId, sessionIdPattern, sessionIdRule, sliceIdPattern, sliceIdRule} from './lib/ids.js'
export {FileReadError} from './lib/file-error.js'
export type {FilePlace} from './lib/file-error.js'
export {describeJsonError, parseJson, parseJsonText, readJsonFile, updateJsonFile} from './lib/json-file.js'
export type {JsonFileKind, JsonParse} from './lib/json-file.js'
export {ConcurrentChangeError, GateError} from './errors.js'
export {FileWriteError, prepareOwnFolder, writeFailure, writeOwnFile} from './lib/own-file.js'
export {defaultReadLimits, firstNonUtf8, formatSize, inputLimits, readInputFile, readLimitCeilings} from './lib/read-input.js'
export type {ReadInputOptions, ReadLimits} from './lib/read-input.js'
export {isHardFail, isPass, parseVerdict, toJobStatus} from './lib/verdict.js'
export type {JobStatus, ParsedVerdict} from './lib/verdict.js'
export {parseProjectConfig, projectFreshnessExclude, projectReadLimits, projectTestCommand, readProjectConfig} from './lib/config.js'
export {defaultFreshnessExclude, excludeMatcher, excludePatternProblem, freshnessExcludeRule, parseExcludePattern} from './lib/freshness.js'
export type {ExcludePattern} from './lib/freshness.js'
export {configKeys, isNearMiss} from './lib/config-keys.js'
export {editDistance} from './lib/edit-distance.js'
export type {ReadConfig} from './lib/config.js'
