/**
 * Preloaded into a `tiers` process (`node --import`) to see what a run
 * loads: with `TIERS_TEST_MODULES` naming a file, the URL of every module
 * resolved, in the process and in its worker threads (which inherit the
 * preload), is appended to that file, one a line.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import {register} from 'node:module'

const log = process.env.TIERS_TEST_MODULES
if (log) register('./record-modules-hooks.mjs', import.meta.url, {data: {log}})
