/**
 * The contract and `GRAPH.md` readers in a worker thread: the loader ends a
 * parse that takes longer than its deadline by ending this thread (see
 * `contract-reader.ts`). The reader the first file needs loads before the
 * thread says it is ready, so that its deadline is the parse's alone.
 */
import {parentPort, workerData} from 'node:worker_threads'
import {firstLine, ProjectError} from './errors.js'
import type {ParseRequest, ParseReply} from './contract-reader.js'

const port = parentPort
if (!port) throw new Error('parse-worker.js runs as a worker thread')

const readers = {graph: () => import('@verification-tiers/graph/markdown'), contracts: () => import('./parse.js')}

async function answer({kind, file, text, names}: ParseRequest): Promise<ParseReply> {
  try {
    if (kind === 'graph') return {graph: (await readers.graph()).markdownGraph(text, file)}
    return {analysis: (await readers.contracts()).analyzeContractFile(file, text, names === undefined ? {} : {names})}
  } catch (error) {
    return error instanceof ProjectError ? {place: error.file, reason: error.reason} : {failure: firstLine(error)}
  }
}

port.on('message', (request: ParseRequest) => void answer(request).then((reply) => port.postMessage(reply)))
await readers[workerData as ParseRequest['kind']]()
port.postMessage('ready')
