/**
 * The contract reader in a worker thread: the loader ends a parse that takes
 * longer than its deadline by ending this thread (see `contract-reader.ts`).
 */
import {parentPort} from 'node:worker_threads'
import {firstLine, ProjectError} from './errors.js'
import {parseContracts} from './parse.js'
import type {ParseRequest, ParseReply} from './contract-reader.js'

const port = parentPort
if (!port) throw new Error('parse-worker.js runs as a worker thread')

port.on('message', ({file, text, names}: ParseRequest) => {
  let reply: ParseReply
  try {
    reply = {contracts: parseContracts(file, text, {names})}
  } catch (error) {
    reply = error instanceof ProjectError ? {place: error.file, reason: error.reason} : {failure: firstLine(error)}
  }
  port.postMessage(reply)
})
port.postMessage('ready')
