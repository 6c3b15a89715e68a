export {analyzeContracts, extractContracts} from './lib/extract.js'
export {fieldLabels, labelFor, resolveFieldKey} from './lib/fields.js'
export {contractLabel, normalizeContractId, parseContractHeading, parseSliceHeading} from './lib/heading.js'
export {splitCheck} from './lib/criterion.js'
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
