// The forms a CLI prints a secret in: as given, JSON-escaped (inside a record), and URL-encoded (a
// proxy or base URL with credentials in an error message: `https://user:p%40ss@host`).
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/secrets/redact.js';

describe('a secret in the forms a CLI prints it', () => {
  it('URL-encoded, as in a URL a CLI quotes in its error', () => {
    // The attacker reads the run's error events (a CI log) for a proxy password the app passed in extraEnv.
    const password = 'p@ss/w0rd:"x"';
    const redactor = Redactor.of([password])!;
    expect(redactor.text(`connect to https://bot:${encodeURIComponent(password)}@proxy.local failed`)).toBe('connect to https://bot:<redacted>@proxy.local failed');
    expect(redactor.text(JSON.stringify({ message: `as given: ${password}` }))).toBe('{"message":"as given: <redacted>"}');
  });
});
