/**
 * Every coding agent `tiers` knows: the variables each sets in the
 * environment of the commands it runs (`agentMarkers`, how `tiers` tells an
 * agent's command from a person's), and the agents whose stop a hook can
 * hold (`hookAgents`): one entry each, with all
 * `tiers` needs to know of it — the file its project's hooks live in and
 * the entry that runs `tiers stop-hook` there, the input it sends (how to
 * tell it, where its session and project are), the answer it reads, and
 * its own loop guard. `tiers stop-hook` and `tiers init` read this list and
 * nothing else: add an agent here, and both follow.
 *
 * Agents that cannot hold a stop today (Windsurf: only its pre-hooks block;
 * Amp: no stop event; Cline: its `TaskComplete` cannot continue the task;
 * opencode: `session.idle` fires after the loop ended) are not among
 * `hookAgents`: for them, `tiers ci` holds the merge instead.
 */
import isRecord from 'is-plain-obj'

/** A variable a coding agent sets in the environment of the commands it runs. */
export interface AgentMarker {
  /** Its name; one ending in `*` stands for every variable whose name starts with what comes before. */
  variable: string
  /** The value that marks the agent (compared in any case); absent: any value that is not empty. */
  value?: string
  /** The agent, as messages name it. */
  agent: string
}

/**
 * Every known marker, the more telling first: the first found names the
 * agent (Amp also sets `CLAUDECODE`; Claude Code also sets `AI_AGENT`).
 * From what each agent sets, as of 2026 (their source, changelogs and
 * reports): add one here, and messages, the refusal and the test setup
 * follow. Not markers: `CURSOR_TRACE_ID` and `TERM_PROGRAM` (set in a
 * person’s terminal too), `CLAUDE_PROJECT_DIR` (set for hooks, not for the
 * agent’s commands).
 */
export const agentMarkers: readonly AgentMarker[] = [
  {variable: 'AMP_CURRENT_THREAD_ID', agent: 'Amp'},
  {variable: 'AGENT', value: 'amp', agent: 'Amp'},
  {variable: 'AGENT', value: 'goose', agent: 'Goose'},
  {variable: 'GOOSE_TERMINAL', agent: 'Goose'},
  {variable: 'CLAUDECODE', agent: 'Claude Code'},
  {variable: 'CLAUDE_CODE_ENTRYPOINT', agent: 'Claude Code'},
  {variable: 'CLAUDE_CODE_SESSION_ID', agent: 'Claude Code'},
  {variable: 'CODEX_THREAD_ID', agent: 'Codex'},
  {variable: 'CODEX_CI', agent: 'Codex'},
  {variable: 'CODEX_SANDBOX*', agent: 'Codex'},
  {variable: 'GEMINI_CLI', agent: 'Gemini CLI'},
  {variable: 'CURSOR_AGENT', agent: 'Cursor'},
  {variable: 'CURSOR_EXTENSION_HOST_ROLE', value: 'agent-exec', agent: 'Cursor'},
  {variable: 'COPILOT_AGENT', agent: 'GitHub Copilot'},
  {variable: 'COPILOT_CLI', agent: 'GitHub Copilot CLI'},
  {variable: 'COPILOT_AGENT_SESSION_ID', agent: 'GitHub Copilot'},
  {variable: 'GITHUB_COPILOT_CLI_MODE', agent: 'GitHub Copilot CLI'},
  {variable: 'OPENCODE', agent: 'opencode'},
  {variable: 'CLINE_ACTIVE', agent: 'Cline'},
  {variable: 'CLINE_SANDBOX', agent: 'Cline'},
  {variable: 'AUGMENT_AGENT', agent: 'Augment'},
  {variable: 'ANTIGRAVITY_AGENT', agent: 'Antigravity'},
  {variable: 'PI_CODING_AGENT', agent: 'Pi'},
  // The conventions several agents share: the agent is not named.
  {variable: 'AI_AGENT', agent: 'a coding agent'},
  {variable: 'AGENT', agent: 'a coding agent'}
]

/** The command each agent runs when it wants to stop. */
export const stopHookCommand = 'npx tiers stop-hook'

/** What a hook answers, before it is put in an agent's words: a block with its reason, or an allow with a message for the person (`null`: none). */
export type HookAnswer = {decision: 'block'; reason: string} | {decision: 'allow'; message: string | null}

export interface HookAgent {
  /** The name `--agent` takes. */
  id: string
  /** As messages and the README name it. */
  name: string
  /** The folder whose presence says the repository uses the agent (`tiers init` sets the hook up for it). */
  folder: string
  /** The project file its hooks are configured in. */
  file: string
  /** What the file holds beside `hooks` (`{"version": 1}`), set when it is missing. */
  header: Record<string, unknown>
  /** The hook event of its main agent's stop. */
  event: string
  /** The hook entry under `event` that runs `command`, in the agent's documented format. */
  entry: (command: string) => Record<string, unknown>
  /** Whether the input is this agent's (when `--agent` does not say). */
  sends: (input: Record<string, unknown>) => boolean
  /** The input's field naming its session, whose blocks the safety valve counts. */
  session: string
  /** The folder the agent works in, from its input. */
  cwd: (input: Record<string, unknown>) => unknown
  /** The variables the agent sets for its hooks naming its project folder. */
  projectVariables: readonly string[]
  /** The answer in its words: what it prints on stdout (exit 0). An allow's message goes to stderr when the agent has no field for it. */
  answer: (answer: HookAnswer) => {stdout: Record<string, string>; stderr: string | null}
  /**
   * Its own loop guard: the blocks in a row after which it lets its agent
   * stop whatever the hook answers (read from `env` where it can be set),
   * `null` when it has none (then the safety valve is `TIERS_MAX_BLOCKS`'s),
   * or `Infinity` when it has one the hook cannot see (Cursor's
   * `loop_limit`): the safety valve then never opens before it.
   */
  loopGuard: (env: NodeJS.ProcessEnv) => number | null
  /** How its loop guard works, for the README and messages. */
  loopGuardText: string
}

/** `{hooks: [{type: 'command', command}]}`: the entry of Claude Code, Codex and Gemini CLI. */
const groupEntry = (command: string) => ({hooks: [{type: 'command', command}]})

/** The block every agent reads as `{decision: 'block', reason}` (Gemini CLI's `deny` aside), and an allow as `{}` or a `systemMessage`. */
const decisionAnswer =
  (blockWord: string, message: boolean) =>
  (answer: HookAnswer): {stdout: Record<string, string>; stderr: string | null} => {
    if (answer.decision === 'block') return {stdout: {decision: blockWord, reason: answer.reason}, stderr: null}
    if (answer.message === null) return {stdout: {}, stderr: null}
    return message ? {stdout: {systemMessage: answer.message}, stderr: null} : {stdout: {}, stderr: answer.message}
  }

/** A whole number of 1 or more from `value`, else `fallback`. */
function count(value: string | undefined, fallback: number): number {
  const number = Number(value)
  return value !== undefined && value !== '' && Number.isInteger(number) && number >= 1 ? number : fallback
}

const has = (input: Record<string, unknown>, key: string) => Object.hasOwn(input, key)

/** Every agent whose stop `tiers stop-hook` holds, in the order their input is recognised (Claude Code, whose input the others' resemble, last). */
export const hookAgents: readonly HookAgent[] = [
  {
    id: 'cursor',
    name: 'Cursor',
    folder: '.cursor',
    file: '.cursor/hooks.json',
    header: {version: 1},
    event: 'stop',
    entry: (command) => ({command}),
    sends: (input) => input.hook_event_name === 'stop' || (has(input, 'conversation_id') && has(input, 'loop_count')),
    session: 'conversation_id',
    cwd: (input) => (Array.isArray(input.workspace_roots) ? input.workspace_roots[0] : input.cwd),
    projectVariables: ['CURSOR_PROJECT_DIR'],
    answer: (answer): {stdout: Record<string, string>; stderr: string | null} =>
      answer.decision === 'block' ? {stdout: {followup_message: answer.reason}, stderr: null} : {stdout: {}, stderr: answer.message},
    loopGuard: () => Number.POSITIVE_INFINITY,
    loopGuardText: '`loop_limit` in `.cursor/hooks.json` (the hook cannot see it, so no valve of its own)'
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    folder: '.gemini',
    file: '.gemini/settings.json',
    header: {},
    event: 'AfterAgent',
    entry: groupEntry,
    sends: (input) => input.hook_event_name === 'AfterAgent' || has(input, 'prompt_response'),
    session: 'session_id',
    cwd: (input) => input.cwd,
    projectVariables: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    answer: decisionAnswer('deny', true),
    loopGuard: () => null,
    loopGuardText: 'none: `TIERS_MAX_BLOCKS` (default 5)'
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot',
    folder: '.github/hooks',
    file: '.github/hooks/tiers.json',
    header: {version: 1},
    event: 'agentStop',
    entry: (command) => ({type: 'command', bash: command, powershell: command}),
    sends: (input) => input.hook_event_name === 'agentStop' || has(input, 'sessionId') || has(input, 'stopReason'),
    session: 'sessionId',
    cwd: (input) => input.cwd,
    projectVariables: [],
    answer: decisionAnswer('block', false),
    loopGuard: () => 8,
    loopGuardText: '8 blocks in a row'
  },
  {
    id: 'codex',
    name: 'Codex CLI',
    folder: '.codex',
    file: '.codex/hooks.json',
    header: {},
    event: 'Stop',
    entry: groupEntry,
    sends: (input) => has(input, 'turn_id'),
    session: 'session_id',
    cwd: (input) => input.cwd,
    projectVariables: [],
    answer: decisionAnswer('block', true),
    loopGuard: () => null,
    loopGuardText: 'none: `TIERS_MAX_BLOCKS` (default 5)'
  },
  {
    id: 'claude',
    name: 'Claude Code',
    folder: '.claude',
    file: '.claude/settings.json',
    header: {},
    event: 'Stop',
    entry: groupEntry,
    sends: () => true,
    session: 'session_id',
    cwd: (input) => input.cwd,
    projectVariables: ['CLAUDE_PROJECT_DIR'],
    answer: decisionAnswer('block', true),
    loopGuard: (env) => count(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 8),
    loopGuardText: '8 blocks in a row (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`)'
  }
]

/** The agent Claude Code's input and an empty one are read as. */
export const defaultHookAgent = hookAgents.find((agent) => agent.id === 'claude') as HookAgent

/** The ids `--agent` takes, in the order of the alphabet. */
export const hookAgentIds: readonly string[] = hookAgents.map((agent) => agent.id).sort()

/** Why `--agent <id>` names no agent, in one line. */
export function unknownAgent(id: string): string {
  return `Unexpected \`--agent ${id}\`, expected one of ${hookAgentIds.join(', ')}`
}

/** The agent `id` names, or `null`. */
export function hookAgent(id: string): HookAgent | null {
  return hookAgents.find((agent) => agent.id === id) ?? null
}

/** The agent whose input `input` is. */
export function agentOfInput(input: Record<string, unknown>): HookAgent {
  return hookAgents.find((agent) => agent.sends(input)) ?? defaultHookAgent
}

/** The command an agent's hook runs: `npx tiers stop-hook`, naming the agent but for Claude Code (whose input is the default). */
export function agentStopCommand(agent: HookAgent): string {
  return agent === defaultHookAgent ? stopHookCommand : `${stopHookCommand} --agent ${agent.id}`
}

/** Whether a hook entry already runs `tiers stop-hook`, however it is written (`command`, `bash`, or a group's `hooks`). */
export function runsStopHook(entry: unknown): boolean {
  if (!isRecord(entry)) return false
  const runs = (value: unknown) => typeof value === 'string' && /\btiers(?:\.js)?\s+stop-hook\b/.test(value)
  if (runs(entry.command) || runs(entry.bash) || runs(entry.powershell)) return true
  return Array.isArray(entry.hooks) && entry.hooks.some((hook) => isRecord(hook) && runs(hook.command))
}
