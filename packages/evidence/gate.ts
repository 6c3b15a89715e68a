/**
 * What the gate’s commands judge with, without the runner of checks or the
 * linter: a slice’s freshness, whether an approval may be taken, what could
 * not be read, open tasks, the latest runs, and the stop hook’s answer.
 */
export {checkApprovable, openTaskLines, projectProblems, sliceFreshness} from './lib/slice-evidence.js'
export {readVerificationStatus} from './lib/status.js'
export type {Freshness, VerificationStatus} from './lib/status.js'
export {answerStopHook} from './lib/project-stop.js'
export {judgeProgress} from './lib/progress.js'
export type {SliceProgress} from './lib/progress.js'
export type {StopHookRequest} from './lib/project-stop.js'
export {judgeHistory, sliceHistoryHolds} from './lib/history.js'
export type {HistoryHold, HistoryJudgement} from './lib/history.js'
export {heldAtBase, judgeMerge, slicesAtBase} from './lib/merge-gate.js'
export {GitError, runGit} from './lib/git.js'
export type {MergeApproval, MergeGateOptions, MergeHold, MergeJudgement, SliceAtBase} from './lib/merge-gate.js'
