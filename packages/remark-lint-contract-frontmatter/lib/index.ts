/**
 * remark-lint rule to warn when frontmatter does not parse as YAML, or when a
 * contract’s frontmatter gives a field the wrong type (`steps` as text).
 */
import {describeContractProblem} from '@verification-tiers/contracts'
import {contractRule} from '@verification-tiers/lint-rule'

const remarkLintContractFrontmatter = contractRule('contract-frontmatter', function ({problems}, _file, _options, {report}) {
  for (let index = 0; index < problems.length; index++) {
    const problem = problems[index]
    // Tier conflicts and unread headings are the verification-tier rule’s.
    if (problem.kind !== 'yaml-syntax' && problem.kind !== 'field-shape') continue
    report(describeContractProblem(problem), problem.place, {actual: problem.actual})
  }
})

export default remarkLintContractFrontmatter
