/**
 * remark-lint rule to warn when a line reads as a contract heading but
 * markdown does not make it one, so the contract reader (and the gate) never
 * sees the contract: HTML right above it, an unclosed comment, fence or
 * `<script>` anywhere above it, indentation, a list or quote marker, no space
 * after the `#`.
 */
import type {Root} from 'mdast'
import {analyzeContracts, findUnreadContracts} from '@verification-tiers/contracts'
import {report, ruleUrl} from '@verification-tiers/lint-rule'
import {lintRule} from 'unified-lint-rule'

const ruleId = 'no-hidden-contract'

// Built on `lintRule` itself: the check needs the tree and the source, not only the contracts.
const remarkLintNoHiddenContract = lintRule<Root>({origin: `remark-lint:${ruleId}`, url: ruleUrl(ruleId)}, function (tree, file) {
  if (file.value === undefined) return
  const {contracts} = analyzeContracts(tree, file)
  for (const hidden of findUnreadContracts(String(file.value), tree, contracts)) {
    report(
      file,
      `Unexpected contract heading ${quote(hidden.text)} ${hidden.reason}, expected a heading the reader sees: ${hidden.fix}`,
      hidden.place
    )
  }
})

/** The heading in inline code, which may itself hold backticks. */
function quote(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1)
  return fence.length > 1 ? `${fence} ${text} ${fence}` : fence + text + fence
}

export default remarkLintNoHiddenContract
