// What `tiers lint` needs to run, without loading the engine, the parser or a
// rule up front: each loads when a file must be found or linted, so a run
// that the cache answers whole loads none of them.
export {lintFiles} from './lib/run.js'
export type {LintProgram, LintResult, Notify, OutputOf} from './lib/run.js'
export type {LintOutput, OutputWrite} from './lib/cache-file.js'
export {lintFormats} from './lib/settings.js'
export type {LintFormat, LintSettings} from './lib/settings.js'
export {writeReport} from './lib/report.js'
export {defaultLintCachePath} from './lib/cache.js'
export {defaultLintBaselinePath} from './lib/baseline.js'
