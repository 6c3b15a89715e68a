/** The project’s error classes alone, without the loader: for a command that reports errors but loads no project. */
export {firstLine, ProjectError, UserError} from './lib/errors.js'
