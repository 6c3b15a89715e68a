import {Worker} from 'node:worker_threads'
import {lintBatch} from './batch.js'
import type {LintedFile, SourceFile} from './batch.js'
import type {BatchSettings} from './settings.js'

export interface BatchRequest {
  id: number
  files: SourceFile[]
}

export type BatchResponse = {id: number; files: LintedFile[]; error?: undefined} | {id: number; error: string; files?: undefined}

/** Batches hold about this many characters, so workers share the load evenly and talk rarely. */
const batchSize = 48 * 1024

/** Split files into batches, largest first, so a big file never waits for the small ones. */
export function makeBatches(files: SourceFile[], size: number = batchSize): SourceFile[][] {
  const sorted = [...files].sort((left, right) => right.value.length - left.value.length)
  const batches: SourceFile[][] = []
  let current: SourceFile[] = []
  let characters = 0
  for (const file of sorted) {
    if (current.length > 0 && characters + file.value.length > size) {
      batches.push(current)
      current = []
      characters = 0
    }
    current.push(file)
    characters += file.value.length
  }
  if (current.length > 0) batches.push(current)
  return batches
}

/**
 * Lint batches on `lanes` threads: this one and `lanes - 1` workers, each
 * taking the next batch when done with one, so this thread works while the
 * workers start. Rejects with the first error.
 */
export function lintInParallel(settings: BatchSettings, batches: SourceFile[][], lanes: number): Promise<LintedFile[]> {
  if (batches.length === 0) return Promise.resolve([])
  const script = new URL('worker.js', import.meta.url)
  const results: LintedFile[] = []
  const workers: Worker[] = []
  let next = 0
  let done = 0
  return new Promise((resolve, reject) => {
    let settled = false
    const stop = (): void => {
      for (const worker of workers) void worker.terminate()
    }
    const fail = (error: Error): void => {
      if (settled) return
      settled = true
      stop()
      reject(error)
    }
    const finish = (files: LintedFile[]): void => {
      results.push(...files)
      done++
      if (done === batches.length && !settled) {
        settled = true
        stop()
        resolve(results)
      }
    }
    const take = (): SourceFile[] | undefined => (settled || next >= batches.length ? undefined : (batches[next++] as SourceFile[]))
    // What each worker is working on: a worker that exits with a batch is a failure.
    const working = new Map<Worker, number>()
    const feed = (worker: Worker): void => {
      const id = next
      const batch = take()
      if (batch) {
        working.set(worker, id)
        worker.postMessage({id, files: batch} satisfies BatchRequest)
      } else {
        working.delete(worker)
        void worker.terminate()
      }
    }
    const count = Math.max(0, Math.min(lanes - 1, batches.length - 1))
    for (let index = 0; index < count; index++) {
      const worker = new Worker(script, {workerData: settings})
      workers.push(worker)
      worker.on('message', (response: BatchResponse) => {
        if (response.error !== undefined) return fail(new Error(response.error))
        if (working.get(worker) !== response.id) return fail(new Error(`A worker answered for batch ${response.id}, expected ${working.get(worker)}`))
        finish(response.files)
        feed(worker)
      })
      worker.on('error', fail)
      worker.on('exit', (code) => {
        if (working.has(worker)) fail(new Error(`A lint worker stopped (exit code ${code}) before it finished its files`))
      })
      feed(worker)
    }
    // This thread’s lane.
    const own = async (): Promise<void> => {
      for (let batch = take(); batch; batch = take()) finish(await lintBatch(settings, batch))
    }
    own().catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))))
  })
}
