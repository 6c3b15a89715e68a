// Bounds each memo: a document of random text does not grow one without end.
const memoLimit = 4096

/**
 * `memo`'s value for `key`, made by `make(key)` the first time it is asked for:
 * for what the reader works out again and again from the same text (labels,
 * names, ids repeat in every contract). The memo is emptied when full.
 * `make` takes the key, so a caller passes a function made once, not a
 * closure made on every call.
 */
export function remembered<Value>(memo: Map<string, Value>, key: string, make: (key: string) => Value): Value {
  // One lookup for what is known (values may be `null`, never `undefined`: a miss is asked again with `has`).
  const known = memo.get(key)
  if (known !== undefined || memo.has(key)) return known as Value
  const made = make(key)
  if (memo.size >= memoLimit) memo.clear()
  memo.set(key, made)
  return made
}
