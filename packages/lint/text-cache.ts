// The lint cache of files already read, for a program that lints them in a
// worker (`tiers verify`): Node's own modules, vfile and plain data only, so
// a run whose files are all unchanged loads no engine, parser, rule, preset
// or reporter.
export {lintedTextsOf, openTextLintCache} from './lib/text-cache.js'
export type {LintedText, TextLintCache} from './lib/text-cache.js'
export type {MessageData} from './lib/message-data.js'
export type {FileText} from './lib/lint-file.js'
