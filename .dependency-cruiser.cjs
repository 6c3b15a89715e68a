// Which package may import which: the layers of ARCHITECTURE.md, checked in
// `npm test` (`npm run check:deps`). Paths are the packages' TypeScript
// sources; an import of a sibling package resolves to its folder.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle, between packages or inside one.',
      severity: 'error',
      from: {},
      to: {circular: true}
    },
    {
      name: 'cli-imports-nothing-back',
      comment: 'The cli is the top layer: no other package imports it.',
      severity: 'error',
      from: {pathNot: '^packages/cli/'},
      to: {path: '^packages/cli/'}
    },
    {
      name: 'layers',
      comment: 'model → rules → presets; protocol → runtime → evidence → cli; the generator reads only the protocol.',
      severity: 'error',
      from: {path: '^packages/(contracts|protocol|lint-rule|remark-lint-[^/]+|remark-preset-[^/]+|generate-protocol)/'},
      to: {path: '^packages/(runtime|evidence|cli)/'}
    },
    {
      name: 'runtime-below-evidence',
      comment: 'The runtime does not run checks: evidence builds on it, not the other way round.',
      severity: 'error',
      from: {path: '^packages/runtime/'},
      to: {path: '^packages/(evidence|cli)/'}
    },
    {
      name: 'model-at-the-bottom',
      comment: 'The contract model imports no other package of ours.',
      severity: 'error',
      from: {path: '^packages/contracts/'},
      to: {path: '^packages/(?!contracts/)[^/]+/'}
    }
  ],
  options: {
    doNotFollow: {path: 'node_modules'},
    exclude: {path: '(^|/)(dist|test|node_modules)/|\\.d\\.ts$'},
    tsPreCompilationDeps: true
  }
}
