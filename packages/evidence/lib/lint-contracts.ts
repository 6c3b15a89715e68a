/**
 * `tiers verify`'s lint of the contract files, through a cache: a file whose
 * text and environment (configuration, slice graph, installed rules) are
 * those it was last linted with gets its messages back without the worker
 * starting or the engine loading; only the others are linted.
 */
import path from 'node:path'
import {openTextLintCache} from '@verification-tiers/lint/text-cache'
import type {FileText, LintedText, MessageData, TextLintCache} from '@verification-tiers/lint/text-cache'
import {stateFolder} from '@verification-tiers/runtime'
import {lintInWorker, lintNoteOf} from './lint-in-worker.js'
import type {LintNote} from './lint-in-worker.js'

/** Where `tiers verify` keeps the lint messages of the contract files of the project in `dir`: a file of its own in the state folder. */
export function contractLintCachePath(dir: string): string {
  return path.join(dir, stateFolder, '.verify-lint-cache')
}

/** The cache file of the project in `dir`, or `null` when `TIERS_NO_CACHE` is set (to anything). */
export function contractLintCacheFile(dir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return env.TIERS_NO_CACHE === undefined ? contractLintCachePath(dir) : null
}

/** Lints files already read (by default in a worker thread, see `lintInWorker`): what each linted to, by absolute path. */
export type LintFiles = (files: readonly FileText[], signal: AbortSignal) => Promise<Map<string, LintedText>>

/** The contract files' lint: the notes of each, by absolute path, and the write of the cache. */
export interface ContractLint {
  notes: Map<string, LintNote[]>
  /**
   * Write what was linted to the cache. Never rejects: a cache that cannot
   * be written is only slower next time, and what verify reports is the
   * same with the cache or without.
   */
  save(): Promise<void>
}

const notesOf = (messages: readonly MessageData[]): LintNote[] => messages.map(lintNoteOf)

/**
 * Lint `files`, replaying from `cacheFile` (`null`: no cache) what it holds
 * with exactly the same digests. A cache that cannot be opened is not used;
 * an error of the lint (a `LintFailure`) rejects, and nothing is kept.
 */
export async function lintContractTexts(
  files: readonly FileText[],
  signal: AbortSignal,
  cacheFile: string | null,
  lint: LintFiles = lintInWorker
): Promise<ContractLint> {
  const cache: TextLintCache | null = cacheFile === null ? null : await openTextLintCache(cacheFile, files).catch(() => null)
  const toLint = cache ? cache.toLint : files
  const linted = toLint.length > 0 ? await lint(toLint, signal) : new Map<string, LintedText>()
  const notes = new Map<string, LintNote[]>()
  for (const [file, messages] of cache?.replayed ?? []) notes.set(file, notesOf(messages))
  for (const [file, {messages}] of linted) notes.set(file, notesOf(messages))
  const stored = cache
    ? await cache.store(linted).then(
        () => true,
        () => false
      )
    : false
  return {
    notes,
    save: async () => {
      if (cache && stored) await cache.save().catch(() => {})
    }
  }
}
