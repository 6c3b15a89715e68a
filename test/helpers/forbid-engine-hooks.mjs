// The resolve hook of `forbid-engine.mjs`: the parser, the engine and the rules may not load.
const forbidden = /^(?:remark-parse|unified-engine|micromark|remark-lint|remark-lint-.+|remark-preset-lint-.+|@verification-tiers\/lint-rule)$/

// In `replay` mode, no package may load but the lint cache’s reader, the reader of every input (Node's own modules
// alone) and the names of the files rules read beside a file, which it digests (a relative or `node:` specifier is
// not a package).
const isPackage = (specifier) => !/^(?:node:|file:|\.{1,2}\/|\/)/.test(specifier)
const replayPackages = new Set([
  '@verification-tiers/lint/replay',
  '@verification-tiers/input/read',
  '@verification-tiers/lint-rule/reads',
  '@verification-tiers/graph/files'
])
let replayOnly = false

export function initialize(data) {
  replayOnly = data?.mode === 'replay'
}

export async function resolve(specifier, context, next) {
  if (forbidden.test(specifier) || (replayOnly && isPackage(specifier) && !replayPackages.has(specifier))) throw new Error(`forbidden: ${specifier} was loaded`)
  return next(specifier, context)
}
