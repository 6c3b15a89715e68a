// A project's settings files, read and checked against their schemas, without the rest of the protocol's modules.
export {
  excludePatternProblem,
  freshnessExcludeRule,
  isNearMiss,
  nearMissEdits,
  parseProjectConfig,
  projectFreshnessExclude,
  projectReadLimits,
  projectTestCommand,
  readProjectConfig,
  settingsKeys,
  settingsSchemas
} from './lib/settings.js'
export type {ProjectConfig, ReadConfig, SettingsFile, SettingsSchema} from './lib/settings.js'
