/**
 * Markdown with many lists parses in linear time: `EditMap.prototype.consume`
 * of micromark-util-edit-map 1.0.0 is replaced, on import, by one that gives
 * the same events without copying those before its first edit.
 *
 * Why: micromark's document tokenizer (`writeToChild`, on a lazy line, and
 * `documentContinue`, when flow closes) moves a container's exits with an
 * edit map once per list, and that edit is near the end of the document's
 * events. The original `consume` copies every event (`events.slice()`,
 * `events.length = 0`, every event pushed back), so each call costs the whole
 * document: 2,000 / 4,000 / 8,000 contracts of one list each parsed in
 * 1.2 / 3.9 / 16 s, and 0.8 MB tripped the gate's parse deadline. Leaving the
 * events before the first edit where they are, and rebuilding from there,
 * gives the same array: 435 / 787 / 1,668 ms, the same trees. (mdast-util-from-markdown fixed its own
 * quadratic list walk in 2.1.0, syntax-tree/mdast-util-from-markdown#49 and
 * #50; this is the one left, in micromark.)
 *
 * The replacement is made only when the installed `consume` is the known
 * original: its source, without comments, spaces and semicolons (the `dev`
 * and the default build of 1.0.0 differ only in those), hashes to
 * `affectedConsume`. Any other `consume` (a release that fixes it, or one
 * changed in any way) is left alone. `editMapPatch` says what was done.
 * `test/edit-map.property.test.ts` checks that the two give the same events
 * for any events and edits, and the same trees for any markdown.
 *
 * Imported for its effect by every module of ours that parses markdown (the
 * readers of tool files in `spec-tools`, `graph`'s `GRAPH.md` reader, `project`'s parse
 * worker, and `lint-rule`, which every rule and so the presets load before
 * remark parses): this file is in `sideEffects` of the package.
 */
import {createHash} from 'node:crypto'
import {EditMap} from 'micromark-util-edit-map'

type Consume = EditMap['consume']
type Events = Parameters<Consume>[0]

/** SHA-256 of micromark-util-edit-map 1.0.0's `consume`, as `fingerprint` reads it. */
export const affectedConsume = 'a6f35341626596e5766dd0dc93a251cf68c40e989188334e25fe6bd7b22072de'

/** What was done to `EditMap.prototype.consume` on import. */
export interface EditMapPatch {
  /** `patched`: the known original, replaced; `kept`: another `consume`, left alone. */
  state: 'patched' | 'kept'
  /** The `consume` found (the original, when patched). */
  original: Consume
}

/** A function's source without comments, white space and semicolons, hashed: the same for every build of the same code. */
export function fingerprint(fn: (...args: never[]) => unknown): string {
  const code = String(fn)
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/[\s;]+/g, '')
  return createHash('sha256').update(code).digest('hex')
}

/**
 * micromark-util-edit-map 1.0.0's `consume`, but linear in the events from
 * the first edit on: the events before it stay where they are, instead of
 * being copied out and pushed back. The result is the same array, for dense
 * `events` (micromark's always are); where the first edit is past the end,
 * the gap holds `undefined`, as the original's copy makes it.
 */
export function linearConsume(this: EditMap, events: Events): undefined {
  this.map.sort((a, b) => a[0] - b[0])
  if (this.map.length === 0) return
  const length = events.length
  const first = this.map[0][0]
  let index = this.map.length
  const vecs: Events[] = []
  // As the original: from the last edit back, what follows it and what it adds, then cut there.
  while (index > 0) {
    index -= 1
    const [at, remove, add] = this.map[index]
    vecs.push(events.slice(at + remove), add)
    events.length = at
  }
  // The original copies events[0, first) and pushes them back; they are already there (but a gap past the end, which its copy fills).
  for (let gap = length; gap < first; gap++) events[gap] = undefined as unknown as Events[number]
  let slice = vecs.pop()
  while (slice) {
    for (const element of slice) events.push(element)
    slice = vecs.pop()
  }
  this.map.length = 0
  this.index.clear()
}

/** Where a patched prototype keeps its original, so that a second copy of this module (two installs of the package) finds it patched. */
const originalKey = Symbol.for('@verification-tiers/contracts/edit-map:original')

/** Replace `consume` of `prototype` (`EditMap.prototype`) by `linearConsume`, only when it is the known original. */
export function patchConsume(prototype: {consume: Consume; [originalKey]?: Consume}): EditMapPatch {
  const kept = prototype[originalKey]
  if (kept) return {state: 'patched', original: kept}
  const original = prototype.consume
  if (fingerprint(original) !== affectedConsume) return {state: 'kept', original}
  prototype[originalKey] = original
  prototype.consume = linearConsume
  return {state: 'patched', original}
}

/** What this module did to micromark-util-edit-map's `EditMap` on import. */
export const editMapPatch: EditMapPatch = patchConsume(EditMap.prototype)
