/**
 * The model’s terms without its reader: tiers, field labels, contract and
 * slice ids, check timeouts. No markdown or YAML parser loads with them, so
 * a tool that starts often (the `tiers` command) imports these alone and
 * loads the reader only when it has a file to read.
 */
export {fieldLabels, labelFor, resolveFieldKey} from './lib/fields.js'
export {contractLabel, normalizeContractId, parseContractHeading, parseSliceHeading} from './lib/heading.js'
export {defaultTier, effectiveTier, isTier, readTier, tiers} from './lib/tier.js'
export {checkTimeoutRule, isCheckTimeout, maxCheckTimeoutSeconds} from './lib/timeout.js'
export type {
  Contract,
  ContractAnalysis,
  ContractField,
  ContractItem,
  ContractProblem,
  ContractText,
  CriterionCheck,
  Dialect,
  FieldKey,
  SliceHeading,
  Tier
} from './lib/types.js'
