// The JSON schemas of a project's settings files, which generate-protocol compiles into the validators `settings` loads.
export {excludePatternProblem, freshnessExcludeRule, settingsSchemas} from './lib/settings-schemas.js'
export type {SettingsFile, SettingsSchema} from './lib/settings-schemas.js'
