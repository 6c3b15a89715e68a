/**
 * Preloaded into a `tiers` process (`node --import`) run as root, to make
 * file modes hold as they hold for any other user: root lists a folder of
 * mode 000 and opens a file of mode 000 all the same, so a test of what
 * `tiers` does with a folder it cannot list (`chmod 000`) would test nothing
 * in CI, which runs as root. With this, as the kernel does for a user: a
 * folder without its owner's read bit cannot be listed, a file without it
 * cannot be opened, and nothing under a folder without its owner's search
 * bit can be reached (`EACCES`). The promise API of `node:fs` is what the
 * project's readers use; its ES module bindings are updated to match.
 * Run as another user, it changes nothing: the kernel checks the modes.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import fs from 'node:fs'
import {syncBuiltinESMExports} from 'node:module'
import path from 'node:path'

if (process.getuid?.() === 0) {
  const promises = fs.promises
  const modeOf = (file) => {
    try {
      return fs.statSync(file).mode
    } catch {
      return null
    }
  }
  /** The `EACCES` a user would get for `operation` on `file`, when `need` (0o400: read) of its own mode is missing, or search above it. */
  const denied = (operation, file, need) => {
    const name = Buffer.isBuffer(file) ? file.toString('utf8') : file instanceof URL ? file.pathname : String(file)
    const resolved = path.resolve(name)
    let blocked = false
    for (let folder = path.dirname(resolved); ; folder = path.dirname(folder)) {
      const mode = modeOf(folder)
      if (mode !== null && (mode & 0o100) === 0) blocked = true
      if (path.dirname(folder) === folder) break
    }
    if (!blocked && need !== 0) {
      const mode = modeOf(file)
      blocked = mode !== null && (mode & need) === 0
    }
    return blocked
      ? Object.assign(new Error(`EACCES: permission denied, ${operation} '${name}'`), {code: 'EACCES', errno: -13, syscall: operation, path: name})
      : null
  }
  const guard = (name, need) => {
    const original = promises[name]
    promises[name] = async function (file, ...rest) {
      const error = denied(name, file, need)
      if (error) throw error
      return original.call(this, file, ...rest)
    }
  }
  guard('readdir', 0o400)
  guard('opendir', 0o400)
  guard('open', 0o400)
  guard('readFile', 0o400)
  guard('stat', 0)
  guard('lstat', 0)
  guard('readlink', 0)
  syncBuiltinESMExports()
}
