/**
 * The words and numbers of the verification-tier protocol. The generated docs
 * and the runtime both read them from here, so a changed word changes both.
 */
import {defaultTier, tiers} from '@verification-tiers/contracts/gate-terms'
import type {Tier} from '@verification-tiers/contracts'

export {defaultTier, tiers}
export type {Tier}

/** What each tier means. */
export const tierMeanings: Readonly<Record<Tier, string>> = {
  auto: 'tests are enough: the slice goes straight from verification to summary and docs',
  verify: 'a human confirms the output matches intent before the slice completes'
}

/** Rejections of one slice before the escalation. */
export const rejectionThreshold = 3

/**
 * How a reply to the Verify checkpoint is read, in one rule: the reply is
 * compared in any case and skin tone (an emoji's tone and presentation
 * marks dropped), with the spaces around it dropped and those inside
 * it made single, and with `.`, `!` and `)` at its end dropped (`Yes.`, `1)`).
 * A reply that is then exactly one of `approvalReplies` approves; exactly one
 * of `bareRejectionReplies` or `barePartialReplies` asks for the description
 * and records nothing; anything else is feedback, kept verbatim. Nothing is
 * read inside a longer reply: `yes, but …`, `not ok`, `ok?` are feedback.
 */
export const replyEndings = ['.', '!', ')'] as const

/** Replies that approve a checkpoint, as the rule above compares them. None holds a word of `negatingWords`. */
export const approvalReplies: readonly string[] = [
  '1',
  'y',
  'yes',
  'yes please',
  'yep',
  'yeah',
  'approve',
  'approved',
  'i approve',
  'accept',
  'accepted',
  'lgtm',
  'looks good',
  'looks good to me',
  'ok',
  'okay',
  'ship it',
  '👍',
  '✅'
]

/** Replies that say no without saying what is wrong (choice 2): the description is asked for, nothing is recorded. */
export const bareRejectionReplies: readonly string[] = ['2', 'n', 'no', 'nope', 'reject', 'rejected']

/** Replies that say partially without saying what is missing (choice 3): the gaps are asked for, nothing is recorded. */
export const barePartialReplies: readonly string[] = ['3', 'partial', 'partially']

/** Words that turn an approval around (`not ok`, `yes but …`): no approval reply may hold one. */
export const negatingWords: readonly string[] = ['no', 'not', 'but', 'except', 'after', 'once', 'until', 'unless', 'wrong', 'fix', "don't", 'dont', 'never']

/** Headline of a Verify checkpoint, shown only on fresh passing evidence. */
export const passingHeadline = 'ALL TESTS PASSING'

/** Headline of a Verify checkpoint on fresh passing evidence when the project sets no test command: no tests ran. */
export const noTestCommandHeadline = 'CHECKS PASSING, NO TEST COMMAND CONFIGURED'

/** Choices of the Verify checkpoint. */
export const checkpointChoices = [
  {choice: '1', label: 'Yes', text: 'mark complete and continue', approves: true},
  {choice: '2', label: 'No', text: "I'll describe what's wrong", approves: false},
  {choice: '3', label: 'Partially', text: "some criteria met, I'll describe the gaps", approves: false}
] as const

/** Gap types, as the rejection log records them. */
export type Classification = 'test_gap' | 'contract_gap' | 'implementation_gap'

/** Who acts on a rejection. */
export type RouteTarget = 'test writer' | 'user'

/** What the test writer receives on a rejection, and what it never does. */
export const testWriterReceives: readonly string[] = ['the rejection feedback (verbatim)', 'the contract', 'the acceptance criteria']
export const testWriterNeverReceives: readonly string[] = ['implementation code', 'test source from the current cycle']

/** The three ways to address a rejection, each mapped to a gap and a route. */
export const rejectionOptions = [
  {
    choice: '1',
    title: 'Tighten the tests',
    reason: "the tests aren't specific enough to catch this mismatch",
    routesTo: 'test writer adds more precise assertions, then implementer passes them',
    classification: 'test_gap',
    gap: 'Test gap',
    target: 'test writer',
    action:
      'Spawn test writer with the feedback (verbatim), the contract and the acceptance criteria; it adds or tightens tests, then the implementer passes them. Re-run the tier gate.',
    actionTaken: 'spawned test writer with feedback'
  },
  {
    choice: '2',
    title: 'Revise the contract',
    reason: "the contract doesn't capture what I actually want",
    routesTo: 'you update the contract, then the slice restarts',
    classification: 'contract_gap',
    gap: 'Contract gap',
    target: 'user',
    action: 'Present the contract to the user to revise its criteria or definition. Restart the slice from Step 1.',
    actionTaken: 'presented contract to user for revision'
  },
  {
    choice: '3',
    title: 'Provide more detail',
    reason: "I'll describe exactly what I expect",
    routesTo: 'test writer uses your detail to write targeted tests, then implementer passes them',
    classification: 'implementation_gap',
    gap: 'Implementation gap',
    target: 'test writer',
    action:
      'Collect the detail. Spawn test writer with the detail, the feedback (verbatim), the contract and the acceptance criteria; then the implementer. Re-run the tier gate.',
    actionTaken: 'spawned test writer with detailed description'
  }
] as const satisfies ReadonlyArray<{
  choice: string
  title: string
  reason: string
  routesTo: string
  classification: Classification
  gap: string
  target: RouteTarget
  action: string
  actionTaken: string
}>

/** Choices at the escalation, after `rejectionThreshold` rejections of one slice. */
export const escalationOptions = [
  {choice: '1', title: 'Re-scope', text: 'the contract is fundamentally wrong. Revise contracts and restart.', note: null, decision: 'rescope'},
  {choice: '2', title: 'Pair', text: 'provide detailed, step-by-step guidance for exactly what you want.', note: null, decision: 'pair'},
  {
    choice: '3',
    title: 'Skip verification',
    text: 'mark this slice as auto-verified and proceed.',
    note: '(The mismatch is acknowledged but deferred.)',
    decision: 'skip'
  }
] as const

/** Run modes of the orchestrator (`config.json` `mode`). */
export const modes = ['interactive', 'yolo'] as const

export type Mode = (typeof modes)[number]

/** Checkpoint types: what triggers each, and in which modes it pauses. */
export const checkpointTypes = [
  {name: 'Visual', trigger: 'UI slice needs human eyes', deprecated: 'use the verify tier', pauses: 'interactive mode only', pausesIn: ['interactive']},
  {name: 'Decision', trigger: 'Rule 4 architectural stop', deprecated: null, pauses: 'always', pausesIn: modes},
  {name: 'External Action', trigger: 'Human action needed outside the agent', deprecated: null, pauses: 'always', pausesIn: modes},
  {name: 'Circuit Break', trigger: '3 per-test or 7 per-slice failures', deprecated: null, pauses: 'always', pausesIn: modes},
  {name: 'Acceptance', trigger: 'Slice verification tier is verify', deprecated: null, pauses: 'always (even in yolo mode)', pausesIn: modes}
] as const satisfies ReadonlyArray<{
  name: string
  trigger: string
  deprecated: string | null
  pauses: string
  pausesIn: readonly Mode[]
}>

/** Per mode, the checkpoint types that pause in it. */
export const pausesByMode = modes.map((mode) => ({
  mode,
  types: checkpointTypes.filter((type) => (type.pausesIn as readonly Mode[]).includes(mode)).map((type) => type.name)
}))

/** The deprecated config toggle, and what to say when a config sets it. */
export const visualCheckpointSetting = 'workflow.visual_checkpoint'
export const visualCheckpointWarning =
  '`workflow.visual_checkpoint` is deprecated and ignored: the verification tiers in contracts decide when a human checks a slice'

/** Where the full protocol lives, for cross-references. */
export const protocolDoc = 'references/verification-tiers.md'

/** Graded verifier verdicts, strictest last. */
export const verdicts = ['PASS', 'PASS_WITH_WARNINGS', 'FAIL_SOFT', 'FAIL_HARD'] as const
export type Verdict = (typeof verdicts)[number]

/** Reason given when a verifier’s reply names no verdict: it counts as the strictest. */
export const unclearVerdictReason = 'Unclear verification response'

/** Outcomes of one automated or manual check. */
const checkStatuses = ['pass', 'fail', 'timeout', 'requires-human'] as const
export type CheckStatus = (typeof checkStatuses)[number]

/** Levels of verification, run in this order. */
const verificationLevels = ['syntactic', 'contract', 'behavioral'] as const
export type VerificationLevel = (typeof verificationLevels)[number]

/** Seconds a check may run before its whole process group is killed. */
export const defaultCheckTimeoutSeconds = 60

/** Bytes of each output stream kept per check (the end, where errors are). */
export const keptOutputBytes = 8192

/** Blocks of the stop hook before its safety valve lets the agent stop (`TIERS_MAX_BLOCKS`). */
export const defaultMaxStopBlocks = 5

/** Failure taxonomy: every failure carries one of these. */
export const failureCategories = [
  {category: 'executor_incomplete', description: 'Task marked complete but acceptance criteria not met'},
  {category: 'executor_wrong_approach', description: 'Executor took an approach that cannot satisfy requirements'},
  {category: 'compilation_failure', description: 'Code does not compile'},
  {category: 'lint_failure', description: 'Code fails lint checks'},
  {category: 'build_failure', description: 'Production build fails'},
  {category: 'acceptance_criteria_unmet', description: 'Specific acceptance criterion not satisfied (verifier-flagged)'},
  {category: 'scope_creep', description: 'Code implemented that was not in spec or plan'},
  {category: 'context_exhaustion', description: 'Agent ran out of context before completing'},
  {category: 'tool_failure', description: 'External tool (git, npm, compiler) returned unexpected error'},
  {category: 'coordination_failure', description: 'Handoff between pipeline steps lost or corrupted data'}
] as const
export type FailureCategory = (typeof failureCategories)[number]['category']
