import {Worker} from 'node:worker_threads'
import type {ContractAnalysis, ReadOptions} from '@verification-tiers/contracts'
import type {FolderGraph} from '@verification-tiers/graph'
import {firstLine, ProjectError} from './errors.js'

/** Seconds a contract file or `GRAPH.md` may take to parse (`TIERS_PARSE_TIMEOUT` sets another). */
export const defaultParseSeconds = 10
export const parseTimeoutVariable = 'TIERS_PARSE_TIMEOUT'

/** What the loader sends the worker: one file, a contract file or `GRAPH.md`. */
export interface ParseRequest {
  kind: 'contracts' | 'graph'
  file: string
  text: string
  names: ReadOptions['names'] | undefined
}

/** What the worker answers: the file's contracts and problems or its graph, a project error's place and reason, or another error's message. */
export type ParseReply = {analysis: ContractAnalysis} | {graph: FolderGraph} | {place: string; reason: string} | {failure: string}

/** The deadline of one file's parse, in seconds: `TIERS_PARSE_TIMEOUT` when it is a number above 0. */
export function parseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[parseTimeoutVariable])
  return Number.isFinite(value) && value > 0 ? value : defaultParseSeconds
}

/** Reads contract files and `GRAPH.md`, each under a deadline. */
export interface ContractReader {
  read(file: string, text: string, options?: ReadOptions): Promise<ContractAnalysis>
  readGraph(file: string, text: string): Promise<FolderGraph>
  /** Ends the worker; the reader starts another if read again. */
  close(): Promise<void>
}

const advice = 'less deeply nested lists, quotes and emphasis, or the contracts split over several files in contracts/'

/**
 * A contract reader that parses in a worker thread, one file at a time, and
 * ends the worker when a file takes over `seconds` to parse: some markdown
 * (deep nesting, long runs of emphasis markers) takes remark-parse minutes,


 */
export function openContractReader(seconds = parseSeconds()): ContractReader {
  let started: Promise<Worker> | undefined
  const stop = (worker: Worker) => {
    started = undefined
    void worker.terminate()
  }
  /** One file through the worker: its reply, or the `ProjectError` that stands for it. */
  const ask = async (request: ParseRequest): Promise<ParseReply & ({analysis: ContractAnalysis} | {graph: FolderGraph})> => {
    const {file} = request
    started ??= startWorker(request.kind)
    const worker = await started.catch((error: unknown) => {
      started = undefined
      throw new ProjectError(file, `Unexpected failure to start the markdown parser (${firstLine(error)}), expected it to start`)
    })
    worker.ref()
    return new Promise((resolve, reject) => {
      const fail = (error: ProjectError) => {
        settle()
        stop(worker)
        reject(error)
      }
      const timer = setTimeout(() => fail(new ProjectError(file, `Unexpected markdown that takes over ${seconds} s to parse, expected ${advice}`)), seconds * 1000)
      const onMessage = (reply: ParseReply) => {
        settle()
        if ('place' in reply) reject(new ProjectError(reply.place, reply.reason))
        else if ('failure' in reply) reject(new ProjectError(file, `Unexpected markdown the parser cannot read (${reply.failure}), expected ${advice}`))
        else resolve(reply)
      }
      const onError = (error: Error) => fail(new ProjectError(file, `Unexpected markdown the parser cannot read (${firstLine(error)}), expected ${advice}`))
      const onExit = (code: number) => fail(new ProjectError(file, `Unexpected end of the markdown parser (exit code ${code}), expected it to read the file`))
      const settle = () => {
        clearTimeout(timer)
        worker.off('message', onMessage).off('error', onError).off('exit', onExit)
        worker.unref()
      }
      worker.on('message', onMessage).on('error', onError).on('exit', onExit)
      worker.postMessage(request)
    })
  }
  return {
    async read(file, text, {names} = {}) {
      const reply = await ask({kind: 'contracts', file, text, names})
      if ('analysis' in reply) return reply.analysis
      throw new ProjectError(file, 'Unexpected answer of the markdown parser, expected contracts')
    },
    async readGraph(file, text) {
      const reply = await ask({kind: 'graph', file, text, names: undefined})
      if ('graph' in reply) return reply.graph
      throw new ProjectError(file, 'Unexpected answer of the markdown parser, expected slices')
    },
    async close() {
      const worker = await started?.catch(() => undefined)
      started = undefined
      await worker?.terminate()
    }
  }
}

/** A parse worker, once it has loaded the reader of `kind` (another loads on its first file). */
function startWorker(kind: ParseRequest['kind']): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./parse-worker.js', import.meta.url), {workerData: kind})
    const onError = (error: Error) => reject(error)
    worker.once('error', onError)
    worker.once('exit', (code) => reject(new Error(`exit code ${code}`)))
    worker.once('message', () => {
      worker.off('error', onError).removeAllListeners('exit')
      resolve(worker)
    })
  })
}
