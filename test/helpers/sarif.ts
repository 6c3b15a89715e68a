/**
 * The SARIF 2.1.0 schema check the reporter tests share: a log is parsed and
 * validated against the schema (`@microsoft/jest-sarif`’s copy of the OASIS
 * schema), with every error listed on failure.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import AjvDraft04 from 'ajv-draft-04'
import ajvFormats from 'ajv-formats'
import {expect} from 'vitest'

export interface SarifRegion {
  startLine: number
  startColumn: number
  endLine?: number
  endColumn?: number
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: string
  message: {text: string}
  locations: Array<{physicalLocation: {artifactLocation: {uri: string; uriBaseId: string}; region?: SarifRegion}}>
}

export interface SarifLog {
  version: string
  runs: Array<{tool: {driver: {name: string; version?: string; informationUri?: string; rules: Array<{id: string; helpUri?: string}>}}; results: SarifResult[]}>
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

// CommonJS packages whose `module.exports` is also their `default`: NodeNext types the default import as the module.
const Ajv = AjvDraft04.default
const addFormats = ajvFormats.default
const sarifSchema = JSON.parse(
  readFileSync(path.join(root, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')
) as object
// The schema's `language` pattern (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) is not valid with the `u` flag.
const ajv = new Ajv({allErrors: true, strict: false, unicodeRegExp: false})
addFormats(ajv)

/** The schema’s validator: `true` for a valid log, with `errors` set otherwise. */
export const validateSarif = ajv.compile(sarifSchema)

/** Parse `text` as SARIF and expect it valid against the SARIF 2.1.0 schema. */
export function validSarif(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog
  const valid = validateSarif(log)
  expect(validateSarif.errors ?? [], 'SARIF schema errors').toEqual([])
  expect(valid).toBe(true)
  return log
}
