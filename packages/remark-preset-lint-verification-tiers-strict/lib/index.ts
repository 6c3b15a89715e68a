/**
 * remark preset to lint verification-tier contracts strictly: everything in
 * `remark-preset-lint-verification-tiers`, plus the contract field order and
 * an explicit Verification field on every contract.
 */
import remarkLintContractFieldOrder from 'remark-lint-contract-field-order'
import remarkLintExplicitVerificationTier from 'remark-lint-explicit-verification-tier'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import type {Preset} from 'unified'

const remarkPresetLintVerificationTiersStrict: Preset = {
  plugins: [remarkPresetLintVerificationTiers, remarkLintContractFieldOrder, remarkLintExplicitVerificationTier]
}

export default remarkPresetLintVerificationTiersStrict
