/**
 * The keys of `config.json`, checked as the contracts are: a key given twice
 * (JSON readers keep the last one, silently), and a near miss of a key tiers
 * reads where that key is missing (`"commnad"`, `"tests"`, `"Test"`), which
 * would turn its setting off without a word.
 */
import {createRequire} from 'node:module'
import isRecord from 'is-plain-obj'
import type * as JsoncParser from 'jsonc-parser'
import {editDistance} from './edit-distance.js'
import type {FilePlace} from './file-error.js'

const require = createRequire(import.meta.url)

/** The keys tiers reads, by the object they are in (`''`: the file’s top level). */
export const configKeys: Readonly<Record<string, readonly string[]>> = {
  '': ['test', 'workflow', 'verification', 'tasks', 'freshness', 'limits'],
  freshness: ['exclude'],
  limits: ['file_mib', 'total_mib'],
  tasks: ['optional'],
  test: ['command'],
  verification: ['default'],
  workflow: ['rejection_threshold', 'visual_checkpoint']
}

/** A key of a kind another tool would not use: at most this many edits away from one tiers reads. */
export const nearMissEdits = 2

/** A key found twice in one object: the second one, where it is, and the path of its object. */
export interface DuplicateKey {
  key: string
  path: string[]
  place: FilePlace
}

/**
 * The first key given twice in one object of JSON text (lines and columns
 * count from after a byte order mark), or `null`. jsonc-parser’s visitor
 * sees every property as written, which `JSON.parse` folds into one.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  const {visit} = require('jsonc-parser') as typeof JsoncParser
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  // One frame per open object or list: the keys seen in it, and the key or index it sits at.
  const frames: Array<{keys: Set<string> | null; at: string}> = []
  let pendingKey = ''
  let found: DuplicateKey | null = null
  const open = (keys: Set<string> | null) => {
    frames.push({keys, at: pendingKey})
    pendingKey = ''
  }
  visit(body, {
    onObjectBegin: () => open(new Set()),
    onArrayBegin: () => open(null),
    onObjectEnd: () => void frames.pop(),
    onArrayEnd: () => void frames.pop(),
    onObjectProperty(property, _offset, _length, startLine, startCharacter) {
      pendingKey = property
      const frame = frames.at(-1)
      if (found || !frame?.keys) return
      if (frame.keys.has(property)) {
        found = {key: property, path: frames.slice(1).map((each) => each.at), place: {line: startLine + 1, column: startCharacter + 1}}
      }
      frame.keys.add(property)
    }
  })
  return found
}

/** A key that is a near miss of one tiers reads, which is missing beside it. */
export interface MisspeltKey {
  /** Path of the misspelt key (`['test', 'commnad']`). */
  path: string[]
  /** The key tiers reads that it is near. */
  expected: string
}

/**
 * The first key of `config` (parsed) that is a near miss of a key tiers reads
 * at the same level, when that key is not there itself: a different case, or
 * at most `nearMissEdits` letters added, removed, changed or swapped. Keys
 * far from every key tiers reads belong to other tools and are left alone.
 */
export function findMisspeltKey(config: Record<string, unknown>): MisspeltKey | null {
  for (const [parent, known] of Object.entries(configKeys)) {
    const object = parent === '' ? config : config[parent]
    if (!isRecord(object)) continue
    const given = Object.keys(object)
    for (const expected of known) {
      if (Object.hasOwn(object, expected)) continue
      const near = given.find((key) => !known.includes(key) && isNearMiss(key, expected))
      if (near !== undefined) return {path: parent === '' ? [near] : [parent, near], expected}
    }
  }
  return null
}

/** Whether `key` is `expected` misspelt: another case, or within `nearMissEdits` edits of it. */
export function isNearMiss(key: string, expected: string): boolean {
  return key !== expected && editDistance(key.toLowerCase(), expected.toLowerCase()) <= nearMissEdits
}
