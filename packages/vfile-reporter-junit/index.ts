export {cleanTestCaseName, reporterJunit as default, reporterJunit} from './lib/index.js'
export type {Options} from './lib/index.js'
