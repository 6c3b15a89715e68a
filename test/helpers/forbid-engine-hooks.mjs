// The resolve hook of `forbid-engine.mjs`: the parser, the engine and the rules may not load.
const forbidden = /^(?:remark-parse|unified-engine|micromark|remark-lint|remark-lint-.+|remark-preset-lint-.+|@verification-tiers\/lint-rule)$/

export async function resolve(specifier, context, next) {
  if (forbidden.test(specifier)) throw new Error(`forbidden: ${specifier} was loaded`)
  return next(specifier, context)
}
