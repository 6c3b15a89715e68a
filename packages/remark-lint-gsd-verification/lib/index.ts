/**
 * remark-lint rule to warn when a GSD verification (`NN-VERIFICATION.md` of
 * a phase under `.planning/phases/`) says `status: passed` while it still
 * lists a check for a person, says `status: human_needed` listing none, or
 * overrides a manual or human check: GSD passes a phase only when no check
 * is left to a person. Other files have none.
 */
import {contractRule} from '@verification-tiers/lint-rule'

const remarkLintGsdVerification = contractRule('gsd-verification', function (_analysis, file, _options, {tool, report}) {
  if (tool?.tool !== 'gsd') return
  const lines = String(file.value).split(/\r?\n/)
  // The reader's own words, as the gate reports them, on the line they name.
  for (const problem of tool.problems) {
    const line = problem.line ?? 1
    const indent = /^\s*/.exec(lines[line - 1] ?? '')![0].length
    report(problem.message, {start: {line, column: indent + 1}, end: {line, column: (lines[line - 1] ?? '').trimEnd().length + 1}})
  }
})

export default remarkLintGsdVerification
