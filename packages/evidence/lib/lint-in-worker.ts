import {Worker} from 'node:worker_threads'
import type {LintedText, MessageData} from '@verification-tiers/lint/text-cache'

/** What `tiers verify` reads of a lint message: whether it is an error, its line (`null` when it has no place), its reason and rule. */
export interface LintNote {
  fatal: boolean
  line: number | null
  reason: string
  ruleId: string | null
}

/** What `tiers verify` reads of a message as kept (see `toMessageData`). */
export function lintNoteOf({fatal, place, reason, ruleId}: MessageData): LintNote {
  return {fatal: fatal === true, line: place ? ('start' in place ? place.start.line : place.line) : null, reason, ruleId}
}

/** The worker's answer: what each file linted to by absolute path, or the message of the error the lint ended with (and the file it names, when it names one). */
export type LintReply = {linted: Array<[string, LintedText]>} | {failure: string; file?: string}

/** The lint ended with an error: its message, and the file it is about (`null` when none), as the worker told it. */
export class LintFailure extends Error {
  constructor(
    message: string,
    readonly file: string | null
  ) {
    super(message)
    this.name = 'LintFailure'
  }
}

/**
 * Lint `files` with the project's configuration in a worker thread. When
 * `signal` aborts, the worker is ended and the promise never settles: the
 * run ends with an interruption and records nothing (see `whileChecksRun`).
 */
export function lintInWorker(files: ReadonlyArray<{path: string; text: string}>, signal: AbortSignal): Promise<Map<string, LintedText>> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return
    const worker = new Worker(new URL('./lint-worker.js', import.meta.url), {workerData: files})
    const onAbort = () => void worker.terminate()
    signal.addEventListener('abort', onAbort, {once: true})
    worker.once('message', (reply: LintReply) => {
      if ('linted' in reply) resolve(new Map(reply.linted))
      else reject(new LintFailure(reply.failure, reply.file ?? null))
    })
    worker.once('error', reject)
    worker.once('exit', (code) => {
      signal.removeEventListener('abort', onAbort)
      if (!signal.aborted) reject(new Error(`Unexpected end of the lint engine (exit code ${code}), expected its messages`))
    })
  })
}
