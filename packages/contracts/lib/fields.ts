import {levenshteinEditDistance} from 'levenshtein-edit-distance'
import type {Dialect, FieldKey} from './types.js'

/** Correct labels: markdown dialects use Title Case, frontmatter snake_case. */
export const fieldLabels: Readonly<Record<FieldKey, {markdown: string; frontmatter: string}>> = {
  id: {markdown: 'ID', frontmatter: 'id'},
  contract: {markdown: 'Contract', frontmatter: 'contract'},
  boundary: {markdown: 'Boundary', frontmatter: 'boundary'},
  slice: {markdown: 'Slice', frontmatter: 'slice'},
  input: {markdown: 'Input', frontmatter: 'input'},
  output: {markdown: 'Output', frontmatter: 'output'},
  errors: {markdown: 'Errors', frontmatter: 'errors'},
  invariants: {markdown: 'Invariants', frontmatter: 'invariants'},
  security: {markdown: 'Security', frontmatter: 'security'},
  verification: {markdown: 'Verification', frontmatter: 'verification'},
  acceptanceCriteria: {markdown: 'Acceptance Criteria', frontmatter: 'acceptance_criteria'},
  steps: {markdown: 'Steps', frontmatter: 'steps'},
  dependencies: {markdown: 'Dependencies', frontmatter: 'dependencies'}
}

const keys = Object.keys(fieldLabels) as FieldKey[]
const byFolded = new Map<string, FieldKey>(keys.map((key) => [fold(fieldLabels[key].markdown), key]))

/** Correct label of `key` in `dialect`. */
export function labelFor(key: FieldKey, dialect: Dialect): string {
  return dialect === 'frontmatter' ? fieldLabels[key].frontmatter : fieldLabels[key].markdown
}

/**
 * Known field a label names, allowing the near misses people write:
 * other casing or separators (`acceptance-criteria`, `AcceptanceCriteria`)
 * and small typos (`Acceptence Criteria`, `Step`).
 */
export function resolveFieldKey(label: string): FieldKey | null {
  const folded = fold(label)
  if (folded === '') return null
  const exact = byFolded.get(folded)
  if (exact) return exact
  // The same near misses come back in every contract: each folded label is measured once.
  const known = nearMisses.get(folded)
  if (known !== undefined) return known
  const found = closestKnown(folded)
  if (nearMisses.size >= nearMissLimit) nearMisses.clear()
  nearMisses.set(folded, found)
  return found
}

const nearMisses = new Map<string, FieldKey | null>()
const nearMissLimit = 4096

/** The one known label within a small edit distance of `folded`, if unique. */
function closestKnown(folded: string): FieldKey | null {
  // Short words (`If`, `In`, `It`) are too close to `ID` to be typos of it.
  const allowed = folded.length <= 3 ? 0 : folded.length <= 6 ? 1 : 2
  let best: FieldKey | null = null
  let bestDistance = allowed + 1
  let tie = false
  for (const [known, key] of byFolded) {
    // The distance is at least the difference in length: a label too long or short to be a near miss is not measured.
    if (Math.abs(known.length - folded.length) > allowed) continue
    const distance = levenshteinEditDistance(folded, known)
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

/** Whether a label names a known field exactly but for case and separators. */
export function isKnownLabel(label: string): boolean {
  return byFolded.has(fold(label))
}

function fold(label: string): string {
  return label.toLowerCase().replace(/[^a-z\d]/g, '')
}
