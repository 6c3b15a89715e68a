import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {checkWritesInside} from '@verification-tiers/setup/inside'
import type {VFile} from 'vfile'
import writeFileAtomic from 'write-file-atomic'
import {applyFixes, planFixes} from './fix.js'
import type {Fix} from './fix.js'
import {messageRange} from './place.js'

function where(file: VFile, fix: Fix): string {
  const start = messageRange(fix.message)?.start
  return `${file.path}:${start?.line}:${start?.column}`
}

/** What `--fix` did: the new text of each file it changed, and the diff of it all. */
export interface FixOutcome {
  changed: Map<VFile, string>
  diff: string
}

/**
 * Apply the fixes the messages of `files` offer. A file whose fixes overlap,
 * or that changed on disk since it was linted, is left as it is; each file
 * is written atomically; `notify` gets a line per fix (or per file left).
 * A file reached through a symbolic link out of its `cwd` (the project) is
 * refused, before any file is written (`OutsideLinkError`).
 * Without `write`, nothing is written and the diff says what would change.
 */
export async function fixFiles(files: readonly VFile[], options: {write: boolean; notify: (line: string) => void}): Promise<FixOutcome> {
  const changed = new Map<VFile, string>()
  let diff = ''
  if (options.write) {
    // Each file is checked before any is written: a fix never goes through a link out of the project.
    for (const file of files) if (planFixes(file).fixes.length > 0) await checkWritesInside(file.cwd, [file.path])
  }
  for (const file of files) {
    const plan = planFixes(file)
    if (plan.fixes.length === 0) continue
    if (plan.overlap) {
      const [first, second] = plan.overlap
      options.notify(`tiers lint: left ${file.path} as it is: the fixes at ${where(file, first)} and ${where(file, second)} overlap`)
      continue
    }
    const before = String(file.value)
    const after = applyFixes(before, plan.fixes)
    const absolute = path.resolve(file.cwd, file.path)
    if (!options.write) {
      // Loaded for a dry run only: most runs print no diff.
      const {createTwoFilesPatch, FILE_HEADERS_ONLY} = await import('diff')
      diff += createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, before, after, undefined, undefined, {context: 3, headerOptions: FILE_HEADERS_ONLY})
      changed.set(file, after)
      continue
    }
    // Another program may have written the file since it was read: its text is not ours to replace.
    if ((await readFile(absolute, 'utf8').catch(() => null)) !== before) {
      options.notify(`tiers lint: left ${file.path} as it is: it changed since it was linted`)
      continue
    }
    await writeFileAtomic(absolute, after)
    changed.set(file, after)
    for (const fix of plan.fixes) {
      const rule = fix.message.ruleId ? ` (${fix.message.ruleId})` : ''
      options.notify(`fixed ${where(file, fix)}: \`${before.slice(fix.start, fix.end)}\` → \`${fix.value}\`${rule}`)
    }
  }
  return {changed, diff}
}
