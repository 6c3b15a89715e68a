/**
 * The contract and `GRAPH.md` readers, and the spec-driven tools' readers,
 * in a worker thread: the loader ends a parse that takes longer than its
 * deadline by ending this thread (see `contract-reader.ts`). The reader the
 * first file needs loads before the thread says it is ready, so that its
 * deadline is the parse's alone.
 */
import {parentPort, workerData} from 'node:worker_threads'
import {firstLine, ProjectError} from './errors.js'
import type {ParseRequest, ParseReply} from './contract-reader.js'

const port = parentPort
if (!port) throw new Error('parse-worker.js runs as a worker thread')

const readers = {graph: () => import('@verification-tiers/graph/markdown'), contracts: () => import('./parse.js'), tool: () => import('./tools/index.js')}

async function answer(request: ParseRequest): Promise<ParseReply> {
  try {
    if (request.kind === 'tool') {
      const tool = (await readers.tool()).tools.find((each) => each.name === request.tool)
      if (!tool) return {failure: `no reader of ${request.tool}`}
      return {reading: await tool.read(request.file, request.options)}
    }
    const {kind, file, text, names} = request
    if (kind === 'graph') return {graph: (await readers.graph()).markdownGraph(text, file)}
    return {analysis: (await readers.contracts()).analyzeContractFile(file, text, names === undefined ? {} : {names})}
  } catch (error) {
    return error instanceof ProjectError ? {place: error.file, reason: error.reason} : {failure: firstLine(error)}
  }
}

port.on('message', (request: ParseRequest) => void answer(request).then((reply) => port.postMessage(reply)))
await readers[workerData as ParseRequest['kind']]()
port.postMessage('ready')
