// The gate's error classes alone, for a program that tells its errors apart (by exit code) without loading the runtime.
export {ConcurrentChangeError} from './lib/concurrent-change.js'
export {GateError} from './lib/gate-error.js'
