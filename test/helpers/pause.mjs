/**
 * Preloaded into a `tiers` process by the lock tests (`node --import`), to
 * stop it (SIGSTOP) at an exact point while it holds a state file’s lock, as
 * a suspended laptop or a stopped job would; the test resumes it with
 * SIGCONT. `TIERS_TEST_PAUSE` says where, as `<call>:<file name>:<counts>`:
 *
 * * `open:S-01.json:1`: at the first opening of `S-01.json` while
 *   `S-01.json.lock` exists (by `fs.promises.open` or `fs.openSync`), that
 *   is, with the lock just taken, before the state is read
 * * `stat:S-01.json:2,4`: at the 2nd and 4th `stat(…, {bigint: true})` of
 *   `S-01.json`, the version check a locked update makes before it reads
 *   (1st, 3rd) and before it writes (2nd, 4th)
 *
 * With `TIERS_TEST_PAUSE_LOG`, each pause first adds a line to that file.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import fs from 'node:fs'
import {syncBuiltinESMExports} from 'node:module'

const [call, name, counts] = (process.env.TIERS_TEST_PAUSE ?? '').split(':')
const at = new Set((counts ?? '').split(',').filter(Boolean).map(Number))

let seen = 0

/**
 * Wrap `object[method]` (`fs.promises.open`, or `fs.openSync`, which the
 * reader of every input opens with) so that the calls `matches` picks,
 * counted together, stop the process at the counts asked.
 */
function pauseAt(object, method, matches) {
  const original = object[method]
  object[method] = function (...args) {
    if (matches(String(args[0]), args[1]) && at.has(++seen)) {
      // Said first, so a test can tell a second pause from the first: the process may run past its state check and stop again.
      if (process.env.TIERS_TEST_PAUSE_LOG) fs.appendFileSync(process.env.TIERS_TEST_PAUSE_LOG, `${seen}\n`)
      process.kill(process.pid, 'SIGSTOP')
    }
    return original.apply(this, args)
  }
}

if (name && at.size > 0) {
  const locked = (file) => file.endsWith(name) && fs.existsSync(`${file}.lock`)
  if (call === 'open') {
    pauseAt(fs.promises, 'open', locked)
    pauseAt(fs, 'openSync', locked)
  }
  if (call === 'stat') pauseAt(fs.promises, 'stat', (file, options) => file.endsWith(name) && options?.bigint === true)
  // The bin imports `node:fs/promises` by name: its bindings must see the wrapper.
  syncBuiltinESMExports()
}
