export {
  partialNames,
  renderCircuitBreakCheckpoint,
  renderDecisionCheckpoint,
  renderEscalation,
  renderExternalActionCheckpoint,
  renderPartial,
  renderRejectionOptions,
  renderVerifyCheckpoint
} from './lib/checkpoint.js'
export {templateCompileOptions, templateHelperNames, templateHelpers} from './lib/helpers.js'
