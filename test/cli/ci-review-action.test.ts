// examples/ci-review/action.yml, the review as a composite GitHub Action. No runner exists here, so
// the file is read as the runner would: its inputs, its steps, and what each step runs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { repoRoot } from './command.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  runs: { using: string; steps: Step[] };
}

const dir = join(repoRoot, 'examples', 'ci-review');
const source = readFileSync(join(dir, 'action.yml'), 'utf8');
const action = parse(source) as Action;

describe('examples/ci-review/action.yml', () => {
  it('is a composite action whose inputs all have a description and a default', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(['base', 'cli', 'cli-package', 'fail-on', 'github-token', 'model']);
    for (const input of Object.values(action.inputs)) {
      expect(input.description).toBeTruthy();
      expect(typeof input.default).toBe('string');
    }
    expect(action.inputs.cli?.default).toBe('claude');
    // The CLI it installs by default is the newest version the adapter was tested with.
    expect(action.inputs['cli-package']?.default).toBe(`${claudeAdapter.npmPackage}@${claudeAdapter.versions.testedMax}`);
    expect(action.inputs['github-token']?.default).toBe('');
  });

  it('sets up Node, installs beside the action, then runs review.ts with every input, passed through env', () => {
    const [node, install, review] = action.runs.steps;
    expect(action.runs.steps).toHaveLength(3);
    expect(node).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': 22 } });
    // Composite run steps need a shell; inputs never go into a script's text (no injection through them).
    for (const step of [install!, review!]) {
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
    }
    expect(install!['working-directory']).toBe('${{ github.action_path }}/../..');
    expect(install!.run).toContain('npm ci');
    expect(install!.run).toContain('npm install --no-save --no-audit --no-fund "$CLI_PACKAGE"');
    expect(install!.env).toEqual({ CLI_PACKAGE: '${{ inputs.cli-package }}' });

    expect(review!['working-directory']).toBe('${{ github.workspace }}');
    expect(review!.run).toMatch(/^tsx "\$GITHUB_ACTION_PATH\/review\.ts" --cli "\$REVIEW_CLI" --base "\$REVIEW_BASE" --fail-on "\$REVIEW_FAIL_ON" \$\{REVIEW_MODEL:\+--model "\$REVIEW_MODEL"\}\n?$/);
    expect(review!.env).toEqual({
      REVIEW_CLI: '${{ inputs.cli }}',
      REVIEW_MODEL: '${{ inputs.model }}',
      REVIEW_BASE: "${{ inputs.base || format('origin/{0}', github.base_ref) }}",
      REVIEW_FAIL_ON: '${{ inputs.fail-on }}',
      GITHUB_TOKEN: '${{ inputs.github-token }}',
    });
    expect(existsSync(join(dir, 'review.ts'))).toBe(true);
  });

  it('uses only inputs it declares', () => {
    const used = [...source.matchAll(/inputs\.([\w-]+)/g)].map((match) => match[1]!);
    expect(new Set(used)).toEqual(new Set(Object.keys(action.inputs)));
  });
});
