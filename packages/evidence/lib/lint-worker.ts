/**
 * `tiers verify`'s lint, in a worker thread: the engine runs for seconds on a
 * large contract file without giving the event loop a turn, so a SIGTERM or
 * SIGINT would wait for it. In a worker the main thread ends `tiers` at
 * once, and ends this thread with it (see `lintInWorker`).
 */
import {parentPort, workerData} from 'node:worker_threads'
import {lintTexts} from '@verification-tiers/lint'
import {lintedTextsOf} from '@verification-tiers/lint/text-cache'
import type {LintReply} from './lint-in-worker.js'

const port = parentPort
if (!port) throw new Error('lint-worker.js runs as a worker thread')

let reply: LintReply
try {
  // As data: a message crosses threads as a plain object, and the cache keeps only what it can show again.
  reply = {linted: lintedTextsOf(await lintTexts(workerData as Array<{path: string; text: string}>))}
} catch (error) {
  // An error about a file (a configuration file that is a FIFO) says which: it crosses to the gate as a broken file, not a bug.
  const file = error instanceof Error ? (error as {file?: unknown}).file : undefined
  reply = {failure: error instanceof Error ? error.message : String(error), ...(typeof file === 'string' ? {file} : {})}
}
port.postMessage(reply)
