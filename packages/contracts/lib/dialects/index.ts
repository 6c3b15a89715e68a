/**
 * Every way of writing contracts, in one list. A dialect is one module: how
 * it finds a field’s label (on a paragraph line, in a fenced block, in YAML
 * frontmatter), which correct label it writes, and which of its fields make a
 * heading’s section a contract. The `Dialect` type, the stored contracts’
 * check and the lint rules all come from this list: a new dialect is one new
 * file, added here.
 */
import type {FieldKey} from '../types.js'
import {fieldLabels} from '../fields.js'
import {bold} from './bold.js'
import {comment} from './comment.js'
import type {DialectModule, FenceDialect, FrontmatterDialect, ParagraphDialect} from './dialect.js'
import {fenced} from './fenced.js'
import {frontmatter} from './frontmatter.js'
import {plain} from './plain.js'

/** The registry, in the order dialects are tried: the first paragraph or fence dialect that reads a line or block takes it. */
export const dialects = [bold, plain, comment, fenced, frontmatter] as const satisfies readonly DialectModule[]

/** How a contract (or one of its fields) is written: the name of one registered dialect. */
export type Dialect = (typeof dialects)[number]['name']

/** The names of every dialect, in registry order. */
export const dialectNames: readonly Dialect[] = dialects.map((dialect) => dialect.name)

const byName = new Map<string, DialectModule>(dialects.map((dialect) => [dialect.name, dialect]))

/** The registered dialect of this name. */
export function dialectOf(name: Dialect): DialectModule {
  return byName.get(name)!
}

export const paragraphDialects: readonly ParagraphDialect[] = dialects.filter(
  (dialect): dialect is Extract<(typeof dialects)[number], {reads: 'paragraph'}> => dialect.reads === 'paragraph'
)
export const fenceDialects: readonly FenceDialect[] = dialects.filter(
  (dialect): dialect is Extract<(typeof dialects)[number], {reads: 'fence'}> => dialect.reads === 'fence'
)
export const frontmatterDialects: readonly FrontmatterDialect[] = dialects.filter(
  (dialect): dialect is Extract<(typeof dialects)[number], {reads: 'frontmatter'}> => dialect.reads === 'frontmatter'
)

/** Correct label of `key` in `dialect` (`Acceptance Criteria`, or `acceptance_criteria` in frontmatter). */
export function labelFor(key: FieldKey, dialect: Dialect): string {
  return fieldLabels[key][dialectOf(dialect).labelStyle]
}
