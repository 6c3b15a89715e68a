export {defaultTool, reporterSarif as default, reporterSarif, engineRuleId} from './lib/index.js'
export type {Options, Tool} from './lib/index.js'
