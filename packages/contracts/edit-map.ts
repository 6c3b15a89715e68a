/**
 * Imported for its effect: micromark's `EditMap.prototype.consume` made
 * linear, when it is the known quadratic one (micromark-util-edit-map
 * 1.0.0), so markdown with many lists parses in linear time. Every module of
 * ours that parses markdown imports it; see `lib/edit-map.ts`.
 */
export {affectedConsume, editMapPatch, fingerprint, linearConsume, patchConsume} from './lib/edit-map.js'
export type {EditMapPatch} from './lib/edit-map.js'
