/**
 * Preloaded into a `tiers` process (`node --import`) to make the disk look
 * full under one folder, as a test cannot make a real disk full: data
 * written to a file opened under `TIERS_TEST_FULL_DISK` fails with ENOSPC,
 * as `write(2)` does on a full disk (a new empty file or folder still
 * fits, as it does while inodes are left). Every state file `tiers` writes
 * goes through `write-file-atomic`, which writes with the callback
 * `fs.write` it looks up at each call.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import fs from 'node:fs'
import path from 'node:path'

const folder = process.env.TIERS_TEST_FULL_DISK

if (folder) {
  const full = new Set()
  const under = (file) => {
    const resolved = path.resolve(String(file))
    return resolved === folder || resolved.startsWith(folder + path.sep)
  }
  const {open, write, close} = fs
  fs.open = function (file, ...rest) {
    const callback = rest.pop()
    return open.call(this, file, ...rest, (error, fd) => {
      if (!error && under(file)) full.add(fd)
      callback(error, fd)
    })
  }
  fs.write = function (fd, ...rest) {
    if (!full.has(fd)) return write.call(this, fd, ...rest)
    const callback = rest.pop()
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC', errno: -28, syscall: 'write'})
    process.nextTick(callback, error)
  }
  fs.close = function (fd, ...rest) {
    full.delete(fd)
    return close.call(this, fd, ...rest)
  }
}
