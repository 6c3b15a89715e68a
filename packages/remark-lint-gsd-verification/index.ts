export {default} from './lib/index.js'
