export {contractRule, inlineCode, report, repositoryUrl, ruleUrl} from './lib/index.js'
export type {ContractCheck, ReportFields} from './lib/index.js'
