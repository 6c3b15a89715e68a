import {expect} from 'vitest'
import type {LintSettings} from '@verification-tiers/lint'

/** Settings of `tiers lint` on `files` in `cwd`, as the properties of the cache compare them: with `.cache/lint` as the cache, or none. */
export function cachedSettings(cwd: string, files: string[], cache: boolean): LintSettings {
  return {
    cwd,
    files,
    frail: false,
    quiet: false,
    silent: false,
    color: false,
    detectConfig: false,
    detectIgnore: true,
    ignorePatterns: [],
    format: 'stylish',
    fix: false,
    fixDryRun: false,
    cache: cache ? '.cache/lint' : undefined,
    baseline: false
  }
}

/**
 * After `before` (run twice: the second run is the warm one that remembers
 * the files found) and again after `after`, the report with the cache is the
 * report without it.
 */
export async function expectCacheAgrees<Edit>(
  folder: string,
  apply: (folder: string, change: Edit) => Promise<void>,
  report: (folder: string, cache: boolean) => Promise<string>,
  before: readonly Edit[],
  after: readonly Edit[]
): Promise<void> {
  for (const change of before) await apply(folder, change)
  await report(folder, true)
  expect(await report(folder, true)).toBe(await report(folder, false))
  for (const change of after) await apply(folder, change)
  expect(await report(folder, true)).toBe(await report(folder, false))
}
