import {IdError, isSliceId, isTier} from '@verification-tiers/contracts/gate-terms'
import type {Tier} from '@verification-tiers/contracts/terms'
import {ProjectError} from './errors.js'

/** A contract as a graph refers to it: an id or a name, as written, and where. */
export interface GraphRef {
  text: string
  /** 1-based line, `null` when the file gives none. */
  line: number | null
}

/** One slice of a project’s graph: what it lists, the tier it states and its own check. */
export interface GraphSlice {
  id: string
  name: string
  /** Line of the slice’s heading or entry. */
  line: number | null
  /** Contracts listed one by one (a GRAPH.json list): each must match a contract. */
  contracts: GraphRef[]
  /** Text that names contracts among other words (a GRAPH.md `Contracts:` field): every known contract id or name in it is taken. */
  contractsText: GraphRef[]
  /** The tier the graph states for the slice; contracts without a tier of their own take it. */
  tier: Tier | null
  /** What the slice’s own tier line asks a person to check, `null` when nothing. */
  humanCheck: string | null
  /** Why the slice’s human check was retired: it asks no one, and the reason is shown. */
  retired: string | null
  /** What the slice’s tests prove, as the graph words it. */
  verification: string | null
}

/** Something in a graph the reader saw but could not read as a slice; the gate counts each against the stop. */
export interface GraphProblem {
  /** Path as messages show it. */
  file: string
  /** 1-based line, or `null` when the problem is the whole file. */
  line: number | null
  /** One line, without the file: `Unexpected …, expected …`. */
  message: string
}

/** A project’s slice graph as read. */
export interface Graph {
  from: 'GRAPH.json' | 'GRAPH.md'
  /** Path as messages show it. */
  file: string
  slices: GraphSlice[]
}

/** A graph as read from a folder: its slices, and what of it could not be read as a slice. */
export type FolderGraph = Graph & {problems: GraphProblem[]}

/**
 * A slice id read from a project file, or a `ProjectError` naming the file
 * (`where` is `file` or `file:line`) and the id: state files are named by
 * slice ids, so `../x` must never become one.
 */
export function checkSliceId(id: string, where: string): string {
  if (!isSliceId(id)) throw new ProjectError(where, new IdError('slice', id).message)
  return id
}

/** `file:line`, or `file` when the line is unknown. */
export function placeOf(file: string, line: number | null): string {
  return line === null ? file : `${file}:${line}`
}

/**
 * Refuse two slices whose ids differ only in case (`s-01` and `S-01`): state
 * files and `tiers respond` find slices in any case, so one would answer for
 * the other. One error naming both places.
 */
export function checkUniqueSliceIds(slices: readonly GraphSlice[], file: string): void {
  const seen = new Map<string, GraphSlice>()
  for (const slice of slices) {
    const first = seen.get(slice.id.toLowerCase())
    if (first) {
      const at = first.line === null ? '' : ` at line ${first.line}`
      throw new ProjectError(
        placeOf(file, slice.line),
        `Unexpected second slice ${JSON.stringify(slice.id)}, the same id as ${JSON.stringify(first.id)}${at} in any case, expected slice ids that differ in more than case`
      )
    }
    seen.set(slice.id.toLowerCase(), slice)
  }
}

/** What a tier text says: the tier for gating, a human check, a retired check’s reason. */
export interface TierText {
  tier: Tier | null
  humanCheck: string | null
  retired: string | null
}

// A tier word, then the end or punctuation and prose: `verify`, `Verify. Human check: …`, `auto; done`.
const tierWord = /^[`*_]*(auto|verify)[`*_]*(?=$|[\s]*[.;,:!—–(-]|\s*$)[\s.;,:!—–-]*([\s\S]*)$/i
// A check that was asked and is not any more: `was verify; the check is retired …`.
const retiredWords = /^was\b|\bretired\b/i
const humanCheckLabel = /\bhuman\s+check\s*:\s*([\s\S]*)$/i

/**
 * Read a slice’s tier text (`verify. Human check: grant access and watch`):
 * the tier word first, and a `Human check:` in the prose after it. A text
 * that says a former check was retired gives the tier `auto` (it asks no
 * one) and keeps the whole text as the reason. `null` when the text has no
 * tier word and says nothing retired.
 */
export function readTierText(text: string): TierText | null {
  const value = oneLine(text)
  const word = tierWord.exec(value)
  if (word) {
    const tier = word[1].toLowerCase()
    if (!isTier(tier)) return null
    const check = humanCheckLabel.exec(word[2] ?? '')
    return {tier, humanCheck: check ? oneLine(check[1]) || null : null, retired: null}
  }
  if (retiredWords.test(value)) return {tier: 'auto', humanCheck: null, retired: value}
  return null
}

/** Text on one line: runs of white space as one space, trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
