export {default} from './lib/index.js'
export type {Options} from './lib/index.js'
