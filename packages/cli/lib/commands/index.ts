import {approvalReplies, barePartialReplies, bareRejectionReplies, escalationOptions} from '@verification-tiers/protocol/vocabulary'
import type {Command} from './shared.js'

export type {CommandInput, CommandResult} from './shared.js'

/** For help text. */
export const escalationChoices = escalationOptions.map((option) => `${option.choice} ${option.title}`).join(', ')

/** An option as help shows it. */
export interface OptionHelp {
  flag: string
  text: string
  /** Its one-letter form, when it has one (`h` for `-h`). */
  short?: string
}

/** Every option of the gate’s commands, in help order: the one description of each. */
export const optionHelp = {
  dir: {flag: '--dir <folder>', text: 'project folder (default: the nearest one, from here upward)'},
  json: {flag: '--json', text: 'print JSON for orchestrators'},
  yaml: {flag: '--yaml', text: 'print YAML (verify’s result as the status file keeps it)'},
  detail: {flag: '--detail <text>', text: 'the user’s detail, for route 3'},
  timeout: {flag: '--timeout <s>', text: 'seconds per check (default 60, at most 86400), for verify'},
  'env-allow': {flag: '--env-allow <a,b>', text: 'give verify’s checks only these variables and PATH, HOME, … (see the readme)'},
  slice: {flag: '--slice <slice>', text: 'one slice’s contracts, for contracts'},
  all: {flag: '--all', text: 'every slice, for verify'},
  undo: {flag: '--undo', text: 'withdraw the slice’s latest answer, for respond (no text)'},
  agent: {
    flag: '--agent <name>',
    text: 'the coding agent whose hook runs, for stop-hook: claude, codex, copilot, cursor or gemini (default: known from its input)'
  },
  base: {
    flag: '--base <ref>',
    text: 'the git revision the branch started from: ci judges only what changed since; checkpoint, review and respond hold a slice lowered since'
  },
  help: {flag: '-h, --help', text: 'show this help', short: 'h'},
  version: {flag: '-v, --version', text: 'print the version of tiers', short: 'v'},
  debug: {flag: '--debug', text: 'print the stack of an unexpected error (or set DEBUG=tiers)'}
} as const satisfies Record<string, OptionHelp>

export type OptionName = keyof typeof optionHelp

/** Options every command takes. */
export const globalOptions = ['dir', 'json', 'yaml', 'help'] as const satisfies readonly OptionName[]

/** One command: what it runs, and everything its help says and its arguments are checked against. */
export interface CommandSpec {
  run: Command
  /** The usage after `tiers `: `checkpoint <slice>`; errors about the arguments quote it. */
  usage: string
  /** One line in `tiers --help`. */
  summary: string
  /** What it does, for `tiers <command> --help`. */
  description: string
  /** The options it takes besides the global ones. */
  options: readonly OptionName[]
  /** How many arguments it takes after its name; `Infinity` for free text. */
  args: {min: number; max: number}
  /** What each of its exit codes means. */
  exitCodes: Readonly<Record<number, string>>
}

/**
 * A command whose module loads when it runs: the table, the help and every
 * other command load none of it (`tiers` starts at every stop of an agent).
 */
function lazy<Name extends string>(load: () => Promise<Record<Name, Command>>, name: Name): Command {
  return async (input) => (await load())[name](input)
}

const gate = () => import('./gate.js')

const broken = 'a broken file (named, with its line when it has one)'

/** `\`yes\`, \`ok\``: replies as help quotes them. */
const quotedList = (replies: readonly string[]) => replies.map((reply) => `\`${reply}\``).join(', ')

const specs: Record<string, CommandSpec> = {
  checkpoint: {
    run: lazy(gate, 'checkpoint'),
    usage: 'checkpoint <slice>',
    summary: 'print the slice’s Verify checkpoint (or say it is auto)',
    description: `Print the slice’s Verify checkpoint: the acceptance criteria, then the steps,
of each of its verify contracts. The checkpoint opens only on the slice’s
latest \`tiers verify\` run, passing, with nothing changed since (contracts,
git HEAD, uncommitted changes); otherwise it says what is missing, failed or
changed. For an auto slice it says no checkpoint is needed. Writes nothing.

A change that asks less of a person than they approved (verify to auto, a
criterion or step removed or reworded, a contract removed, the slice’s human
check retired) keeps the slice verify until a person approves it as it is:
its checkpoint lists each change, old and new, with its file and line. With
--base, a change since that git revision counts too, unless a person
approved the slice as it is.`,
    options: ['base'],
    args: {min: 1, max: 1},
    exitCodes: {0: 'the checkpoint, or the slice is auto', 1: 'the gate is closed (no fresh passing verification), or a usage error', 2: broken}
  },
  respond: {
    run: lazy(gate, 'respond'),
    usage: 'respond <slice> <text…> | --undo <slice>',
    summary: 'record the user’s reply: approval, or feedback verbatim; --undo withdraws the latest',
    description: `Record the user’s reply to the checkpoint. A reply is read in any case and
skin tone, with the spaces around it and a final \`.\`, \`!\` or \`)\` dropped, and nothing is read
inside a longer reply. Exactly one of these approves (the slice is complete):
${quotedList(approvalReplies)}.
An approval is taken only when the checkpoint can be shown: a fresh passing
\`tiers verify\` run; and only from the person at a terminal: a coding
agent’s command (a variable an agent sets, such as CLAUDECODE) or one without
a terminal is refused, and nothing is recorded (\`tiers review\` is the
person’s way). Feedback may be relayed from anywhere. A bare no or partially records nothing and asks for the
description: ${quotedList([...bareRejectionReplies, ...barePartialReplies])}.
Anything else is feedback: the output says so, then counts it as a rejection,
kept verbatim (\`3 …\` and \`partially: …\` mark it partial); at the threshold
it prints the escalation. A mismatch deferred by skipping verification stays
recorded with any later decision. An approval keeps the slice as it is (its
tier, each contract’s tier, criteria and steps): it confirms what changed
since the last one, and a later change that asks less of a person waits for
the next (see \`tiers checkpoint --help\`; --base as there).

\`tiers respond --undo <slice>\` withdraws the slice’s latest answer: its
rejection count and decision go back to what they were before it, and the
answer stays in the state file, marked withdrawn. An answer followed by an
escalation choice can no longer be withdrawn; a withdrawal is taken only
from the person at a terminal, as an approval is.`,
    options: ['undo', 'base'],
    args: {min: 1, max: Infinity},
    exitCodes: {
      0: 'recorded or withdrawn',
      1: 'a bare no without a description, an approval without fresh passing verification or not from the person at a terminal, a rejection while an escalation choice is due, nothing to withdraw, another `tiers` changing the slice meanwhile (nothing recorded: send the reply again), or a usage error',
      2: broken
    }
  },
  review: {
    run: lazy(gate, 'review'),
    usage: 'review [slice]',
    summary: 'show the checkpoint at your terminal and record the answer you type',
    description: `For the person, at a terminal: show the slice’s Verify checkpoint (as
\`tiers checkpoint\` prints it, and refused as it is without a fresh passing
\`tiers verify\` run), read the answer typed, one line, and record it as
\`tiers respond\` does (the same reading of replies, the same output). Without
a slice, the first slice waiting for its checkpoint. Refused, with nothing
shown or recorded, from a coding agent’s command (a variable an agent sets,
such as CLAUDECODE) or without a terminal. With --base, a slice lowered since
that git revision is held as \`tiers checkpoint --base\` holds it.`,
    options: ['base'],
    args: {min: 0, max: 1},
    exitCodes: {
      0: 'the answer recorded, or the slice is auto',
      1: 'an agent’s command or no terminal, the gate is closed (no fresh passing verification), no slice waiting, no answer before the input ended, a bare no without a description, or a usage error',
      2: broken
    }
  },
  route: {
    run: lazy(gate, 'route'),
    usage: 'route <slice> <1|2|3> [--detail <text>]',
    summary: 'record how to address the latest rejection; print the hand-off',
    description: `Record how to address the latest rejection and print the hand-off:
1 tighten the tests (test writer), 2 revise the contract (user),
3 provide more detail (test writer; needs --detail).`,
    options: ['detail'],
    args: {min: 2, max: 2},
    exitCodes: {0: 'recorded', 1: 'a bad choice, no rejection waiting for a route, an escalation choice due first, or a usage error', 2: broken}
  },
  escalate: {
    run: lazy(gate, 'escalate'),
    usage: 'escalate <slice> <1|2|3>',
    summary: `record the escalation choice (${escalationChoices})`,
    description: `Record the escalation choice once the slice has reached the rejection
threshold: 1 re-scope (the count starts again at 0), 2 pair (the user’s
guidance routes the pending rejection), 3 skip verification (accepted as
auto, the open feedback kept as the acknowledged mismatch). Taken only from
the person at a terminal, as an approval is.`,
    options: [],
    args: {min: 2, max: 2},
    exitCodes: {
      0: 'recorded',
      1: 'a bad choice, not from the person at a terminal, fewer rejections than the threshold, a slice already decided, or a usage error',
      2: broken
    }
  },
  status: {
    run: lazy(gate, 'status'),
    usage: 'status [slice]',
    summary: 'tiers, rejection counts, decisions and stale approvals',
    description: `One line per slice (or the one given): its tier, rejections of the threshold,
decision (stale when its contracts changed since), what it waits for, and
each change that asks less of a person than they approved (old and new,
with its file and line): the slice stays verify until a person approves it
as it is.`,
    options: [],
    args: {min: 0, max: 1},
    exitCodes: {0: 'done', 1: 'a usage error', 2: broken}
  },
  report: {
    run: lazy(gate, 'report'),
    usage: 'report <slice>',
    summary: 'the verifier’s tier report',
    description: `The verifier’s tier report: the effective tier, each contract’s tier,
criteria and step counts, and warnings. Informational: it enforces nothing.`,
    options: [],
    args: {min: 1, max: 1},
    exitCodes: {0: 'done', 1: 'a usage error', 2: broken}
  },
  contracts: {
    run: lazy(() => import('./contracts.js'), 'contracts'),
    usage: 'contracts [--slice <slice>]',
    summary: 'every contract as read: tier, criteria and steps with their lines',
    description: `Show every contract as it was read: file and line, dialect, slice, the tier
that applies and where it comes from, each criterion and step with its line
and check, text under a criteria or steps label not read as items, and each
change that asks less of a person than they approved.`,
    options: ['slice'],
    args: {min: 0, max: 0},
    exitCodes: {0: 'done', 1: 'a usage error', 2: broken}
  },
  verify: {
    run: lazy(() => import('./verify.js'), 'verify'),
    usage: 'verify <slice> | --all [--timeout <s>]',
    summary: 'run the criteria’s checks; record the run for the checkpoint',
    description: `Run the slice’s checks (or every slice’s) in the folder holding the project
folder: the project’s test command, the contracts, and the command each
criterion is verified by. These are shell commands written in the project’s
files, run with this environment (narrow it with --env-allow). Records the
run in <dir>/tiers/verification-status.json for the checkpoint and the stop
hook.`,
    options: ['timeout', 'env-allow', 'all'],
    args: {min: 0, max: 1},
    exitCodes: {
      0: 'every check passed',
      1: 'a check failed or timed out, or a usage error',
      2: broken,
      130: 'interrupted by Ctrl-C, nothing recorded (another signal: 128 plus its number, 143 for SIGTERM)'
    }
  },
  ci: {
    run: lazy(() => import('./ci.js'), 'ci'),
    usage: 'ci [--base <ref>]',
    summary: 'hold the merge while a verify slice has no approval for its contracts',
    description: `Hold the merge: exit 1 while a verify slice has no approval by a person for its
contracts as they are (never approved, rejected, or approved for contracts that
changed since), or the project cannot be read whole, listing each with its
contracts' places. With --base, only the slices whose contracts changed since
that git revision are judged: the others are not the branch's to approve.
A slice changed so that it asks less of a person than they approved (or,
with --base, than it did at that revision, unless a person approved it as
it is) holds the merge too, listing each change, old and new, with its file
and line.`,
    options: ['base'],
    args: {min: 0, max: 0},
    exitCodes: {
      0: 'every verify slice judged is approved for its contracts as they are',
      1: 'a verify slice without such an approval, a problem, or a usage error',
      2: broken
    }
  },
  'stop-hook': {
    run: lazy(() => import('./stop-hook.js'), 'stopHook'),
    usage: 'stop-hook',
    summary: 'answer a coding agent’s Stop hook (JSON on stdin)',
    description: `Answer a coding agent’s Stop hook: read its JSON on stdin, print a block while
verification is missing, stale or failing, and let the agent stop when it
passes, in the protocol of the agent (Claude Code, Codex CLI, Cursor, Gemini
CLI or GitHub Copilot: known from its input, or --agent). The safety valve
lets the agent stop with a warning where its own loop guard would (Claude
Code after 8 blocks in a row, or CLAUDE_CODE_STOP_HOOK_BLOCK_CAP; GitHub
Copilot after 8; never for Cursor, whose loop_limit ends its follow-ups),
and after TIERS_MAX_BLOCKS blocks (default 5) in a session for an agent
without one, or when it is set. Each
change that asks less of a person than they approved is said with the
answer, for the person to confirm.`,
    options: ['agent'],
    args: {min: 0, max: 0},
    exitCodes: {
      0: 'the answer, whatever the project’s state: a broken file blocks in the answer (it never exits 2)',
      1: 'input that is not a JSON object, a bad TIERS_MAX_BLOCKS, session id or --agent'
    }
  },
  verdict: {
    run: lazy(() => import('./verdict.js'), 'verdict'),
    usage: 'verdict <text…> | -',
    summary: 'read a verifier’s reply: PASS, PASS_WITH_WARNINGS, FAIL_SOFT, FAIL_HARD',
    description: `Read a verifier’s reply, from the arguments or stdin (\`-\` or none), by its
first word or phrase: PASS, PASS_WITH_WARNINGS, FAIL_SOFT or FAIL_HARD;
anything unclear is FAIL_HARD.`,
    options: [],
    args: {min: 0, max: Infinity},
    exitCodes: {0: 'a passing verdict', 1: 'a failing or unclear one'}
  }
}

/** The commands by name, without a prototype: `tiers constructor` finds no command. */
export const commands: Readonly<Record<string, CommandSpec>> = Object.freeze(Object.assign(Object.create(null) as Record<string, CommandSpec>, specs))

/** The command named `name`, if there is one (an own entry, never `Object.prototype`’s). */
export function findCommand(name: string): CommandSpec | undefined {
  return Object.hasOwn(commands, name) ? commands[name] : undefined
}

/**
 * Commands with their own parser and help (`tiers lint --help`), run before
 * the gate’s options are read; the gate’s help and errors list them all the
 * same.
 */
export const separateCommands: ReadonlyArray<{name: string; usage: string; summary: string}> = [
  {name: 'lint', usage: 'lint [paths…]', summary: 'lint markdown as remark does; CI formats, fixes, a cache (see tiers lint --help)'},
  {name: 'init', usage: 'init [--ci github] [--dry-run]', summary: 'set the project up: remark configuration, the agent’s Stop hook, CI'}
]
