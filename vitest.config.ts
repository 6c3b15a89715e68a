import {configDefaults, defineConfig} from 'vitest/config'

/**
 * Tests under `test/` that belong with the unit tests: they import the
 * packages and start no process (no `tiers`, `remark`, language server or
 * shell). `test/fuzz.test.ts` is in-process too, but it is the slowest suite
 * of all (most of a minute), so it runs with the end-to-end ones.
 */
const inProcess = ['test/readme-examples.test.ts', 'test/large-and-bad-input.test.ts', 'test/libraries-return.test.ts']

// `npx vitest run` runs both projects; `--project unit` or `--project e2e` one.
export default defineConfig({
  test: {
    // The contracts cache of every `tiers` a test starts goes to a folder of
    // the run, and none runs with the `CLAUDE_PROJECT_DIR`, the markers (`CLAUDECODE`, …)
    // or the git identity of an agent or a person running the tests.
    globalSetup: ['test/helpers/user-cache.ts', 'test/helpers/agent-environment.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Three files at a time, even on two cores (Vitest's default there is
    // one): an end-to-end test often waits, for the process it started, a
    // check's sleep or a time limit, and another file's work fills the wait.
    // On two cores the whole run took 216 s with two, 204 s with three and
    // 193 s with four; with four, a check's processes once took over 3 s to
    // end, and the tests that promise an end within a second would be next.
    maxWorkers: 3,
    // `vitest run --coverage` (in `npm test`) fails under 90% of the lines
    // of `packages/*/lib` run by the tests in their own processes: the
    // TypeScript, read through the built files' source maps where the tests
    // load them built (the cli's `main`). The real bin in a process of its
    // own, and a parse worker's thread, are not counted.
    coverage: {
      provider: 'v8',
      include: ['packages/*/lib/**/*.ts', 'packages/*/dist/lib/**/*.js'],
      reporter: ['text-summary', ['json-summary', {file: 'coverage-summary.json'}]],
      reportsDirectory: 'coverage',
      reportOnFailure: true,
      thresholds: {lines: 90}
    },
    projects: [
      {
        extends: true,
        test: {
          // The packages’ own tests, and the in-process tests of `test/`.
          name: 'unit',
          // In one process, loading each package once: they change no global
          // state (a test that sets an environment variable restores it), and
          // it halves the project’s time.
          isolate: false,
          include: ['packages/*/test/**/*.test.ts', ...inProcess]
        }
      },
      {
        extends: true,
        test: {
          // The slow suites: end to end (the real `tiers` bin, `remark`, the
          // language server and the commands of checks, each as a process),
          // and the fuzzer.
          name: 'e2e',
          // Each file in a process of its own (Vitest's default): the tests of
          // processes (a check's group ended by the watchdog of a killed
          // `tiers`) failed twice in a shared worker, once on a quiet machine.
          // The built packages (`packages/*/dist`, which the tests of the
          // cli's `main` load) as Node loads them, without Vite's transform:
          // they are JavaScript already.
          server: {deps: {external: [/\/packages\/[^/]+\/dist\//]}},
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...inProcess]
        }
      }
    ]
  }
})
