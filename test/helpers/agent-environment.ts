/**
 * Global setup: no test runs `tiers` with the coding agent's environment of
 * the person running the tests. Claude Code sets `CLAUDE_PROJECT_DIR` for its
 * hooks and the commands it runs, and `tiers stop-hook` looks for a project
 * from that folder too: run under an agent, every test of the hook would
 * judge the agent's project beside its own. A test that needs the variable
 * sets it for its run.
 */
export default function setup(): void {
  delete process.env.CLAUDE_PROJECT_DIR
}
