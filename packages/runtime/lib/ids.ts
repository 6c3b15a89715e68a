// Slice and session ids are terms of the contract model, shared with the slice graph’s reader.
export {IdError, isSessionId, isSliceId, sessionIdPattern, sessionIdRule, sliceIdPattern, sliceIdRule} from '@verification-tiers/contracts/gate-terms'
