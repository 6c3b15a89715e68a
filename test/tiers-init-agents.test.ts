/**
 * `tiers init` sets the stop hook up for each coding agent the repository
 * uses (found from its folder, or named with `--agent`), through the cli's
 * `main`: a file the agent's documented format accepts (Codex's checked
 * against its published schema, vendored in `fixtures/agent-schemas`; the
 * others against their documented shape, written here), merged with the
 * hooks already there, and a second run changes nothing.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {Ajv} from 'ajv'
import {afterAll, describe, expect, it} from 'vitest'
import {root} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary project with `files` written. */
async function project(files: Record<string, string> = {}): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-init-agents-')))
  folders.push(folder)
  for (const [name, value] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), value)
  }
  return folder
}

type Agent = 'claude' | 'codex' | 'cursor' | 'gemini' | 'copilot'

const command = {type: 'string', pattern: '^npx tiers stop-hook'}

/** A list of entries, at least one. */
const list = (items: object) => ({type: 'array', minItems: 1, items})

/** `{hooks: {<event>: …}}` with what else the file must hold. */
const hooksFile = (event: string, entry: object, header: Record<string, object> = {}) => ({
  type: 'object',
  required: ['hooks', ...Object.keys(header)],
  properties: {...header, hooks: {type: 'object', required: [event], properties: {[event]: list(entry)}}}
})

/** The command handler of Claude Code and Gemini CLI, as their hooks references list its fields. */
const commandHandler = (fields: string[]) => ({
  type: 'object',
  required: ['type', 'command'],
  additionalProperties: false,
  properties: {type: {const: 'command'}, command, ...Object.fromEntries(fields.map((field) => [field, {}]))}
})

/** What each agent’s hooks reference documents of its file, for the stop event. */
const documented: Record<Exclude<Agent, 'codex'>, {file: string; schema: object}> = {
  claude: {
    file: '.claude/settings.json',
    schema: hooksFile('Stop', {type: 'object', required: ['hooks'], properties: {matcher: {type: 'string'}, hooks: list(commandHandler(['timeout']))}})
  },
  gemini: {
    file: '.gemini/settings.json',
    schema: hooksFile('AfterAgent', {
      type: 'object',
      required: ['hooks'],
      additionalProperties: false,
      properties: {matcher: {type: 'string'}, sequential: {type: 'boolean'}, hooks: list(commandHandler(['name', 'timeout', 'description']))}
    })
  },
  cursor: {
    file: '.cursor/hooks.json',
    schema: hooksFile(
      'stop',
      {
        type: 'object',
        required: ['command'],
        properties: {command, type: {const: 'command'}, timeout: {type: 'number'}, loop_limit: {type: ['integer', 'null']}}
      },
      {version: {const: 1}}
    )
  },
  copilot: {
    file: '.github/hooks/tiers.json',
    schema: hooksFile(
      'agentStop',
      {
        type: 'object',
        required: ['type', 'bash', 'powershell'],
        additionalProperties: false,
        properties: {type: {const: 'command'}, bash: command, powershell: command, cwd: {type: 'string'}, timeoutSec: {type: 'number'}, env: {type: 'object'}}
      },
      {version: {const: 1}}
    )
  }
}

async function schemaOf(agent: Agent): Promise<{file: string; schema: object}> {
  if (agent !== 'codex') return documented[agent]
  return {file: '.codex/hooks.json', schema: JSON.parse(await fs.readFile(path.join(root, 'test', 'fixtures', 'agent-schemas', 'codex-hooks.json'), 'utf8'))}
}

const agents: readonly Agent[] = ['claude', 'codex', 'cursor', 'gemini', 'copilot']

/** What `tiers init` says of each agent’s hook file. */
const said: Record<Agent, string> = {
  claude: 'Claude Code’s Stop hook runs `npx tiers stop-hook`',
  codex: 'Codex CLI’s Stop hook runs `npx tiers stop-hook --agent codex`',
  cursor: 'Cursor’s stop hook runs `npx tiers stop-hook --agent cursor`',
  gemini: 'Gemini CLI’s AfterAgent hook runs `npx tiers stop-hook --agent gemini`',
  copilot: 'GitHub Copilot’s agentStop hook runs `npx tiers stop-hook --agent copilot`'
}

const read = async (folder: string, file: string) => JSON.parse(await fs.readFile(path.join(folder, file), 'utf8'))

describe.concurrent('tiers init --agent', () => {
  for (const agent of agents) {
    it(`${agent}: writes a file the agent’s documented format accepts; a second run changes nothing`, async () => {
      const folder = await project()
      const {file, schema} = await schemaOf(agent)
      const first = await runTiers(folder, ['init', '--agent', agent])
      expect({code: first.code, stderr: first.stderr}).toEqual({code: 0, stderr: ''})
      expect(first.stdout.split('\n')).toContain(`created ${file}: ${said[agent]}`)
      const ajv = new Ajv({strict: false})
      const written = await read(folder, file)
      expect(ajv.validate(schema, written), ajv.errorsText()).toBe(true)
      // Only the agent named: no other agent’s file.
      if (agent !== 'claude') await expect(fs.access(path.join(folder, '.claude'))).rejects.toThrow()
      const text = await fs.readFile(path.join(folder, file), 'utf8')
      const second = await runTiers(folder, ['init', '--agent', agent])
      expect(second.code).toBe(0)
      expect(second.stdout.split('\n').slice(-2)).toEqual(['nothing to change', ''])
      expect(await fs.readFile(path.join(folder, file), 'utf8')).toBe(text)
    })
  }

  it('merges into the hooks already there, keeping every other entry and setting, and sets the missing version', async () => {
    const mine = {type: 'command', bash: './check.sh', powershell: './check.ps1'}
    const folder = await project({
      '.cursor/hooks.json': `${JSON.stringify({hooks: {stop: [{command: './notify.sh'}], afterFileEdit: [{command: './format.sh'}]}}, null, 2)}\n`,
      '.gemini/settings.json': `${JSON.stringify({model: {name: 'gemini-2.5-pro'}, hooks: {AfterAgent: [{hooks: [{type: 'command', command: './log.sh'}]}]}}, null, 2)}\n`,
      '.github/hooks/tiers.json': `${JSON.stringify({version: 1, hooks: {sessionStart: [mine]}}, null, 2)}\n`
    })
    const run = await runTiers(folder, ['init'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n').filter((line) => line.startsWith('updated '))).toEqual([
      `updated .github/hooks/tiers.json: ${said.copilot}`,
      `updated .cursor/hooks.json: ${said.cursor}`,
      `updated .gemini/settings.json: ${said.gemini}`
    ])
    expect(await read(folder, '.cursor/hooks.json')).toEqual({
      hooks: {stop: [{command: './notify.sh'}, {command: 'npx tiers stop-hook --agent cursor'}], afterFileEdit: [{command: './format.sh'}]},
      version: 1
    })
    expect(await read(folder, '.gemini/settings.json')).toEqual({
      model: {name: 'gemini-2.5-pro'},
      hooks: {AfterAgent: [{hooks: [{type: 'command', command: './log.sh'}]}, {hooks: [{type: 'command', command: 'npx tiers stop-hook --agent gemini'}]}]}
    })
    const copilot = 'npx tiers stop-hook --agent copilot'
    expect(await read(folder, '.github/hooks/tiers.json')).toEqual({
      version: 1,
      hooks: {sessionStart: [mine], agentStop: [{type: 'command', bash: copilot, powershell: copilot}]}
    })
    // Found from their folders: no Claude Code settings in a repository that does not use it.
    await expect(fs.access(path.join(folder, '.claude'))).rejects.toThrow()
    const before = await Promise.all(
      ['.cursor/hooks.json', '.gemini/settings.json', '.github/hooks/tiers.json'].map((file) => fs.readFile(path.join(folder, file), 'utf8'))
    )
    const again = await runTiers(folder, ['init'])
    expect(again.stdout.split('\n').slice(-2)).toEqual(['nothing to change', ''])
    expect(
      await Promise.all(['.cursor/hooks.json', '.gemini/settings.json', '.github/hooks/tiers.json'].map((file) => fs.readFile(path.join(folder, file), 'utf8')))
    ).toEqual(before)
  })

  it('--dry-run prints the diff of each agent’s file and writes nothing; an unknown agent is refused', async () => {
    const folder = await project()
    const run = await runTiers(folder, ['init', '--dry-run', '--agent', 'codex', '--agent', 'cursor', '--agent', 'codex'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('+++ b/.codex/hooks.json\n')
    expect(run.stdout).toContain('+++ b/.cursor/hooks.json\n')
    expect(run.stdout.split('\n').filter((line) => line.startsWith('would create .c'))).toEqual([
      `would create .codex/hooks.json: ${said.codex}`,
      `would create .cursor/hooks.json: ${said.cursor}`
    ])
    expect(await fs.readdir(folder)).toEqual([])
    expect(await runTiers(folder, ['init', '--agent', 'amp'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected `--agent amp`, expected one of claude, codex, copilot, cursor, gemini\n'
    })
  })
})
