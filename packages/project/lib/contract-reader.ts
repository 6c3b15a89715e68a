import {Worker} from 'node:worker_threads'
import type {ContractAnalysis, ReadOptions} from '@verification-tiers/contracts'
import type {FolderGraph} from '@verification-tiers/graph'
import {firstLine, ProjectError} from './errors.js'
import {describeShape, markdownShape} from './markdown-shape.js'
import type {MarkdownShape} from './markdown-shape.js'
import type {ToolReading, ToolReadOptions} from './tools/types.js'

/** Seconds a contract file or `GRAPH.md` may take to parse (`TIERS_PARSE_TIMEOUT` sets another). */
export const defaultParseSeconds = 10
export const parseTimeoutVariable = 'TIERS_PARSE_TIMEOUT'
/** Seconds the contract files and `GRAPH.md` of one load may take to parse in all (`TIERS_PARSE_TOTAL_TIMEOUT` sets another). */
export const defaultTotalParseSeconds = 30
export const totalParseTimeoutVariable = 'TIERS_PARSE_TOTAL_TIMEOUT'

/** What the loader sends the worker: one file, a contract file or `GRAPH.md`; or the folder of a spec-driven tool (`file`), which the tool's reader reads whole. */
export type ParseRequest =
  | {kind: 'contracts' | 'graph'; file: string; text: string; names: ReadOptions['names'] | undefined}
  | {kind: 'tool'; file: string; tool: string; options: ToolReadOptions}

/** What the worker answers: the file's contracts and problems, its graph, or the tool's reading; a project error's place and reason, or another error's message. */
export type ParseReply = {analysis: ContractAnalysis} | {graph: FolderGraph} | {reading: ToolReading} | {place: string; reason: string} | {failure: string}

/** The deadline of one file's parse, in seconds: `TIERS_PARSE_TIMEOUT` when it is a number above 0. */
export function parseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return secondsOf(env[parseTimeoutVariable], defaultParseSeconds)
}

/** The deadline of all the parses of one load, in seconds: `TIERS_PARSE_TOTAL_TIMEOUT` when it is a number above 0. */
export function totalParseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return secondsOf(env[totalParseTimeoutVariable], defaultTotalParseSeconds)
}

function secondsOf(setting: string | undefined, fallback: number): number {
  const value = Number(setting)
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** The deadlines of a reader, in seconds: of each file's parse, and of all its parses. */
export interface ParseDeadlines {
  file: number
  total: number
}

/** Reads contract files and `GRAPH.md`, each under a deadline. */
export interface ContractReader {
  read(file: string, text: string, options?: ReadOptions): Promise<ContractAnalysis>
  readGraph(file: string, text: string): Promise<FolderGraph>
  /** The folder `dir` of the spec-driven tool named `tool`, read by its reader in the worker, under the reader's deadline of all its parses. */
  readTool(tool: string, dir: string, options: ToolReadOptions): Promise<ToolReading>
  /** Leaves the worker idle for the next reader, or ends it; the reader starts another if read again. */
  close(): Promise<void>
}

const advice = 'less deeply nested lists, quotes and emphasis, or the contracts split over several files in contracts/'

/** Nesting past which a file's time is its nesting's (a list nested 300 deep takes seconds), not its size's. */
const deepNesting = 32

/** What a file that took too long should be instead: less deep, else smaller (GRAPH.md: or GRAPH.json), else (`total`) fewer files. */
function adviceFor(kind: ParseRequest['kind'], shape: MarkdownShape, total: boolean): string {
  if (shape.depth > deepNesting) return 'lists and quotes nested less deeply'
  if (kind === 'graph') return 'a smaller GRAPH.md, or the graph in GRAPH.json (read without the markdown parser)'
  return total ? 'fewer or smaller contract files' : 'a smaller file: the contracts split over several files in contracts/'
}

/**
 * A contract reader that parses in a worker thread, one file at a time,
 * under two deadlines: each file's parse ends after `file` seconds, and the
 * reader's parses end `total` seconds after its first began (one load of a
 * project, its contract files and `GRAPH.md`: the stop hook runs one at
 * every stop of an agent). Either ends the worker, and is a `ProjectError`
 * naming the file it ran out in and what the file holds (its size,
 * contract headings, lists and nesting, as its lines show them), with what
 * to change. Parsing is linear in a file's size (`contracts/edit-map`), but
 * some markdown (deep nesting, long runs of emphasis markers) takes
 * remark-parse minutes. A spec-driven tool's folder (`readTool`) is one
 * request, under the reader's deadline alone; over it, the error names the
 * folder. A hook that does not answer in the agent's time lets the agent
 * stop, so no parse of the gate runs without a deadline.
 */
export function openContractReader({file: seconds = parseSeconds(), total = totalParseSeconds()}: Partial<ParseDeadlines> = {}): ContractReader {
  let started: Promise<Worker> | undefined
  /** When the first file went to the worker (`performance.now()`), and the files parsed since. */
  let clock: number | undefined
  const parsed = {files: 0, bytes: 0}
  /** The file that ran out of time: over its own deadline, or over the reader's (`total`); a tool's folder, read whole, over the reader's. */
  const late = (request: ParseRequest, over: 'file' | 'total') => {
    if (request.kind === 'tool') {
      return new ProjectError(
        request.file,
        `Unexpected markdown files that take over ${total} s to parse in all, expected fewer or smaller files, or lists, quotes and emphasis nested less deeply (or more seconds in ${totalParseTimeoutVariable})`
      )
    }
    const {kind, file, text} = request
    const shape = markdownShape(text)
    const what = describeShape(shape)
    if (over === 'file') {
      return new ProjectError(
        file,
        `Unexpected markdown that takes over ${seconds} s to parse (${what}), expected ${adviceFor(kind, shape, false)} (or more seconds in ${parseTimeoutVariable})`
      )
    }
    const before =
      parsed.files === 0 ? 'before any other file' : `after ${parsed.files} other ${parsed.files === 1 ? 'file' : 'files'} of ${parsed.bytes} bytes`
    return new ProjectError(
      file,
      `Unexpected markdown files that take over ${total} s to parse in all: the time ran out in this one (${what}) ${before}, expected ${adviceFor(kind, shape, true)} (or more seconds in ${totalParseTimeoutVariable}); the files read in time are kept in the contracts cache, for the next run`
    )
  }
  const stop = (worker: Worker) => {
    started = undefined
    void worker.terminate()
  }
  /** One file through the worker: its reply, or the `ProjectError` that stands for it. */
  const ask = async (request: ParseRequest): Promise<ParseReply & ({analysis: ContractAnalysis} | {graph: FolderGraph} | {reading: ToolReading})> => {
    const {file} = request
    started ??= takeIdleWorker() ?? startWorker(request.kind)
    const worker = await started.catch((error: unknown) => {
      started = undefined
      throw new ProjectError(file, `Unexpected failure to start the markdown parser (${firstLine(error)}), expected it to start`)
    })
    const now = performance.now()
    clock ??= now
    const left = total * 1000 - (now - clock)
    if (left <= 0) throw late(request, 'total')
    // A tool's folder is one request of many files: only the reader's deadline is its.
    const over = request.kind === 'tool' || left < seconds * 1000 ? 'total' : 'file'
    worker.ref()
    return new Promise((resolve, reject) => {
      const fail = (error: ProjectError) => {
        settle()
        stop(worker)
        reject(error)
      }
      const timer = setTimeout(() => fail(late(request, over)), over === 'total' ? left : seconds * 1000)
      const onMessage = (reply: ParseReply) => {
        settle()
        if (request.kind !== 'tool') {
          parsed.files++
          parsed.bytes += Buffer.byteLength(request.text)
        }
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
    async readTool(tool, dir, options) {
      const reply = await ask({kind: 'tool', file: dir, tool, options})
      if ('reading' in reply) return reply.reading
      throw new ProjectError(dir, 'Unexpected answer of the markdown parser, expected contracts')
    },
    async close() {
      const worker = await started?.catch(() => undefined)
      started = undefined
      if (worker !== undefined && !leaveIdle(worker)) await worker.terminate()
    }
  }
}

/**
 * The worker a closed reader left, loaded and waiting, which the next
 * reader of this process takes instead of starting one: each load of a
 * project started a thread that loaded the markdown parser and the readers
 * again (90 ms of CPU), and `tiers ci --base` loads two projects, the stop
 * hook each project folder, a program using `loadProject` one after another.
 * Not referenced, so it never keeps the process running. `npm run bench`
 * (corpus.mjs, `tiers ci --base` cold, median of 7 runs): 1,009 ms with a
 * worker per load, 865 ms with this one (the median over the seven corpus
 * projects; from 1,440 to 970 ms on greenlight). The suite's in-process
 * commands gain most: `test/tool-projects.test.ts` took 17.4 s of CPU with
 * a worker per load, 9.9 s with this one.
 */
let idleWorker: Worker | undefined

const forgetIdleWorker = () => {
  idleWorker = undefined
}

function takeIdleWorker(): Promise<Worker> | undefined {
  const worker = idleWorker
  if (worker === undefined) return undefined
  idleWorker = undefined
  worker.off('exit', forgetIdleWorker)
  return Promise.resolve(worker)
}

/** Keep `worker` for the next reader, unless one waits already: whether it was kept. */
function leaveIdle(worker: Worker): boolean {
  if (idleWorker !== undefined) return false
  idleWorker = worker
  worker.unref()
  worker.once('exit', forgetIdleWorker)
  return true
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
