/**
 * remark-lint rule to warn when an OpenSpec requirement has no scenario, or
 * a scenario has no WHEN or no THEN line: what `openspec validate` expects of
 * every requirement. Read in a change's delta spec
 * (`openspec/changes/<change>/specs/<capability>/spec.md`) and a capability's
 * spec (`openspec/specs/<capability>/spec.md`); other files have none.
 */
import {contractRule} from '@verification-tiers/lint-rule'

const remarkLintOpenspecScenario = contractRule('openspec-scenario', function (_analysis, _file, _options, {tool, report}) {
  if (tool?.tool !== 'openspec') return
  // The reader's own words, as the gate reports them, at the heading.
  for (const expectation of tool.expectations) report(expectation.message, expectation.place)
})

export default remarkLintOpenspecScenario
