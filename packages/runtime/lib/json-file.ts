import {inputLimits, readInputFile} from '@verification-tiers/input'
import {updateLocked} from './lock.js'

// Read with positions by the input package; here for the state files that read them.
export {jsonPlace, parseJson} from '@verification-tiers/input'

/** How to read one kind of JSON file: parse its text (throwing on bad content), or start afresh when it is missing. */
export interface JsonFileKind<Value> {
  parse: (file: string, text: string) => Value
  empty: () => Value
}

/**
 * Read a JSON file of a kind; a missing file is the kind’s empty value. Read
 * as every input is: a regular file of at most `inputLimits.json` bytes.
 */
export async function readJsonFile<Value>(file: string, kind: JsonFileKind<Value>): Promise<Value> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  return text === undefined ? kind.empty() : kind.parse(file, text)
}

/**
 * Change a JSON file under a lock and write it atomically: concurrent callers
 * never lose an update, and a crash never leaves a half-written file. When
 * `change` throws, nothing is written; a holder that lost its lock writes
 * only over the file it read (see `updateLocked`).
 */
export async function updateJsonFile<Value, Result>(
  file: string,
  kind: JsonFileKind<Value>,
  change: (value: Value) => Result | Promise<Result>
): Promise<Result> {
  return updateLocked(file, {read: () => readJsonFile(file, kind), change, serialize: (value) => JSON.stringify(value, null, 2) + '\n'})
}
