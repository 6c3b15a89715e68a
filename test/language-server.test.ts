/**
 * Editor end-to-end test: the remark language server (what vscode-remark
 * runs), started over stdio and driven with JSON-RPC the way an editor drives
 * it: initialize, didOpen, codeAction, didChange, shutdown. The workspace is
 * a temporary folder with a `.remarkrc.json` that uses the preset, as the
 * README tells users to set up.
 *
 * The published `remark-language-server` is not installable here, so the
 * server is `test/fixtures/remark-language-server.mjs`: the same
 * `unified-language-server` with remark’s settings (see that file for why).
 *
 * The workspace lives in the repository (`test/.tmp-lsp-*`, gitignored) so that
 * plugins resolve from the repository’s `node_modules`. It has its own
 * `.remarkignore`: without one the repository’s applies, and that ignores
 * `test/.tmp-*` so the server would publish no diagnostics at all.
 */
import {spawn} from 'node:child_process'
import type {ChildProcessWithoutNullStreams} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const server = path.join(root, 'test', 'fixtures', 'remark-language-server.mjs')
const docs = 'https://github.com/verification-tiers/verification-tiers/tree/main/packages'

/** Longest wait for any one answer from the server. */
const wait = 10_000

interface Position {
  line: number
  character: number
}

interface Range {
  start: Position
  end: Position
}

interface Diagnostic {
  range: Range
  severity?: number
  code?: string | number
  codeDescription?: {href: string}
  source?: string
  message: string
  data?: unknown
}

interface TextEdit {
  range: Range
  newText: string
}

interface CodeAction {
  title: string
  kind?: string
  isPreferred?: boolean
  edit?: {changes?: Record<string, TextEdit[]>}
}

interface PublishDiagnosticsParams {
  uri: string
  version?: number
  diagnostics: Diagnostic[]
}

interface Message {
  jsonrpc: '2.0'
  id?: number | string | null
  method?: string
  params?: unknown
  result?: unknown
  error?: {code: number; message: string}
}

/**
 * A minimal LSP client over a child’s stdio: `Content-Length` framing, requests
 * matched to responses by id, notifications kept in order, and the server’s
 * own requests (configuration, capability registration) answered as an editor
 * would. Every wait is bounded.
 */
class Client {
  readonly notifications: Message[] = []
  /** Requests the server sent to the client. */
  readonly serverRequests: Message[] = []
  stderr = ''
  private buffer = Buffer.alloc(0)
  private nextId = 1
  private readonly pending = new Map<number, {resolve: (message: Message) => void; reject: (error: Error) => void}>()
  private readonly listeners = new Set<() => void>()
  readonly exited: Promise<number | null>

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk))
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
    void this.exited.then(() => {
      for (const {reject} of this.pending.values()) reject(new Error(`Server exited; stderr:\n${this.stderr}`))
      this.pending.clear()
      for (const listener of this.listeners) listener()
    })
  }

  request<Result>(method: string, params: unknown): Promise<Result> {
    const id = this.nextId++
    return bounded(
      `response to ${method}`,
      new Promise<Result>((resolve, reject) => {
        this.pending.set(id, {
          resolve: (message) =>
            message.error ? reject(new Error(`${method} failed: ${message.error.code} ${message.error.message}`)) : resolve(message.result as Result),
          reject
        })
        this.send({jsonrpc: '2.0', id, method, params})
      })
    )
  }

  notify(method: string, params: unknown): void {
    this.send({jsonrpc: '2.0', method, params})
  }

  /** The first notification (already received or still to come) that `test` accepts. */
  notification<Params>(method: string, test: (params: Params) => boolean): Promise<Params> {
    const find = () => this.notifications.find((message) => message.method === method && test(message.params as Params))?.params as Params | undefined
    return bounded(
      method,
      new Promise<Params>((resolve, reject) => {
        const check = () => {
          const found = find()
          if (found) {
            this.listeners.delete(check)
            resolve(found)
          } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
            this.listeners.delete(check)
            reject(new Error(`Server exited; stderr:\n${this.stderr}`))
          }
        }
        this.listeners.add(check)
        check()
      })
    )
  }

  /** Diagnostics the server published for `uri` at document `version`. */
  diagnostics(uri: string, version: number): Promise<Diagnostic[]> {
    return this.notification<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (params) => params.uri === uri && params.version === version).then(
      (params) => params.diagnostics
    )
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8')
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]))
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk])
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n')
      if (headerEnd === -1) return
      const header = this.buffer.subarray(0, headerEnd).toString('ascii')
      const length = /^Content-Length: *(\d+)$/im.exec(header)
      if (!length) throw new Error(`Expected a Content-Length header, got ${JSON.stringify(header)}`)
      const start = headerEnd + 4
      const end = start + Number(length[1])
      if (this.buffer.length < end) return
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as Message
      this.buffer = this.buffer.subarray(end)
      this.dispatch(message)
    }
  }

  private dispatch(message: Message): void {
    if (message.method && message.id !== undefined) {
      // A request from the server: answer it as an editor with default settings does.
      this.serverRequests.push(message)
      let result: unknown = null
      if (message.method === 'workspace/configuration') {
        const {items} = message.params as {items: unknown[]}
        result = items.map(() => ({requireConfig: false}))
      }
      this.send({jsonrpc: '2.0', id: message.id, result})
    } else if (message.method) {
      this.notifications.push(message)
      for (const listener of this.listeners) listener()
    } else if (typeof message.id === 'number') {
      this.pending.get(message.id)?.resolve(message)
      this.pending.delete(message.id)
    }
  }
}

/** `promise`, or a rejection after `wait` ms naming what was awaited. */
function bounded<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${wait} ms waiting for ${what}`)), wait)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Apply non-overlapping `edits` to `text`, as an editor applies a workspace edit. */
function applyEdits(text: string, edits: TextEdit[]): string {
  const lineStarts = [0]
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') lineStarts.push(index + 1)
  const offset = ({line, character}: Position) => lineStarts[line]! + character
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((result, edit) => result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end)), text)
}

function range(startLine: number, startCharacter: number, endLine: number, endCharacter: number): Range {
  return {start: {line: startLine, character: startCharacter}, end: {line: endLine, character: endCharacter}}
}

/** An invalid tier in the wrong case (line 7) and a misspelt label (line 14); the rest is clean. */
const contracts = [
  '# CONTRACTS.md',
  '',
  '## S-01: Checkout',
  '',
  '### C-01: CartTotal',
  '',
  '**Verification:** Verify',
  '**Acceptance Criteria:**',
  '- The total includes tax -- verified by: `npm test -- total`',
  '',
  '### C-02: ShippingOptions',
  '',
  '**Verification:** verify',
  '**Acceptence Criteria:**',
  '- Three rates are listed, cheapest first -- verified by: `npm test -- rates`',
  ''
].join('\n')

// `remark` reports these as `7:19-7:25 error …` and `14:3-14:22 warning …`;
// LSP positions are 0-based, and the end stays exclusive.
const tierDiagnostic: Diagnostic = {
  range: range(6, 18, 6, 24),
  severity: 1,
  code: 'verification-tier',
  codeDescription: {href: `${docs}/remark-lint-verification-tier#readme`},
  source: 'remark-lint',
  message: 'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`',
  data: {expected: ['verify']}
}

const labelDiagnostic: Diagnostic = {
  range: range(13, 2, 13, 21),
  severity: 2,
  code: 'contract-field-name',
  codeDescription: {href: `${docs}/remark-lint-contract-field-name#readme`},
  source: 'remark-lint',
  message: 'Unexpected field name `Acceptence Criteria` in C-02 ShippingOptions, expected `Acceptance Criteria`',
  data: {expected: ['Acceptance Criteria']}
}

describe('remark language server with the preset', () => {
  let workspace = ''
  let uri = ''
  let client: Client
  let text = contracts
  let version = 1

  beforeAll(async () => {
    workspace = path.join(root, 'test', `.tmp-lsp-${randomBytes(6).toString('hex')}`)
    await fs.mkdir(workspace)
    await fs.writeFile(path.join(workspace, '.remarkrc.json'), JSON.stringify({plugins: ['remark-preset-lint-verification-tiers']}, null, 2) + '\n')
    await fs.writeFile(path.join(workspace, '.remarkignore'), '')
    await fs.writeFile(path.join(workspace, 'CONTRACTS.md'), contracts)
    uri = pathToFileURL(path.join(workspace, 'CONTRACTS.md')).href

    const env: NodeJS.ProcessEnv = {...process.env}
    delete env.NODE_OPTIONS
    client = new Client(spawn(process.execPath, [server, '--stdio'], {cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe']}))
  })

  afterAll(async () => {
    if (client && client.child.exitCode === null && client.child.signalCode === null) {
      client.child.kill()
      await bounded('the server to stop', client.exited).catch(() => {})
    }
    if (workspace) await fs.rm(workspace, {recursive: true, force: true})
  })

  it('initializes with full sync and quick-fix code actions', async () => {
    const workspaceUri = pathToFileURL(workspace).href
    const result = await client.request<{capabilities: Record<string, unknown>}>('initialize', {
      processId: process.pid,
      clientInfo: {name: 'verification-tiers test'},
      rootUri: workspaceUri,
      workspaceFolders: [{uri: workspaceUri, name: path.basename(workspace)}],
      capabilities: {
        workspace: {configuration: true, workspaceFolders: true, didChangeConfiguration: {dynamicRegistration: true}},
        textDocument: {
          synchronization: {dynamicRegistration: false, didSave: false},
          publishDiagnostics: {relatedInformation: false, versionSupport: true, codeDescriptionSupport: true, dataSupport: true},
          codeAction: {
            isPreferredSupport: true,
            dataSupport: true,
            codeActionLiteralSupport: {codeActionKind: {valueSet: ['quickfix']}}
          }
        }
      }
    })
    expect(result.capabilities).toMatchObject({
      textDocumentSync: 1,
      codeActionProvider: {codeActionKinds: ['quickfix']}
    })
    client.notify('initialized', {})
  }, 20_000)

  it('publishes the preset’s messages as diagnostics on didOpen', async () => {
    client.notify('textDocument/didOpen', {textDocument: {uri, languageId: 'markdown', version, text}})
    const diagnostics = await client.diagnostics(uri, version)
    expect(diagnostics).toEqual([tierDiagnostic, labelDiagnostic])
    // Settings come from the editor’s `remark` section, per document.
    expect(client.serverRequests.filter((request) => request.method === 'workspace/configuration').map((request) => request.params)).toEqual([
      {items: [{scopeUri: uri, section: 'remark'}]}
    ])
  }, 20_000)

  it('offers `expected` as a preferred quick fix for the invalid tier, and applying it clears the error', async () => {
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: {uri},
      range: tierDiagnostic.range,
      context: {diagnostics: [tierDiagnostic], only: ['quickfix'], triggerKind: 1}
    })
    expect(actions).toEqual([
      {
        title: 'Replace `Verify` with `verify`',
        kind: 'quickfix',
        isPreferred: true,
        edit: {changes: {[uri]: [{range: range(6, 18, 6, 24), newText: 'verify'}]}}
      }
    ])

    text = applyEdits(text, actions[0]!.edit!.changes![uri]!)
    expect(text.split('\n')[6]).toBe('**Verification:** verify')
    version++
    client.notify('textDocument/didChange', {textDocument: {uri, version}, contentChanges: [{text}]})
    expect(await client.diagnostics(uri, version)).toEqual([labelDiagnostic])
  }, 20_000)

  it('offers the known label as a quick fix for a misspelt one, and applying it clears the warning', async () => {
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: {uri},
      range: labelDiagnostic.range,
      context: {diagnostics: [labelDiagnostic], only: ['quickfix'], triggerKind: 1}
    })
    expect(actions).toEqual([
      {
        title: 'Replace `Acceptence Criteria` with `Acceptance Criteria`',
        kind: 'quickfix',
        isPreferred: true,
        edit: {changes: {[uri]: [{range: range(13, 2, 13, 21), newText: 'Acceptance Criteria'}]}}
      }
    ])

    text = applyEdits(text, actions[0]!.edit!.changes![uri]!)
    expect(text).toBe(contracts.replace('** Verify', '** verify').replace('Acceptence', 'Acceptance'))
    version++
    client.notify('textDocument/didChange', {textDocument: {uri, version}, contentChanges: [{text}]})
    expect(await client.diagnostics(uri, version)).toEqual([])
  }, 20_000)

  it('offers no code action where there is no diagnostic with `expected`', async () => {
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: {uri},
      range: range(4, 0, 4, 19),
      context: {diagnostics: [], triggerKind: 1}
    })
    expect(actions).toEqual([])
  }, 20_000)

  it('shuts down and exits cleanly', async () => {
    await expect(client.request('shutdown', null)).resolves.toBeNull()
    client.notify('exit', null)
    await expect(bounded('the server to exit', client.exited)).resolves.toBe(0)
  }, 20_000)
})
