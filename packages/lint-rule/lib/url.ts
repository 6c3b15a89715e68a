/** Where the rules’ docs live; each rule’s `url` is its readme there. */
export const repositoryUrl = 'https://github.com/verification-tiers/verification-tiers'

/** Docs link of a rule, as messages carry it in `url`. */
export function ruleUrl(ruleId: string): string {
  return `${repositoryUrl}/tree/main/packages/remark-lint-${ruleId}#readme`
}
