export {default} from './lib/index.js'
export {defaultVaguePhrases} from './lib/index.js'
export type {Options} from './lib/index.js'
