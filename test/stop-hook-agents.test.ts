/**
 * `tiers stop-hook` in the protocol of each coding agent that can hold its
 * stop, through the cli's `main`: the input each agent's documentation (and
 * Codex's published schema, in `fixtures/agent-schemas`) gives, the answer
 * in the agent's shape and exit code for a block, an allow, input that is
 * not a JSON object and the safety valve; and a repository set up for two
 * agents by `tiers init` getting the same decision from both.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {Ajv} from 'ajv'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, evidenceProject, root} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

type Agent = 'claude' | 'codex' | 'cursor' | 'gemini' | 'copilot'
const agents: readonly Agent[] = ['claude', 'codex', 'cursor', 'gemini', 'copilot']

/** Each agent’s own session id, so that each counts its blocks apart in one project. */
const sessions: Record<Agent, string> = {
  claude: 'session-claude',
  codex: 'session-codex',
  cursor: '0f8fad5b-d9cb-469f-a165-70867728950e',
  gemini: 'session-gemini',
  copilot: '01HW2X3Y4Z5'
}

/** The input of each agent’s stop, as its documentation gives it. */
const inputs: Record<Agent, (cwd: string) => Record<string, unknown>> = {
  claude: (cwd) => ({
    session_id: sessions.claude,
    transcript_path: path.join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'Done.'
  }),
  codex: (cwd) => ({
    session_id: sessions.codex,
    turn_id: 'turn-1',
    cwd,
    model: 'gpt-5-codex',
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'Done.',
    transcript_path: null
  }),
  cursor: (cwd) => ({
    conversation_id: sessions.cursor,
    generation_id: '26b45fb6-bdea-439c-b2dc-5e97ee00ecea',
    model: 'default',
    hook_event_name: 'stop',
    cursor_version: '2.0.77',
    workspace_roots: [cwd],
    status: 'completed',
    loop_count: 0
  }),
  gemini: (cwd) => ({
    session_id: sessions.gemini,
    transcript_path: path.join(cwd, 'transcript.json'),
    cwd,
    hook_event_name: 'AfterAgent',
    timestamp: '2026-01-01T10:00:00.000Z',
    prompt: 'Build the answer service',
    prompt_response: 'Done.',
    stop_hook_active: false
  }),
  copilot: (cwd) => ({timestamp: 1704614750000, cwd, sessionId: sessions.copilot, transcriptPath: path.join(cwd, 'transcript.jsonl'), stopReason: 'end_turn'})
}

/** A block in each agent’s words. */
const blockOf: Record<Agent, (reason: string) => Record<string, string>> = {
  claude: (reason) => ({decision: 'block', reason}),
  codex: (reason) => ({decision: 'block', reason}),
  cursor: (reason) => ({followup_message: reason}),
  gemini: (reason) => ({decision: 'deny', reason}),
  copilot: (reason) => ({decision: 'block', reason})
}

/** The folder it works in, with neither the agents’ variables nor a cap of its own set by the environment the tests run in. */
const clean = {
  CLAUDE_PROJECT_DIR: undefined,
  GEMINI_PROJECT_DIR: undefined,
  CURSOR_PROJECT_DIR: undefined,
  CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: undefined,
  TIERS_MAX_BLOCKS: undefined
}

/** `tiers stop-hook` (with `args`) through the cli's `main`, fed `input`, from the system’s temp folder so that the project is found from the input alone. */
function hook(input: unknown, args: readonly string[] = [], env: Record<string, string | undefined> = {}): Promise<Run> {
  const text = typeof input === 'string' ? input : JSON.stringify(input)
  return runTiers(os.tmpdir(), ['stop-hook', ...args], text, {...clean, ...env})
}

function answer(stdout: Record<string, string>, stderr = ''): Run {
  return {code: 0, stdout: `${JSON.stringify(stdout)}\n`, stderr}
}

/** Blocks so far of each session, as earlier stops would have left them. */
async function writeCounts(folder: string, blocks: Partial<Record<Agent, number>>): Promise<void> {
  await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
  const entries = Object.entries(blocks).map(([agent, count]) => [sessions[agent as Agent], {blocks: count, at: '2026-01-01T10:00:00.000Z'}])
  await fs.writeFile(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'), JSON.stringify({version: 1, sessions: Object.fromEntries(entries)}))
}

const codexSchema = async (name: string) => JSON.parse(await fs.readFile(path.join(root, 'test', 'fixtures', 'agent-schemas', name), 'utf8'))

describe.concurrent('tiers stop-hook, for each coding agent', () => {
  it('blocks in each agent’s shape, exit 0, with the same reason, known from its input or named with --agent', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    const claude = await hook(inputs.claude(folder))
    expect({code: claude.code, stderr: claude.stderr}).toEqual({code: 0, stderr: ''})
    const reason = JSON.parse(claude.stdout).reason as string
    expect(reason.split('\n')[0]).toBe('HOLD: Cannot stop - verification not run.')
    for (const agent of agents) {
      expect(await hook(inputs[agent](folder)), agent).toEqual(answer(blockOf[agent](reason)))
      expect(await hook(inputs[agent](folder), ['--agent', agent]), agent).toEqual(answer(blockOf[agent](reason)))
    }
    // Codex’s input and answer, as its own schemas define them.
    const ajv = new Ajv({strict: false})
    expect(ajv.validate(await codexSchema('codex-stop.command.input.schema.json'), inputs.codex(folder)), ajv.errorsText()).toBe(true)
    const codex = await hook(inputs.codex(folder))
    expect(ajv.validate(await codexSchema('codex-stop.command.output.schema.json'), JSON.parse(codex.stdout)), ajv.errorsText()).toBe(true)
  })

  it('allows with `{}` in every agent when nothing holds', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    // Only S-02, whose criteria all have commands, and a passing run of it.
    const file = path.join(folder, '.greenlight', 'CONTRACTS.md')
    const text = await fs.readFile(file, 'utf8')
    await fs.writeFile(file, text.slice(0, text.indexOf('## S-01')) + text.slice(text.indexOf('## S-02')))
    await fs.rm(path.join(folder, '.greenlight', 'contracts', 'C-03.md'))
    const verify = await runTiers(folder, ['verify', 'S-02'])
    expect(verify.stderr).toBe('')
    for (const agent of agents) expect(await hook(inputs[agent](folder)), agent).toEqual(answer({}))
    const ajv = new Ajv({strict: false})
    expect(ajv.validate(await codexSchema('codex-stop.command.output.schema.json'), {})).toBe(true)
  })

  it('refuses input that is not a JSON object, a bad session id and an unknown --agent: exit 1, one line, nothing on stdout', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    const refused = (stderr: string): Run => ({code: 1, stdout: '', stderr: `tiers: ${stderr}\n`})
    for (const agent of agents) {
      expect(await hook('[1]', ['--agent', agent]), agent).toEqual(
        refused('Unexpected stop-hook input (a list), expected the hook’s JSON object on standard input')
      )
    }
    const bad = (agent: Agent, key: string) => hook({...inputs[agent](folder), [key]: '../x'})
    const badCursor = await bad('cursor', 'conversation_id')
    expect(badCursor.stderr.split(' in the stop')[0]).toBe('tiers: Unexpected `conversation_id` "../x"')
    expect(badCursor.code).toBe(1)
    const badCopilot = await bad('copilot', 'sessionId')
    expect(badCopilot.stderr.split(' in the stop')[0]).toBe('tiers: Unexpected `sessionId` "../x"')
    expect(await hook(inputs.claude(folder), ['--agent', 'windsurf'])).toEqual(
      refused('Unexpected `--agent windsurf`, expected one of claude, codex, copilot, cursor, gemini')
    )
    // Nothing was counted.
    await expect(fs.access(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'))).rejects.toThrow()
  })

  it('opens the safety valve where each agent’s own loop guard would, never before it, and 5 where it has none', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    // One block before each agent’s limit: Claude Code and GitHub Copilot end the blocks after 8, Codex and Gemini CLI have no guard (5), Cursor’s `loop_limit` the hook cannot see.
    await writeCounts(folder, {claude: 7, copilot: 7, codex: 4, gemini: 4, cursor: 100})
    const valve = (blocks: number) => new RegExp(`^WARNING: Stop allowed by the safety valve after ${blocks} blocks \\(limit ${blocks}\\)\\.\\n`)
    const shape = (run: Run) => ({code: run.code, keys: Object.keys(JSON.parse(run.stdout)), stderr: run.stderr === '' ? '' : 'said'})
    for (const agent of agents) {
      const first = await hook(inputs[agent](folder))
      expect(shape(first), agent).toEqual({code: 0, keys: Object.keys(blockOf[agent]('')), stderr: ''})
    }
    const limits: Record<Exclude<Agent, 'cursor'>, number> = {claude: 8, copilot: 8, codex: 5, gemini: 5}
    for (const [agent, limit] of Object.entries(limits) as Array<[Exclude<Agent, 'cursor'>, number]>) {
      const run = await hook(inputs[agent](folder))
      if (agent === 'copilot') {
        // GitHub Copilot’s answer has no field for the person: the warning goes to stderr.
        expect({code: run.code, stdout: run.stdout}).toEqual({code: 0, stdout: '{}\n'})
        expect(run.stderr.replace(/^tiers: warning: /, '')).toMatch(valve(limit))
      } else {
        expect({code: run.code, stderr: run.stderr, keys: Object.keys(JSON.parse(run.stdout))}, agent).toEqual({code: 0, stderr: '', keys: ['systemMessage']})
        expect(JSON.parse(run.stdout).systemMessage, agent).toMatch(valve(limit))
      }
    }
    // Cursor goes on blocking: its own `loop_limit` ends the follow-ups.
    expect(shape(await hook(inputs.cursor(folder)))).toEqual({code: 0, keys: ['followup_message'], stderr: ''})
    const counts = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'), 'utf8')).sessions
    expect(Object.fromEntries(agents.map((agent) => [agent, counts[sessions[agent]].blocks]))).toEqual({
      claude: 0,
      codex: 0,
      cursor: 102,
      gemini: 0,
      copilot: 0
    })
  })

  it('reads the project from each agent’s variables: GEMINI_PROJECT_DIR for Gemini CLI, and not Claude Code’s for Codex', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    const away = os.tmpdir()
    const gemini = await hook({...inputs.gemini(folder), cwd: away}, [], {GEMINI_PROJECT_DIR: folder})
    expect(JSON.parse(gemini.stdout).decision).toBe('deny')
    const codex = await hook({...inputs.codex(folder), cwd: away}, [], {CLAUDE_PROJECT_DIR: folder})
    expect(codex).toEqual(answer({}))
  })

  it('a repository set up for Claude Code and Codex by tiers init gets the same decision from both', async () => {
    const folder = await evidenceProject(folders, 'verification-tiers-agents-')
    await fs.mkdir(path.join(folder, '.claude'))
    await fs.mkdir(path.join(folder, '.codex'))
    const init = await runTiers(folder, ['init'])
    expect(init.code).toBe(0)
    expect(init.stdout).toContain('created .codex/hooks.json: Codex CLI’s Stop hook runs `npx tiers stop-hook --agent codex`\n')
    expect(init.stdout).toContain('created .claude/settings.json: Claude Code’s Stop hook runs `npx tiers stop-hook`\n')
    // Each agent runs the command its file names, as `npx tiers …` would.
    const commandIn = async (file: string) => JSON.parse(await fs.readFile(path.join(folder, file), 'utf8')).hooks.Stop[0].hooks[0].command as string
    const run = async (file: string, agent: Agent) => {
      const args = (await commandIn(file)).split(' ').slice(2)
      return hook(inputs[agent](folder), args.slice(1))
    }
    const claude = JSON.parse((await run('.claude/settings.json', 'claude')).stdout)
    const codex = JSON.parse((await run('.codex/hooks.json', 'codex')).stdout)
    expect(claude.decision).toBe('block')
    expect(codex).toEqual(claude)
  })
})
