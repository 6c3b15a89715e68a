import type {Yaml} from 'mdast'
import type {Point, Position} from 'unist'
import {isKnownLabel} from '../fields.js'
import type {LabelStyle} from '../fields.js'
import type {FrontmatterContract} from '../frontmatter.js'
import type {Locator} from '../locate.js'
import type {Segment} from '../segments.js'
import {isTier, readTier} from '../tier.js'
import type {ContractField, ContractProblem} from '../types.js'

/** A label found at the start of a paragraph line. */
export interface LabelAt {
  /** Label as written, without its colon. */
  label: string
  /** Where the field starts (the label’s markup included). */
  start: Point
  /** The label text alone, so a quick fix replaces only it. */
  labelPosition: Position
  /** End of the label and its colon. */
  labelEnd: Point
  /** The rest of the line: the value. */
  rest: Segment[]
}

interface DialectBase<Name extends string> {
  /** What `ContractField.dialect` and `Contract.dialect` say. */
  name: Name
  /** Which correct label the dialect writes (`Acceptance Criteria` or `acceptance_criteria`). */
  labelStyle: LabelStyle
  /**
   * Whether one of its fields alone makes a heading’s section a contract
   * (called only for tier, criteria and steps fields).
   */
  marksContract(field: ContractField): boolean
}

/** Labels at the start of a paragraph’s lines, outside any fence (`**Verification:** verify`). */
export interface ParagraphDialect<Name extends string = string> extends DialectBase<Name> {
  reads: 'paragraph'
  /** The label that starts a line in this dialect’s notation, or `null`. */
  readLabel(line: Segment[], locator: Locator): LabelAt | null
}

/** `Field: value` lines of a fenced block. */
export interface FenceDialect<Name extends string = string> extends DialectBase<Name> {
  reads: 'fence'
  /**
   * Whether a block’s lines are written in this dialect (the first dialect
   * that claims a block reads it); `lang` is the fence’s info string’s first
   * word, `null` when it has none.
   */
  claims(lines: readonly string[], lang: string | null): boolean
  /** Characters before a line’s text that are the dialect’s, not the text’s (`// `). */
  prefix(line: string): number
}

/** A contract in the document’s YAML frontmatter. */
export interface FrontmatterDialect<Name extends string = string> extends DialectBase<Name> {
  reads: 'frontmatter'
  read(node: Yaml, locator: Locator): {contract: FrontmatterContract | null; problems: ContractProblem[]}
}

/** One way of writing contracts. */
export type DialectModule<Name extends string = string> = ParagraphDialect<Name> | FenceDialect<Name> | FrontmatterDialect<Name>

/** Tier, criteria and steps: the fields that make a section a contract. */
export function isTierField(field: ContractField): boolean {
  return field.key === 'verification' || field.key === 'acceptanceCriteria' || field.key === 'steps'
}

/** A tier, criteria or steps field under its exact label (a near miss alone makes no contract). */
export function isExactTierField(field: ContractField): boolean {
  return isTierField(field) && isKnownLabel(field.label)
}

/**
 * Where prose or code may start a line with `Steps:` or `Tier: Pro`: a valid
 * tier, or acceptance criteria, under an exact label.
 */
export function isStrictTierField(field: ContractField): boolean {
  if (!isKnownLabel(field.label)) return false
  if (field.key === 'verification') return isTier(readTier(field.value))
  return field.key === 'acceptanceCriteria'
}

/**
 * What makes a fence under a heading without an id a contract: a valid tier
 * under its exact label. Criteria or steps alone in a fence are an example
 * (of a checkpoint, of output), and a `Contract:` line in a code comment
 * describes a type, not a contract to check.
 */
export function isFencedContractMark(field: ContractField): boolean {
  return field.key === 'verification' && isKnownLabel(field.label) && isTier(readTier(field.value))
}
