/**
 * remark preset to lint verification-tier contracts: remark-lint itself (so
 * `<!--lint disable …-->` comments work), remark-frontmatter for contracts in
 * YAML frontmatter, the slice graph of each file's project for the rules
 * (which read no file themselves), and the contract rules. An invalid tier and a contract
 * heading the reader cannot see are errors; the rest are warnings. Change either the usual remark-lint way.
 */
import remarkSliceGraph from '@verification-tiers/graph/remark'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkLintAcceptanceCriteriaCount from 'remark-lint-acceptance-criteria-count'
import remarkLintAcceptanceCriteriaSpecific from 'remark-lint-acceptance-criteria-specific'
import remarkLintAutoTierIgnoredFields from 'remark-lint-auto-tier-ignored-fields'
import remarkLintContractFieldName from 'remark-lint-contract-field-name'
import remarkLintContractFrontmatter from 'remark-lint-contract-frontmatter'
import remarkLintContractItemList from 'remark-lint-contract-item-list'
import remarkLintEarsShall from 'remark-lint-ears-shall'
import remarkLintGsdVerification from 'remark-lint-gsd-verification'
import remarkLintNoHiddenContract from 'remark-lint-no-hidden-contract'
import remarkLintOpenspecScenario from 'remark-lint-openspec-scenario'
import remarkLintVerificationTier from 'remark-lint-verification-tier'
import remarkLintVerifyTierCriteria from 'remark-lint-verify-tier-criteria'
import type {Preset} from 'unified'

const remarkPresetLintVerificationTiers: Preset = {
  plugins: [
    remarkSliceGraph,
    remarkFrontmatter,
    remarkLint,
    remarkLintContractFrontmatter,
    [remarkLintNoHiddenContract, ['error']],
    [remarkLintVerificationTier, ['error']],
    remarkLintVerifyTierCriteria,
    remarkLintAutoTierIgnoredFields,
    remarkLintContractFieldName,
    remarkLintContractItemList,
    remarkLintAcceptanceCriteriaCount,
    remarkLintAcceptanceCriteriaSpecific,
    remarkLintOpenspecScenario,
    remarkLintEarsShall,
    remarkLintGsdVerification
  ]
}

export default remarkPresetLintVerificationTiers
