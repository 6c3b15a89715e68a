/**
 * Global setup: every `tiers` a test starts keeps its contracts cache in a
 * folder of this run (`XDG_CACHE_HOME`), removed at the end, never in the
 * user’s own cache folder. A test that needs its own sets it again.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export default async function setup(): Promise<() => Promise<void>> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-test-cache-'))
  process.env.XDG_CACHE_HOME = folder
  return () => fs.rm(folder, {recursive: true, force: true})
}
