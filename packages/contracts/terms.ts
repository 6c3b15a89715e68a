/**
 * The model’s terms without its reader: tiers, field labels, dialect names,
 * contract, slice and session ids, check timeouts. No markdown parser loads with them
 * (nor the YAML parser, which loads on the first frontmatter read), so a tool
 * can import these alone and load the reader only when it has a file to read.
 * A tool that starts often (the `tiers` command) and needs neither field
 * labels nor dialect names imports `gate-terms`, which loads no dialect.
 */
export * from './gate-terms.js'
export {dialectNames, dialectOf, labelFor} from './lib/dialects/index.js'
export {expectedLabel, fieldLabels, resolveFieldKey} from './lib/fields.js'
export type {FieldLabels, LabelStyle} from './lib/fields.js'
export type {
  Contract,
  ContractAnalysis,
  ContractField,
  ContractIntent,
  ContractItem,
  ContractProblem,
  ContractText,
  CriterionCheck,
  Dialect,
  FieldKey,
  SliceHeading,
  Tier
} from './lib/types.js'
