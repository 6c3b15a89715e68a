/**
 * A project’s settings: Greenlight’s `config.json`, and the `tiers.json` of
 * another tool’s folder. Each file has a JSON schema (`settings-schemas`),
 * checked by the validator ajv compiled from it at build time; what
 * tiers reads of it must have the right type, and every fault is one line
 * naming the file, the line and column of the value, the key and what was
 * expected. A key given twice, and a near miss of a key the schema names
 * where that key is missing (`"commnad"`, `"tests"`, `"Test"`), are faults
 * too: either would turn a setting off without a word. Other keys belong to
 * other tools and are not checked.
 */
import {editDistance} from '@verification-tiers/contracts/edit-distance'
import {defaultReadLimits, findDuplicateKey, FileReadError, inputLimits, jsonPlace, parseJsonText, readInputFile} from '@verification-tiers/input'
import type {ReadLimits} from '@verification-tiers/input'
import {settingsValidators} from '@verification-tiers/protocol/settings-validators'
import type {SettingsFault} from '@verification-tiers/protocol/settings-validators'
import {excludePatternProblem, settingsSchemas} from './settings-schemas.js'
import type {SettingsFile, SettingsSchema} from './settings-schemas.js'
import {rejectionThreshold} from './vocabulary.js'

export {excludePatternProblem, freshnessExcludeRule, settingsSchemas} from './settings-schemas.js'
export type {SettingsFile, SettingsSchema} from './settings-schemas.js'

/** The part of a settings file the runtime reads; other keys are other tools’. */
export interface ProjectConfig {
  mode?: unknown
  workflow?: {visual_checkpoint?: unknown; rejection_threshold?: unknown} | undefined
}

/** A settings file, checked, and the rejection threshold it sets. */
export interface ReadConfig {
  config: ProjectConfig
  threshold: number
}

/** The keys a settings file’s schema names, by the object they are in (`''`: the file’s top level): a near miss of one is a fault. */
export function settingsKeys(file: SettingsFile): Readonly<Record<string, readonly string[]>> {
  const schema = settingsSchemas[file]
  const keys: Record<string, string[]> = {'': Object.keys(schema.properties ?? {})}
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    if (inner.properties) keys[key] = Object.keys(inner.properties)
  }
  return keys
}

/** A key of a kind another tool would not use: at most this many edits away from one tiers reads. */
export const nearMissEdits = 2

/** Whether `key` is `expected` misspelt: another case, or within `nearMissEdits` edits of it. */
export function isNearMiss(key: string, expected: string): boolean {
  return key !== expected && editDistance(key.toLowerCase(), expected.toLowerCase(), nearMissEdits) <= nearMissEdits
}

/**
 * Read a settings file (optional: none is `{}`), as every input is read,
 * and check it (see `parseProjectConfig`).
 */
export async function readProjectConfig(file: string, kind: SettingsFile = 'config.json'): Promise<ReadConfig> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  if (text === undefined) return {config: {}, threshold: rejectionThreshold}
  return parseProjectConfig(file, text, kind)
}

/**
 * Parse and check the text of a settings file: JSON, each key once, the
 * schema of `kind`, no near miss of a key it names. A fault is a
 * `FileReadError` naming `file`, the line and column, and the key.
 */
export function parseProjectConfig(file: string, text: string, kind: SettingsFile = 'config.json'): ReadConfig {
  const value = parseJsonText(file, text)
  const duplicate = findDuplicateKey(text)
  if (duplicate) {
    const where = duplicate.path.length > 0 ? ` in \`${duplicate.path.join('.')}\`` : ''
    throw new FileReadError(file, `Unexpected second \`${duplicate.key}\`${where}, expected each key once: JSON keeps only the last one`, duplicate.place)
  }
  // Compiled by ajv at build time (generate-protocol): it stops at the first
  // fault, which is the message, and keeps the schema and the value that
  // failed, which the message is made of. `bench/settings.mjs` (CPU time of
  // `tiers status` on the example project, with its config.json and without,
  // trimmed mean of 60 runs): reading the settings costs 6 ms with it, and
  // cost 37 ms when each process loaded ajv and compiled the schema.
  const validate = settingsValidators[kind]
  if (!validate(value)) {
    const fault = validate.errors![0]
    const path = pathOf(value, fault.instancePath)
    throw new FileReadError(file, faultReason(fault, path), jsonPlace(text, path))
  }
  const config = value as Record<string, unknown>
  const misspelt = findMisspeltKey(config, settingsKeys(kind))
  if (misspelt) {
    const at = (key: string) => [...misspelt.path.slice(0, -1), key].join('.')
    throw new FileReadError(
      file,
      `Unexpected key \`${at(misspelt.path.at(-1)!)}\`, expected \`${at(misspelt.expected)}\` (did you mean \`${misspelt.expected}\`?)`,
      jsonPlace(text, misspelt.path)
    )
  }
  const threshold = (config.workflow as {rejection_threshold?: number} | undefined)?.rejection_threshold
  return {config, threshold: threshold ?? rejectionThreshold}
}

/** The project’s own test command (`test.command`), or `null` when it sets none. */
export function projectTestCommand(config: ProjectConfig): string | null {
  const command = (config as {test?: {command?: unknown}}).test?.command
  return typeof command === 'string' && command.trim() !== '' ? command : null
}

/** What the project leaves out of the fingerprint besides the defaults (`freshness.exclude`, checked by `parseProjectConfig`). */
export function projectFreshnessExclude(config: ProjectConfig): string[] {
  const exclude = (config as {freshness?: {exclude?: unknown}}).freshness?.exclude
  return Array.isArray(exclude) ? exclude.filter((entry): entry is string => typeof entry === 'string') : []
}

/**
 * How much of the project the gate reads (`limits.file_mib` and
 * `limits.total_mib`, in MiB, checked by the settings’ schema), in bytes;
 * `defaultReadLimits` where unset.
 */
export function projectReadLimits(config: ProjectConfig): ReadLimits {
  const limits = (config as {limits?: {file_mib?: unknown; total_mib?: unknown}}).limits
  const bytes = (mebibytes: unknown, fallback: number) => (typeof mebibytes === 'number' && mebibytes > 0 ? Math.floor(mebibytes * 1024 * 1024) : fallback)
  return {file: bytes(limits?.file_mib, defaultReadLimits.file), total: bytes(limits?.total_mib, defaultReadLimits.total)}
}

/** `Unexpected …, expected …` for the first fault ajv found, at `path` (keys, and list indexes as numbers). */
function faultReason(fault: SettingsFault, path: ReadonlyArray<string | number>): string {
  const schema = fault.parentSchema as SettingsSchema
  const expected =
    typeof schema.expected === 'string' ? schema.expected : (schema.expected?.[fault.keyword] ?? schema.expected?.type ?? 'a value the schema allows')
  const key = path.filter((segment) => typeof segment === 'string').join('.')
  const value: unknown = fault.data
  if (path.length === 0) return `Unexpected ${describe(value)}, expected ${expected}`
  if (typeof path.at(-1) === 'number') {
    const problem = typeof value === 'string' ? excludePatternProblem(value) : null
    const what = typeof value === 'string' ? `\`${JSON.stringify(value)}\`${problem ? ` (${problem})` : ''}` : describe(value)
    return `Unexpected ${what} in \`${key}\`, expected ${expected}`
  }
  if (fault.keyword === 'pattern') return `Unexpected empty \`${key}\`, expected ${expected}`
  return `Unexpected \`${key}\` ${schema.shown === 'json' ? JSON.stringify(value) : describe(value)}, expected ${expected}`
}

/** The keys and list indexes of a JSON pointer into `value` (`/freshness/exclude/0`). */
function pathOf(value: unknown, pointer: string): Array<string | number> {
  const path: Array<string | number> = []
  let at = value
  for (const escaped of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const segment = escaped.replaceAll('~1', '/').replaceAll('~0', '~')
    path.push(Array.isArray(at) ? Number(segment) : segment)
    at = (at as Record<string, unknown>)[segment]
  }
  return path
}

/** A key that is a near miss of one the schema names, which is missing beside it. */
interface MisspeltKey {
  /** Path of the misspelt key (`['test', 'commnad']`). */
  path: string[]
  /** The key it is near. */
  expected: string
}

/**
 * The first key of `config` that is a near miss of a key of `keys` at the
 * same level, when that key is not there itself: a different case, or at
 * most `nearMissEdits` letters added, removed, changed or swapped. Keys far
 * from every key tiers reads belong to other tools and are left alone.
 */
function findMisspeltKey(config: Record<string, unknown>, keys: Readonly<Record<string, readonly string[]>>): MisspeltKey | null {
  for (const [parent, known] of Object.entries(keys)) {
    const object = parent === '' ? config : config[parent]
    if (typeof object !== 'object' || object === null || Array.isArray(object)) continue
    const given = Object.keys(object)
    for (const expected of known) {
      if (Object.hasOwn(object, expected)) continue
      const near = given.find((key) => !known.includes(key) && isNearMiss(key, expected))
      if (near !== undefined) return {path: parent === '' ? [near] : [parent, near], expected}
    }
  }
  return null
}

/** A JSON value as messages name it: `` `null` ``, `` number `5` ``, `list`. */
function describe(value: unknown): string {
  if (value === null || typeof value === 'boolean') return `\`${String(value)}\``
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'object') return 'object'
  const json = JSON.stringify(value)
  return `${typeof value} \`${json.length > 40 ? `${json.slice(0, 39)}…` : json}\``
}
