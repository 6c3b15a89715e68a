import type {Tier} from './types.js'

/** The valid tiers, lowest first: a slice takes the highest of its contracts’. */
export const tiers: readonly Tier[] = ['auto', 'verify']

/** A contract with no tier is verified by a human: forgetting costs a checkpoint, not a silent approval. */
export const defaultTier: Tier = 'verify'

/** Tier text of a field value: `` `verify` `` reads as `verify`. */
export function readTier(value: string): string {
  return value.replace(/^`+\s*(.*?)\s*`+$/, '$1').trim()
}

/** Whether a text is exactly a valid tier. */
export function isTier(value: string | null): value is Tier {
  return value !== null && (tiers as readonly string[]).includes(value)
}

/** The tier a written value gives: invalid and missing tiers are `verify`, the safe side. */
export function effectiveTier(value: string | null): Tier {
  return isTier(value) ? value : defaultTier
}
