/**
 * remark-lint rule to warn when a line reads as a contract heading but
 * markdown does not make it one, so the contract reader (and the gate) never
 * sees the contract: HTML right above it, an unclosed comment, fence or
 * `<script>` anywhere above it, indentation, a list or quote marker, no space
 * after the `#`.
 */
import {describeContractProblem} from '@verification-tiers/contracts'
import {contractRule} from '@verification-tiers/lint-rule'

const remarkLintNoHiddenContract = contractRule('no-hidden-contract', function ({problems}, _file, _options, {report}) {
  for (let index = 0; index < problems.length; index++) {
    const problem = problems[index]
    if (problem.kind === 'unread-heading') report(describeContractProblem(problem), problem.place)
  }
})

export default remarkLintNoHiddenContract
