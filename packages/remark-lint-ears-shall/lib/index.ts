/**
 * remark-lint rule to warn when an acceptance criterion of a Kiro
 * `requirements.md` is written in EARS form (it starts with WHEN, IF, WHILE,
 * WHERE or THE) and has no SHALL: EARS states what the system shall do, and a
 * criterion without it states no response to check. A criterion in another
 * form or language is not checked.
 */
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

/** The words an EARS requirement starts with: event, unwanted behaviour, state, option, or ubiquitous. */
const earsStart = /^(when|if|while|where|the)\b/i
const shall = /\bshall\b/i
// A letter of a script other than Latin: the criterion is written in another language (`WHEN … THEN …しなければならない`), whose word for SHALL is its own.
const otherScript = /[^\P{L}\p{Script=Latin}]/u

const remarkLintEarsShall = contractRule('ears-shall', function ({contracts}, _file, _options, {tool, report}) {
  if (tool?.tool !== 'kiro') return
  for (let index = 0; index < contracts.length; index++) {
    const contract = contracts[index]
    for (let each = 0; each < contract.criteria.length; each++) {
      const criterion = contract.criteria[each]
      const start = earsStart.exec(criterion.text)
      if (!start || shall.test(criterion.text) || otherScript.test(criterion.text)) continue
      const keyword = start[1].toUpperCase()
      const form = keyword === 'THE' ? 'THE <system> SHALL <response>' : `${keyword} … THE <system> SHALL <response>`
      report(`Unexpected EARS acceptance criterion without SHALL on ${contract.label}, expected ${inlineCode(form)}`, criterion.position)
    }
  }
})

export default remarkLintEarsShall
