/**
 * Push every value of `values` onto `target`, in order. Not
 * `target.push(...values)`: that passes each value as an argument, and
 * throws past about 120,000 of them, a list a long document can hold.
 */
export function appendAll<Value>(target: Value[], values: readonly Value[]): void {
  for (const value of values) target.push(value)
}
