export {reporterGithub as default, reporterGithub} from './lib/index.js'
export type {Command, Options} from './lib/index.js'
