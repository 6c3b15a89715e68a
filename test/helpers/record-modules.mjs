/**
 * Preloaded into a `tiers` process (`node --import`) to see what a run
 * loads: with `TIERS_TEST_MODULES` naming a file, the URL of every module
 * resolved, in the process and in its worker threads (which inherit the
 * preload), is appended to that file, one a line. Node 20's resolve hooks do
 * not see `require()`: the CommonJS modules in the process's require cache
 * are appended too, as it exits.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import {appendFileSync} from 'node:fs'
import {createRequire, register} from 'node:module'
import {pathToFileURL} from 'node:url'

const log = process.env.TIERS_TEST_MODULES
if (log) {
  register('./record-modules-hooks.mjs', import.meta.url, {data: {log}})
  const cache = createRequire(import.meta.url).cache
  process.on('exit', () =>
    appendFileSync(
      log,
      Object.keys(cache)
        .map((file) => `${pathToFileURL(file).href}\n`)
        .join('')
    )
  )
}
