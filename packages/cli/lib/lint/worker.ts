// Worker thread of `tiers lint`: lints the batches the pool sends it.
import {parentPort, workerData} from 'node:worker_threads'
import {lintBatch} from './batch.js'
import type {BatchRequest, BatchResponse} from './pool.js'
import type {BatchSettings} from './settings.js'

const port = parentPort
const settings = workerData as BatchSettings

port?.on('message', (request: BatchRequest) => {
  lintBatch(settings, request.files).then(
    (files) => port.postMessage({id: request.id, files} satisfies BatchResponse),
    (error: unknown) => port.postMessage({id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error)} satisfies BatchResponse)
  )
})
