import {editDistance} from './edit-distance.js'
import type {Position} from 'unist'
import type {ContractField, Dialect, FieldKey} from './types.js'

/** How a field’s label is spelt in one table row: its correct label per label style, and the other spellings people write. */
export interface FieldLabels {
  /** Title Case, as markdown dialects write it. */
  markdown: string
  /** snake_case, as YAML keys write it. */
  frontmatter: string
  /** Other names people give the field; each reads as the field, any case, and is no lint warning as written here. */
  variants: readonly string[]
}

/**
 * Every field’s labels, in one table: the correct label of each label style,
 * and its accepted variants. Near misses of the correct labels (typos, other
 * separators) read as the field too, with a lint warning.
 */
export const fieldLabels: Readonly<Record<FieldKey, FieldLabels>> = {
  id: {markdown: 'ID', frontmatter: 'id', variants: []},
  contract: {markdown: 'Contract', frontmatter: 'contract', variants: []},
  boundary: {markdown: 'Boundary', frontmatter: 'boundary', variants: []},
  slice: {markdown: 'Slice', frontmatter: 'slice', variants: []},
  input: {markdown: 'Input', frontmatter: 'input', variants: ['Inputs']},
  output: {markdown: 'Output', frontmatter: 'output', variants: ['Outputs']},
  errors: {markdown: 'Errors', frontmatter: 'errors', variants: []},
  invariants: {markdown: 'Invariants', frontmatter: 'invariants', variants: []},
  security: {markdown: 'Security', frontmatter: 'security', variants: []},
  verification: {markdown: 'Verification', frontmatter: 'verification', variants: ['Tier', 'Verification tier', 'Verification Tier', 'Verification level']},
  acceptanceCriteria: {
    markdown: 'Acceptance Criteria',
    frontmatter: 'acceptance_criteria',
    variants: ['Acceptance criteria', 'Criteria', 'Acceptance', 'Acceptance tests', 'Success criteria', 'Success Criteria']
  },
  steps: {
    markdown: 'Steps',
    frontmatter: 'steps',
    variants: [
      'Steps to verify',
      'Steps to Verify',
      'Verification steps',
      'Verification Steps',
      'Human check',
      'Human Check',
      'Manual steps',
      'Manual check',
      'How to verify'
    ]
  },
  dependencies: {markdown: 'Dependencies', frontmatter: 'dependencies', variants: ['Depends on']}
}

/** Which correct label a dialect writes: Title Case (markdown) or snake_case (frontmatter). */
export type LabelStyle = 'markdown' | 'frontmatter'

const keys = Object.keys(fieldLabels) as FieldKey[]
// Correct labels, the ones near misses are measured against.
const byFolded = new Map<string, FieldKey>(keys.map((key) => [fold(fieldLabels[key].markdown), key]))
// Correct labels and variants, any case: what reads as the field exactly.
const exactly = new Map<string, FieldKey>([...byFolded, ...keys.flatMap((key) => fieldLabels[key].variants.map((variant) => [fold(variant), key] as const))])

/**
 * The label a field should have: the label as written when it is an accepted
 * spelling in this style (the correct label or a variant as the table writes
 * it), else the correct label.
 */
export function expectedLabel(label: string, key: FieldKey, style: LabelStyle): string {
  const row = fieldLabels[key]
  const written = label.trim().replace(/\s+/g, ' ')
  const accepted = style === 'frontmatter' ? [row.frontmatter, ...row.variants.map(snakeCase)] : [row.markdown, ...row.variants]
  return accepted.includes(written) ? written : style === 'frontmatter' ? row.frontmatter : row.markdown
}

function snakeCase(label: string): string {
  return label.toLowerCase().replace(/[^a-z\d]+/g, '_')
}

/**
 * Known field a label names: its correct label or a variant in any case and
 * with any separators, or a near miss of the correct label (small typos:
 * `Acceptence Criteria`, `Step`).
 */
export function resolveFieldKey(label: string): FieldKey | null {
  const folded = fold(label)
  if (folded === '') return null
  const exact = exactly.get(folded)
  return exact ?? closestKnown(folded)
}

/** The one known label within a small edit distance of `folded`, if unique. */
function closestKnown(folded: string): FieldKey | null {
  // Short words (`If`, `In`, `It`) are too close to `ID` to be typos of it.
  const allowed = folded.length <= 3 ? 0 : folded.length <= 6 ? 1 : 2
  let best: FieldKey | null = null
  let bestDistance = allowed + 1
  let tie = false
  for (const [known, key] of byFolded) {
    const distance = editDistance(folded, known, allowed)
    if (distance > allowed) continue
    if (distance < bestDistance) {
      best = key
      bestDistance = distance
      tie = false
    } else if (distance === bestDistance) {
      tie = true
    }
  }
  return best && !tie ? best : null
}

/** Whether a label is a field's correct label but for case and separators (no variant, no near miss). */
export function isCorrectLabel(label: string): boolean {
  return byFolded.has(fold(label))
}

/** Whether a label names a known field exactly (its correct label or a variant) but for case and separators. */
export function isKnownLabel(label: string): boolean {
  return exactly.has(fold(label))
}

function fold(label: string): string {
  return label.toLowerCase().replace(/[^a-z\d]/g, '')
}

/** Whether a field heads items in every document: Acceptance Criteria and Steps. */
export function isListField(field: ContractField): boolean {
  return field.key === 'acceptanceCriteria' || field.key === 'steps'
}

/** Where a field is: label to end of value, the label, and the value when it has one inline. */
export interface FieldSpans {
  position: Position
  labelPosition: Position
  valuePosition: Position | null
}

/**
 * A field read under `label` in `dialect` (its labels spelt in `style`):
 * its key and correct label resolved, its items still to read. Every
 * dialect makes its fields here, so all resolve labels alike.
 */
export function labelledField(label: string, value: string, dialect: Dialect, style: LabelStyle, spans: FieldSpans): ContractField {
  const key = resolveFieldKey(label)
  return {
    key,
    label,
    expectedLabel: key ? expectedLabel(label, key, style) : null,
    value,
    dialect,
    position: spans.position,
    labelPosition: spans.labelPosition,
    valuePosition: spans.valuePosition,
    items: [],
    hasList: false,
    unread: []
  }
}
