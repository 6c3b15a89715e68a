/** The graph’s error class alone, without the readers: for a command that reports errors but reads no graph. */
export {ProjectError} from './lib/errors.js'
