import path from 'node:path'

/**
 * How a person or an agent runs this `tiers` from `cwd`: `npx tiers` when
 * it is the project's own install (its file is in a `node_modules` of a
 * folder at or above `cwd`, where `npx` finds it), else `tiers` (a global
 * install, or this repository's own bin, both on the PATH). Messages name
 * commands this way, so the agent can run what they say.
 */
export function invokedAs(bin: string, cwd: string): string {
  const parts = path.resolve(bin).split(path.sep)
  const at = parts.lastIndexOf('node_modules')
  if (at <= 0) return 'tiers'
  const owner = parts.slice(0, at).join(path.sep) || path.sep
  const relative = path.relative(owner, path.resolve(cwd))
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
  return inside ? 'npx tiers' : 'tiers'
}
