import fs from 'node:fs/promises'
import {afterAll, beforeAll} from 'vitest'

/**
 * For a test file of the contracts cache: the cache on while it runs
 * (`TIERS_NO_CACHE` unset), the environment as it was afterwards, and the
 * folders it pushed to the returned list removed.
 */
export function withCacheEnvironment(): string[] {
  const saved = {XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, TIERS_NO_CACHE: process.env.TIERS_NO_CACHE}
  const folders: string[] = []
  beforeAll(() => {
    delete process.env.TIERS_NO_CACHE
  })
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
  })
  return folders
}
