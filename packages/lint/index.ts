export {lintFiles} from './lib/run.js'
export type {LintProgram, LintResult, Notify, OutputOf} from './lib/run.js'
export {replayLintOutput} from './lib/output.js'
export type {LintOutput, OutputWrite} from './lib/cache-file.js'
export {lintTexts} from './lib/lint-file.js'
export {checkEngineConfigFiles, engineConfigNames} from './lib/config-files.js'
// The error of a file that cannot be used (a baseline, a configuration file the engine would open), as every package names one.
export {FileReadError} from '@verification-tiers/input/read'
export type {FileText} from './lib/lint-file.js'
export {findFiles, lintWithEngine, remarkEngineOptions} from './lib/engine.js'
export type {LintInput} from './lib/engine.js'
export {lintFormats} from './lib/settings.js'
export type {LintFormat, LintSettings} from './lib/settings.js'
export {formatReport, writeReport} from './lib/report.js'
export type {Report} from './lib/report.js'
export {applyFixes, planFixes} from './lib/fix.js'
export type {FilePlan, Fix} from './lib/fix.js'
export {fixFiles} from './lib/apply.js'
export type {FixOutcome} from './lib/apply.js'
export {defaultLintCachePath, openLintCache} from './lib/cache.js'
export type {LintCache} from './lib/cache.js'
export {
  applyLintBaseline,
  defaultLintBaselinePath,
  formatLintBaseline,
  lintBaselineOf,
  lintBaselineSize,
  mergeLintBaseline,
  parseLintBaseline,
  readLintBaseline,
  writeLintBaseline
} from './lib/baseline.js'
export type {BaselineOutcome, LintBaseline} from './lib/baseline.js'
