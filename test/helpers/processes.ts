/** What the tests of processes share: whether a process still runs, and the pid a command wrote to a file. */
import {readFileSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'vitest'

/**
 * Whether a process still runs. A killed process whose parent is gone may
 * stay a zombie (state `Z`) until init reaps it: it runs no more.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return false
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The pid a command wrote to `folder/name` (a whole number above 0). */
export async function readPid(folder: string, name: string): Promise<number> {
  const pid = Number((await fs.readFile(path.join(folder, name), 'utf8')).trim())
  expect(pid).toBeGreaterThan(0)
  return pid
}
