import {rejectionThreshold} from '@verification-tiers/protocol'
import isRecord from 'is-plain-obj'
import {findDuplicateKey, findMisspeltKey} from './config-keys.js'
import {FileReadError} from './file-error.js'
import {excludePatternProblem, freshnessExcludeRule} from './freshness.js'
import {jsonPlace, parseJsonText} from './json-file.js'
import {defaultReadLimits, inputLimits, readInputFile, readLimitCeilings} from './read-input.js'
import type {ReadLimits} from './read-input.js'
import type {ProjectConfig} from './report.js'

/** A project’s `config.json`, checked, and the rejection threshold it sets. */
export interface ReadConfig {
  config: ProjectConfig
  threshold: number
}

/**
 * Read a project’s `config.json` (optional: none is `{}`). What `tiers` reads
 * of it must have the right type: the file an object, `workflow` and `test`
 * objects, `workflow.rejection_threshold` a whole number of 1 or more,
 * `test.command` a string that is not blank, `freshness` an object and
 * `freshness.exclude` a list of paths or names to leave out of the
 * fingerprint (see `excludePatternProblem`); anything else is a
 * `FileReadError` naming the file, the line and column of the value and what
 * was expected. So is a key given twice in any object, and a near miss of a
 * key tiers reads where that key is missing (`"commnad"`, `"tests"`,
 * `"Test"`): either would turn a setting off without a word. Other keys
 * belong to other tools and are not checked.
 */
export async function readProjectConfig(file: string): Promise<ReadConfig> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  if (text === undefined) return {config: {}, threshold: rejectionThreshold}
  return parseProjectConfig(file, text)
}

/** Parse and check the text of a `config.json` (see `readProjectConfig`). */
export function parseProjectConfig(file: string, text: string): ReadConfig {
  const value = parseJsonText(file, text)
  const fail = (path: Array<string | number>, reason: string) => new FileReadError(file, reason, jsonPlace(text, path))
  const duplicate = findDuplicateKey(text)
  if (duplicate) {
    const where = duplicate.path.length > 0 ? ` in \`${duplicate.path.join('.')}\`` : ''
    throw new FileReadError(file, `Unexpected second \`${duplicate.key}\`${where}, expected each key once: JSON keeps only the last one`, duplicate.place)
  }
  if (!isRecord(value)) throw fail([], `Unexpected ${describe(value)}, expected an object of settings, such as \`{"test": {"command": "npm test"}}\``)
  const {workflow, test, freshness, limits} = value
  if (workflow !== undefined && !isRecord(workflow)) {
    throw fail(['workflow'], `Unexpected \`workflow\` ${describe(workflow)}, expected an object, such as \`{"rejection_threshold": 3}\``)
  }
  if (test !== undefined && !isRecord(test)) {
    throw fail(['test'], `Unexpected \`test\` ${describe(test)}, expected an object, such as \`{"command": "npm test"}\``)
  }
  if (freshness !== undefined && !isRecord(freshness)) {
    throw fail(['freshness'], `Unexpected \`freshness\` ${describe(freshness)}, expected an object, such as \`{"exclude": ["reports/"]}\``)
  }
  if (limits !== undefined && !isRecord(limits)) {
    throw fail(['limits'], `Unexpected \`limits\` ${describe(limits)}, expected an object, such as \`{"file_mib": 2, "total_mib": 8}\``)
  }
  const misspelt = findMisspeltKey(value)
  if (misspelt) {
    const at = (key: string) => [...misspelt.path.slice(0, -1), key].join('.')
    throw fail(misspelt.path, `Unexpected key \`${at(misspelt.path.at(-1) as string)}\`, expected \`${at(misspelt.expected)}\` (did you mean \`${misspelt.expected}\`?)`)
  }
  const command = test?.command
  if (command !== undefined && typeof command !== 'string') {
    throw fail(['test', 'command'], `Unexpected \`test.command\` ${describe(command)}, expected the project’s test command as a string`)
  }
  if (typeof command === 'string' && command.trim() === '') {
    throw fail(['test', 'command'], `Unexpected empty \`test.command\`, expected the project’s test command, such as \`npm test\`, or no \`command\` key to run none`)
  }
  const exclude = freshness?.exclude
  if (exclude !== undefined && !Array.isArray(exclude)) {
    throw fail(['freshness', 'exclude'], `Unexpected \`freshness.exclude\` ${describe(exclude)}, expected a list of what to leave out of the fingerprint, such as \`["reports/", "*.xml"]\``)
  }
  for (const [index, entry] of (exclude ?? []).entries()) {
    const problem = typeof entry === 'string' ? excludePatternProblem(entry) : describe(entry)
    if (!problem) continue
    const what = typeof entry === 'string' ? `\`${JSON.stringify(entry)}\` (${problem})` : describe(entry)
    throw fail(['freshness', 'exclude', index], `Unexpected ${what} in \`freshness.exclude\`, expected ${freshnessExcludeRule}`)
  }
  for (const key of ['file_mib', 'total_mib'] as const) {
    const mebibytes = limits?.[key]
    if (mebibytes === undefined || (typeof mebibytes === 'number' && mebibytes > 0 && mebibytes <= readLimitCeilings[key])) continue
    throw fail(['limits', key], `Unexpected \`limits.${key}\` ${describe(mebibytes)}, expected a number of MiB above 0 and at most ${readLimitCeilings[key]}`)
  }
  const threshold = workflow?.rejection_threshold
  if (threshold !== undefined && !(typeof threshold === 'number' && Number.isSafeInteger(threshold) && threshold >= 1)) {
    throw fail(['workflow', 'rejection_threshold'], `Unexpected \`workflow.rejection_threshold\` ${JSON.stringify(threshold)}, expected a whole number of 1 or more`)
  }
  return {config: value as ProjectConfig, threshold: (threshold as number | undefined) ?? rejectionThreshold}
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
 * `limits.total_mib`, in MiB, checked by `parseProjectConfig`), in bytes;
 * `defaultReadLimits` where unset.
 */
export function projectReadLimits(config: ProjectConfig): ReadLimits {
  const limits = (config as {limits?: {file_mib?: unknown; total_mib?: unknown}}).limits
  const bytes = (mebibytes: unknown, fallback: number) => (typeof mebibytes === 'number' && mebibytes > 0 ? Math.floor(mebibytes * 1024 * 1024) : fallback)
  return {file: bytes(limits?.file_mib, defaultReadLimits.file), total: bytes(limits?.total_mib, defaultReadLimits.total)}
}

/** A JSON value as messages name it: `` `null` ``, `` number `5` ``, `a list`. */
function describe(value: unknown): string {
  if (value === null || typeof value === 'boolean') return `\`${String(value)}\``
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'object') return 'object'
  const json = JSON.stringify(value)
  return `${typeof value} \`${json.length > 40 ? `${json.slice(0, 39)}…` : json}\``
}
