/**
 * The validators of the settings files, compiled by ajv from
 * `settingsSchemas` into `settings-validators.generated.js` by
 * generate-protocol (standalone code: loading them loads no ajv).
 */

/** The first fault a validator found, as ajv reports it with `verbose`. */
export interface SettingsFault {
  /** JSON pointer to the value that failed (`/freshness/exclude/0`). */
  instancePath: string
  /** The schema keyword that failed (`type`, `pattern`, `enum`). */
  keyword: string
  /** The schema holding that keyword. */
  parentSchema: unknown
  /** The value that failed. */
  data: unknown
}

/** Whether a settings file's value passes its schema; when not, `errors` holds the first fault. */
export interface SettingsValidator {
  (data: unknown): boolean
  errors?: SettingsFault[] | null
}

/** The validator of each settings file, by name. */
export declare const settingsValidators: Readonly<Record<'config.json' | 'tiers.json', SettingsValidator>>
