import type {Position} from 'unist'
import type {Dialect} from './dialects/index.js'

export type {Dialect} from './dialects/index.js'

/** A valid verification tier. */
export type Tier = 'auto' | 'verify'

/** Fields the model knows by meaning; other labels are kept by name. */
export type FieldKey =
  | 'id'
  | 'contract'
  | 'boundary'
  | 'slice'
  | 'input'
  | 'output'
  | 'errors'
  | 'invariants'
  | 'security'
  | 'verification'
  | 'acceptanceCriteria'
  | 'steps'
  | 'dependencies'

/** A check attached to a criterion (`-- verified by: \`cmd\``, or `verify:` in YAML). */
export interface CriterionCheck {
  method: 'bash' | 'manual'
  /** Shell command, for `bash`. */
  command: string | null
  /** Seconds, when the contract sets one. */
  timeout: number | null
  /**
   * A `timeout` that is no number of seconds above 0 and at most a day
   * (`0`, `-5`, `.inf`, `"abc"`), as written and where; `timeout` is then
   * `null`, and a tool that runs the check must refuse rather than use its default.
   */
  invalidTimeout?: {text: string; place: Position}
}

/** One acceptance criterion or step. */
export interface ContractItem {
  /** Item text as written (inline code keeps its backticks), check suffix removed. */
  text: string
  position: Position
  check: CriterionCheck | null
}

/** One labelled field of a contract. */
export interface ContractField {
  /** Known field the label names (near misses included), or `null`. */
  key: FieldKey | null
  /** Label as written, without its colon. */
  label: string
  /** Correct label for `key` in this field's dialect, or `null` for unknown labels. */
  expectedLabel: string | null
  /** Inline value, trimmed (`''` when the value is a list or missing). */
  value: string
  dialect: Dialect
  /** Label to end of value or list. */
  position: Position
  labelPosition: Position
  /** Span of `value`, or `null` when there is no inline value. */
  valuePosition: Position | null
  /** Items of the field’s list. */
  items: ContractItem[]
  /** Whether a list (or YAML sequence) was given, even an empty one. */
  hasList: boolean
  /**
   * Text under an Acceptance Criteria or Steps label that could not be read
   * as items (a paragraph, a code block), so tools can say so rather than
   * show an empty list.
   */
  unread: ContractText[]
}

/** A span of text the reader saw but did not take. */
export interface ContractText {
  /** Its kind, as messages name it: `paragraph`, `code`, `table`, `quote`. */
  kind: string
  text: string
  position: Position
}

/** A slice heading (`## S-01: Campaign Cards`) that encloses contracts. */
export interface SliceHeading {
  id: string
  name: string
}

/** One contract. */
export interface Contract {
  /** `C-03`, or `null` for a `Contract: Name` heading. */
  id: string | null
  name: string
  /** What messages call it: `C-03 CampaignStatusBadge`. */
  label: string
  /** Dialect of its first field (`bold` when it has none). */
  dialect: Dialect
  /** The whole contract. */
  position: Position
  /** The heading (or YAML `contract`/`id` entry) that starts it. */
  headingPosition: Position
  /** `auto`, `verify`, the raw text when invalid, or `null` when absent; `verify` when two tier fields disagree. */
  tier: string | null
  /** Tier that applies: `auto` only when written exactly so; missing or invalid is `verify`. */
  effectiveTier: Tier
  criteria: ContractItem[]
  steps: ContractItem[]
  /** The `Slice` field’s slice id (`S-23` of `S-23 (Verification Gate)`, other text as written), else the enclosing slice heading’s id, else `null`. */
  slice: string | null
  sliceHeading: SliceHeading | null
  fields: ContractField[]
  /**
   * What a person approved as fixed intent, which only they may change: a
   * BMAD spec's `<frozen-after-approval>` block. Absent when the contract
   * has none.
   */
  intent?: ContractIntent
}

/** A block of intent a person owns, as written. */
export interface ContractIntent {
  /** The block, its opening tag to its closing one (the end of the file when it is unclosed); the first block when there are two. */
  position: Position
  /** Each heading, paragraph, list item and table row inside, in order, each with its line; of every block when there are two. */
  items: ContractItem[]
}

/** Something that keeps a contract from being read fully. */
export interface ContractProblem {
  /**
   * `yaml-syntax`: frontmatter that does not parse; `field-shape`: a field of
   * the wrong type; `tier-conflict`: a contract that gives two different
   * tiers (it reads as `verify`); `unread-heading`: a line that looks like a
   * contract heading but is no heading of the document (after HTML, in an
   * unclosed block, indented, in a list or quote, no space after `#`).
   */
  kind: 'yaml-syntax' | 'field-shape' | 'tier-conflict' | 'unread-heading'
  /**
   * What is wrong: `frontmatter`, the field’s label, for a tier conflict the
   * contract’s label, for an unread heading the line as written.
   */
  subject: string
  /** Whether the field itself or one of its items has the wrong shape. */
  part: 'field' | 'item'
  /**
   * What was found: the YAML error, the type (`text`, `a list`), the second
   * tier as written, or where an unread heading is (`inside HTML`).
   */
  actual: string
  /** What should be there; for a tier conflict, the first tier as written. */
  expected: string
  /** For a tier conflict, the second tier’s value (or label). */
  place: Position
  /** For a tier conflict, the first tier’s value (or label). */
  otherPlace?: Position
}

/** Everything read from one document. */
export interface ContractAnalysis {
  contracts: Contract[]
  problems: ContractProblem[]
}
