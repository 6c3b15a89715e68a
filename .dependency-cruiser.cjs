// Which package may import which: the layers of ARCHITECTURE.md, checked in
// `npm test` (`npm run check:deps`). Paths are the packages' TypeScript
// sources; an import of a sibling package resolves to its folder.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'No import cycle, between packages or inside one. A cycle through type imports alone loads nothing twice (the model’s types name the dialects of its registry), so it is no cycle at run time.',
      severity: 'error',
      from: {},
      to: {circular: true, viaOnly: {dependencyTypesNot: ['type-only']}}
    },
    {
      name: 'cli-imports-nothing-back',
      comment: 'The cli is the top layer: no other package imports it.',
      severity: 'error',
      from: {pathNot: '^packages/cli/'},
      to: {path: '^packages/cli/'}
    },
    {
      name: 'generator-imported-by-none',
      comment: 'generate-protocol is a program run before the build is used: no package imports it (the runtime loads what it wrote, not it).',
      severity: 'error',
      from: {pathNot: '^packages/generate-protocol/'},
      to: {path: '^packages/generate-protocol/'}
    },
    {
      name: 'layers',
      comment: 'input and model → graph and the tools’ readers → rules → presets; protocol → runtime → project → evidence → cli; lint and setup beside them.',
      severity: 'error',
      from: {path: '^packages/(contracts|graph|spec-tools|protocol|lint-rule|remark-lint-[^/]+|remark-preset-[^/]+)/'},
      to: {path: '^packages/(runtime|project|lint|evidence|cli|generate-protocol|setup)/'}
    },
    {
      name: 'generator-below-what-it-writes',
      comment:
        'The generator renders the protocol with a project’s settings (protocol, input, the model under them) and writes the partials the runtime loads: it imports nothing that loads them, so it runs before they are written and one build serves both.',
      severity: 'error',
      from: {path: '^packages/generate-protocol/'},
      to: {path: '^packages/(?!(generate-protocol|protocol|input|contracts)/)[^/]+/'}
    },
    {
      name: 'partials-for-the-runtime',
      comment: 'The precompiled partials are the generator’s output: only the runtime loads them, never a package the generator imports.',
      severity: 'error',
      from: {pathNot: '^packages/runtime/'},
      to: {path: '^packages/protocol/partials\\.'}
    },
    {
      name: 'validators-for-the-settings',
      comment:
        'The compiled settings validators are the generator’s output: only the protocol’s settings reader loads them (the generator loads it for a project’s settings only, with a dynamic import).',
      severity: 'error',
      from: {pathNot: '^packages/protocol/lib/settings\\.ts$'},
      to: {path: '^packages/protocol/settings-validators\\.'}
    },
    {
      name: 'runtime-below-project',
      comment: 'The runtime works on what it is given: it loads no project, runs no check and no linter.',
      severity: 'error',
      from: {path: '^packages/runtime/'},
      to: {path: '^packages/(project|lint|evidence|cli)/'}
    },
    {
      name: 'project-below-evidence',
      comment: 'Loading a project runs nothing: no check, no linter.',
      severity: 'error',
      from: {path: '^packages/project/'},
      to: {path: '^packages/(lint|evidence|cli)/'}
    },
    {
      name: 'lint-stands-alone',
      comment: 'The lint engine knows markdown and remark, and the slice graph it gives the rules; not projects, state or checks.',
      severity: 'error',
      from: {path: '^packages/lint/'},
      to: {path: '^packages/(runtime|project|evidence|cli|contracts|spec-tools|protocol)/'}
    },
    {
      name: 'rules-read-no-file',
      comment: 'A lint rule reads the tree and the file it is given, nothing else: what it needs of the project comes from the processor.',
      severity: 'error',
      from: {path: '^packages/(lint-rule|remark-lint-[^/]+|remark-preset-lint-[^/]+)/'},
      to: {path: '^(node:)?fs(/promises)?$'}
    },
    {
      name: 'setup-stands-alone',
      comment: 'Setting a project up edits its configuration files: it loads no project, contract or state (it reads files as every input is read).',
      severity: 'error',
      from: {path: '^packages/setup/'},
      to: {path: '^packages/(?!(setup|input)/)[^/]+/'}
    },
    {
      name: 'graph-on-the-model',
      comment: 'The slice graph’s reader, below both halves, knows the contract model only (and reads files as every input is read).',
      severity: 'error',
      from: {path: '^packages/graph/'},
      to: {path: '^packages/(?!(graph|contracts|input)/)[^/]+/'}
    },
    {
      name: 'tool-readers-on-the-model',
      comment:
        'The readers of other tools’ files, below the rules and the project loader, know the contract model only, and read the text they are given: no file, since the rules read these files through them.',
      severity: 'error',
      from: {path: '^packages/spec-tools/'},
      to: {path: '^(?:packages/(?!(spec-tools|contracts)/)[^/]+/|(node:)?fs(/promises)?$)'}
    },
    {
      name: 'reporters-at-the-bottom',
      comment: 'A reporter turns vfiles into text: it imports no other package of ours, so remark loads it without the rest.',
      severity: 'error',
      from: {path: '^packages/vfile-reporter-[^/]+/'},
      to: {path: '^packages/(?!vfile-reporter-[^/]+/)[^/]+/'}
    },
    {
      name: 'reporters-stand-alone',
      comment: 'Each reporter is its own package: none imports another.',
      severity: 'error',
      from: {path: '^packages/(vfile-reporter-[^/]+)/'},
      to: {path: '^packages/vfile-reporter-[^/]+/', pathNot: '^packages/$1/'}
    },
    {
      name: 'input-at-the-bottom',
      comment: 'Reading input (a regular file, JSON with places) imports no other package of ours: every package may read with it.',
      severity: 'error',
      from: {path: '^packages/input/'},
      to: {path: '^packages/(?!input/)[^/]+/'}
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
    // The declarations of the generated modules stay: they are how an import of one is seen.
    exclude: {path: '(^|/)(dist|test|node_modules)/|(?<!/protocol/(?:partials|settings-validators))\\.d\\.ts$'},
    tsPreCompilationDeps: true
  }
}
