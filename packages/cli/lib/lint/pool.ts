import {Worker} from 'node:worker_threads'
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
 * Lint batches on `threads` worker threads, each taking the next batch when
 * it is done with one. Rejects with the first worker's error.
 */
export function lintOnWorkers(settings: BatchSettings, batches: SourceFile[][], threads: number): Promise<LintedFile[]> {
  const script = new URL('worker.js', import.meta.url)
  const results: LintedFile[] = []
  const workers: Worker[] = []
  let next = 0
  let done = 0
  return new Promise((resolve, reject) => {
    let failed = false
    const fail = (error: Error): void => {
      if (failed) return
      failed = true
      for (const worker of workers) void worker.terminate()
      reject(error)
    }
    const feed = (worker: Worker): void => {
      if (next < batches.length) {
        worker.postMessage({id: next, files: batches[next] as SourceFile[]} satisfies BatchRequest)
        next++
      } else {
        void worker.terminate()
      }
    }
    const count = Math.max(1, Math.min(threads, batches.length))
    for (let index = 0; index < count; index++) {
      const worker = new Worker(script, {workerData: settings})
      workers.push(worker)
      worker.on('message', (response: BatchResponse) => {
        if (response.error !== undefined) return fail(new Error(response.error))
        results.push(...response.files)
        done++
        if (done === batches.length) {
          for (const each of workers) void each.terminate()
          resolve(results)
        } else feed(worker)
      })
      worker.on('error', fail)
      feed(worker)
    }
  })
}
