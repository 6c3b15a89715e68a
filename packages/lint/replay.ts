// What `tiers lint` needs before it knows whether the cache answers the run
// whole: Node’s own modules and plain data only, so a run it answers loads
// no engine, parser, rule, vfile or reporter.
export {replayLintOutput} from './lib/output.js'
export type {LintOutput, OutputWrite} from './lib/cache-file.js'
export {defaultLintBaselinePath, defaultLintCachePath, lintFormats} from './lib/settings.js'
export type {LintFormat, LintSettings} from './lib/settings.js'
