/**
 * The contract and `GRAPH.md` readers in a worker thread: the loader ends a parse that takes
 * longer than its deadline by ending this thread (see `contract-reader.ts`).
 */
import {parentPort} from 'node:worker_threads'
import {firstLine, ProjectError} from './errors.js'
import {readGraphMarkdown} from './graph-markdown.js'
import {parseContracts} from './parse.js'
import type {ParseRequest, ParseReply} from './contract-reader.js'

const port = parentPort
if (!port) throw new Error('parse-worker.js runs as a worker thread')

port.on('message', ({kind, file, text, names}: ParseRequest) => {
  let reply: ParseReply
  try {
    reply = kind === 'graph' ? {graph: readGraphMarkdown(text, file)} : {contracts: parseContracts(file, text, {names})}
  } catch (error) {
    reply = error instanceof ProjectError ? {place: error.file, reason: error.reason} : {failure: firstLine(error)}
  }
  port.postMessage(reply)
})
port.postMessage('ready')
