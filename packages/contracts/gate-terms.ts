/**
 * The model’s terms that need none of its modules: tiers, contract, slice
 * and session ids, contract names as the gate matches them, check timeouts,
 * and how a contract problem is worded. The gate half (the graph, the
 * runtime, the project loader, the `tiers` command) imports these; `terms`
 * adds the field labels and dialect names, which load every dialect.
 */
export {describeContractProblem} from './lib/describe.js'
export {IdError, isSessionId, isSliceId, sessionIdPattern, sessionIdRule, sliceIdPattern, sliceIdRule} from './lib/ids.js'
export {contractKey, contractLabel, foldContractName, isContractId, normalizeContractId, parseContractHeading, parseSliceHeading} from './lib/heading.js'
export {defaultTier, effectiveTier, isTier, readTier, tiers} from './lib/tier.js'
export {checkTimeoutRule, isCheckTimeout, maxCheckTimeoutSeconds} from './lib/timeout.js'
