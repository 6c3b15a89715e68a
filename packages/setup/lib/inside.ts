import {lstat, readlink, realpath} from 'node:fs/promises'
import path from 'node:path'

/** A write refused because the path goes through a symbolic link to a place outside the project. */
export class OutsideLinkError extends Error {
  constructor(
    /** The link, as a path from the project folder. */
    readonly link: string,
    /** Where it leads, as an absolute path. */
    readonly target: string
  ) {
    super(`${link}: Unexpected symbolic link to ${target}, outside the project, expected files inside the project folder; nothing was written`)
    this.name = 'OutsideLinkError'
  }
}

/**
 * Refuse, before any is written, files whose path goes through a symbolic
 * link (the file itself or a folder above it) that leads outside `root`,
 * the project folder: `tiers` writes only inside the project it was run
 * for. Links that stay inside are fine; a path outside `root` as given is
 * not judged, as it goes through no link of the project's.
 */
export async function checkWritesInside(root: string, files: readonly string[]): Promise<void> {
  const realRoot = await realpath(root)
  for (const file of files) {
    const relative = path.relative(root, path.resolve(root, file))
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue
    let current = root
    for (const part of relative.split(path.sep)) {
      current = path.join(current, part)
      const stats = await lstat(current).catch(() => null)
      // Nothing is there yet: what the write creates below it is inside.
      if (!stats) break
      if (!stats.isSymbolicLink()) continue
      const target = await linkTarget(current)
      if (target !== realRoot && !target.startsWith(realRoot + path.sep)) throw new OutsideLinkError(path.relative(root, current), target)
    }
  }
}

/** Where a symbolic link leads in the end; for a link to nothing, the path it names, itself resolved as far as it exists. */
async function linkTarget(link: string): Promise<string> {
  try {
    return await realpath(link)
  } catch {
    const named = path.resolve(path.dirname(link), await readlink(link))
    const parent = await realpath(path.dirname(named)).catch(() => path.dirname(named))
    return path.join(parent, path.basename(named))
  }
}
