// The resolve hook of `forbid-engine.mjs`: the parser, the engine and the rules may not load.
const forbidden = /^(?:remark-parse|unified-engine|micromark|remark-lint|remark-lint-.+|remark-preset-lint-.+|@verification-tiers\/lint-rule)$/

// In `replay` mode, no package may load but the lint cache’s reader (a relative or `node:` specifier is not a package).
const isPackage = (specifier) => !/^(?:node:|file:|\.{1,2}\/|\/)/.test(specifier)
let replayOnly = false

export function initialize(data) {
  replayOnly = data?.mode === 'replay'
}

export async function resolve(specifier, context, next) {
  if (forbidden.test(specifier) || (replayOnly && isPackage(specifier) && specifier !== '@verification-tiers/lint/replay')) throw new Error(`forbidden: ${specifier} was loaded`)
  return next(specifier, context)
}
