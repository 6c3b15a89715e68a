/**
 * The model’s terms without its reader: tiers, field labels, dialect names,
 * contract, slice and session ids, check timeouts. No markdown parser loads with them
 * (nor the YAML parser, which loads on the first frontmatter read), so a tool
 * that starts often (the `tiers` command) imports these alone and loads the
 * reader only when it has a file to read.
 */
export {describeContractProblem} from './lib/describe.js'
export {dialectNames, dialectOf, labelFor} from './lib/dialects/index.js'
export {expectedLabel, fieldLabels, resolveFieldKey} from './lib/fields.js'
export type {FieldLabels, LabelStyle} from './lib/fields.js'
export {IdError, isSessionId, isSliceId, sessionIdPattern, sessionIdRule, sliceIdPattern, sliceIdRule} from './lib/ids.js'
export {contractKey, contractLabel, foldContractName, isContractId, normalizeContractId, parseContractHeading, parseSliceHeading} from './lib/heading.js'
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
