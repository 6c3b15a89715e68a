import {contractKey} from '@verification-tiers/contracts/gate-terms'
import type {Graph, GraphRef, GraphSlice} from './graph.js'

/** What a graph may call a contract by: its id (if it has one) and its name. */
export interface ContractNames {
  id: string | null
  name: string
}

/** Contracts by what a graph may call them: their ids’ keys first, then their names’ (the first contract of each). */
export interface ContractIndex<Item> {
  byId: Map<string, Item>
  byName: Map<string, Item>
  /** Letters the project’s contract ids start with (`C`, `AUTH`): a word of that shape names a contract. */
  prefixes: Set<string>
  /** The id and name of an item. */
  namesOf: (item: Item) => ContractNames
}

/** A word of a text naming contracts, and where it starts: `C32` of `C32 (disk access).`. */
interface Token {
  text: string
  index: number
}

/** A word of a slice's `Contracts:` text, with its key (`contractKey`) and, when it has the shape of an id (`C-32`), the letters before the digits. */
interface KeyedToken extends Token {
  key: string
  idPrefix: string | null
}

function tokens(text: string): Token[] {
  return [...text.matchAll(/[\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?/gu)].map((match) => ({text: match[0], index: match.index}))
}

// The words of each `Contracts:` text read: every document linted against a graph matches the same texts.
const keyedTokens = new Map<string, KeyedToken[]>()
const keyedTokensLimit = 4096

function keyedTokensOf(text: string): KeyedToken[] {
  let known = keyedTokens.get(text)
  if (!known) {
    known = tokens(text).map((token) => {
      const key = contractKey(token.text)
      return {...token, key, idPrefix: /^(\p{L}+)-\d+$/u.exec(key)?.[1] ?? null}
    })
    // A long-lived process (an editor's server) reads many graphs: the oldest texts go first.
    if (keyedTokens.size >= keyedTokensLimit) keyedTokens.delete(keyedTokens.keys().next().value!)
    keyedTokens.set(text, known)
  }
  return known
}

/**
 * What a graph lists, for the contract reader (`analyzeContracts(tree, file,
 * {names})`): a heading of one of these names is a contract. Every entry of a
 * GRAPH.json list; of a GRAPH.md’s prose, the words with a letter and a digit
 * (ids).
 */
export function graphNames(graph: Pick<Graph, 'slices'>): string[] {
  const names = new Set<string>()
  for (const slice of graph.slices) {
    for (const ref of slice.contracts) names.add(ref.text.trim())
    for (const ref of slice.contractsText) for (const token of tokens(ref.text)) if (/\p{L}/u.test(token.text) && /\d/.test(token.text)) names.add(token.text)
  }
  return [...names].sort()
}

/** Index contracts (or anything that holds one: `namesOf` gives its id and name) the way a graph refers to them. */
export function indexContracts<Item>(items: readonly Item[], namesOf: (item: Item) => ContractNames): ContractIndex<Item> {
  const byId = new Map<string, Item>()
  const byName = new Map<string, Item>()
  const prefixes = new Set<string>()
  for (const item of items) {
    const {id, name} = namesOf(item)
    if (id) {
      const key = contractKey(id)
      if (!byId.has(key)) byId.set(key, item)
      const prefix = /^(\p{L}+)-\d+$/u.exec(key)
      if (prefix) prefixes.add(prefix[1])
    }
    const nameKey = contractKey(name)
    if (name.trim() !== '' && !byName.has(nameKey)) byName.set(nameKey, item)
  }
  return {byId, byName, prefixes, namesOf}
}

/** The contract a graph entry names, by id first, then by name (any case, spaces around ignored). */
export function lookupContract<Item>(index: ContractIndex<Item>, text: string): Item | undefined {
  const key = contractKey(text)
  return index.byId.get(key) ?? index.byName.get(key)
}

/**
 * The contracts a slice’s `Contracts:` text names, in the order written:
 * every word that is a contract id, and every contract name written in it as
 * words (case as written). Words of the shape of the project’s ids that no
 * contract has are returned as `missing`.
 */
export function contractsInText<Item>(index: ContractIndex<Item>, text: string): {found: Item[]; missing: string[]} {
  const hits: Array<{at: number; item: Item}> = []
  const missing: string[] = []
  for (const token of keyedTokensOf(text)) {
    const item = index.byId.get(token.key)
    if (item) hits.push({at: token.index, item})
    else if (token.idPrefix !== null && index.prefixes.has(token.idPrefix)) missing.push(token.text)
  }
  for (const item of index.byName.values()) {
    const name = index.namesOf(item).name.trim()
    if (name === '') continue
    let from = 0
    for (let at = text.indexOf(name, from); at !== -1; at = text.indexOf(name, from)) {
      const before = text[at - 1] ?? ' '
      const after = text[at + name.length] ?? ' '
      if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) {
        hits.push({at, item})
        break
      }
      from = at + 1
    }
  }
  const found = [...new Set(hits.sort((a, b) => a.at - b.at).map((hit) => hit.item))]
  return {found, missing}
}

/** A slice’s contracts as matched: each once, in the order listed, and the entries no contract matches. */
export interface SliceMatch<Item> {
  found: Item[]
  /** Entries that match no contract, each once (by its key), as the graph writes them, with their line. */
  missing: GraphRef[]
}

/**
 * Match a slice’s entries to contracts: a listed entry by id (whatever the
 * case, hyphen and leading zeros: `C5` finds `C-05`) or by name (any case,
 * spaces around ignored); a `Contracts:` text by every id and name in it.
 */
export function matchSlice<Item>(index: ContractIndex<Item>, slice: Pick<GraphSlice, 'contracts' | 'contractsText'>): SliceMatch<Item> {
  const found = new Set<Item>()
  const missing = new Map<string, GraphRef>()
  const miss = (text: string, line: number | null) => {
    if (!missing.has(contractKey(text))) missing.set(contractKey(text), {text, line})
  }
  for (const ref of slice.contracts) {
    const item = lookupContract(index, ref.text)
    if (item) found.add(item)
    else miss(ref.text, ref.line)
  }
  for (const ref of slice.contractsText) {
    const read = contractsInText(index, ref.text)
    for (const item of read.found) found.add(item)
    for (const text of read.missing) miss(text, ref.line)
  }
  return {found: [...found], missing: [...missing.values()]}
}

/**
 * Each contract’s slices in a graph, as the gate places it: the slices that
 * list it, else the graph’s slice its own Slice field names (`slice` of
 * `namesOf`, any case), else none.
 */
export function slicesByContract<Item>(
  slices: readonly GraphSlice[],
  items: readonly Item[],
  namesOf: (item: Item) => ContractNames & {slice?: string | null}
): Map<Item, GraphSlice[]> {
  const index = indexContracts(items, namesOf)
  const placed = new Map<Item, GraphSlice[]>()
  for (const slice of slices) {
    for (const item of matchSlice(index, slice).found) placed.set(item, [...(placed.get(item) ?? []), slice])
  }
  const byId = new Map(slices.map((slice) => [slice.id.toLowerCase(), slice]))
  for (const item of items) {
    const named = namesOf(item).slice?.toLowerCase()
    const slice = named === undefined ? undefined : byId.get(named)
    if (!placed.has(item) && slice) placed.set(item, [slice])
  }
  return placed
}
