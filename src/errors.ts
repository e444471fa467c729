// Typed errors. Every failure a user can see carries a `code` they can switch on.

export type ErrorCode =
  | 'binary_not_found'
  | 'version_unsupported'
  | 'feature_not_supported'
  | 'platform_not_supported'
  | 'invalid_options'
  /** A resume, fork or `open({ sessionId })` named a session the CLI's store does not have. */
  | 'session_not_found'
  | 'exit'
  | 'stalled'
  | 'aborted'
  | 'auth'
  | 'rate_limit'
  | 'server'
  | 'context_too_large'
  | 'max_turns'
  | 'budget'
  | 'invalid_output'
  | 'protocol';

export class CoderError extends Error {
  readonly code: ErrorCode;
  /** Which CLI the error is about, when one is. */
  readonly provider: string | undefined;

  constructor(code: ErrorCode, message: string, options: { provider?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CoderError';
    this.code = code;
    this.provider = options.provider;
  }
}

export class CliNotFoundError extends CoderError {
  readonly executable: string;
  readonly installHint: string;
  constructor(provider: string, executable: string, installHint: string) {
    super('binary_not_found', `${provider}: executable "${executable}" was not found. ${installHint}`, { provider });
    this.name = 'CliNotFoundError';
    this.executable = executable;
    this.installHint = installHint;
  }
}

export class CliVersionError extends CoderError {
  readonly version: string;
  readonly supported: string;
  constructor(provider: string, version: string, supported: string, detail = 'is older than the oldest supported version') {
    super('version_unsupported', `${provider} ${version} ${detail} (supported: ${supported}). Upgrade the CLI.`, { provider });
    this.name = 'CliVersionError';
    this.version = version;
    this.supported = supported;
  }
}

export class CliExitError extends CoderError {
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  /** The last lines the CLI wrote to stderr. */
  readonly stderrTail: string;
  constructor(
    provider: string,
    detail: { exitCode?: number; signal?: string; stderrTail: string; code?: ErrorCode; message?: string },
  ) {
    const how = detail.signal ? `was killed by ${detail.signal}` : `exited with code ${detail.exitCode}`;
    const base = detail.message ? `${provider} ${how}: ${detail.message}` : `${provider} ${how}`;
    const tail = detail.stderrTail.trim();
    super(detail.code ?? 'exit', tail ? `${base}\n--- stderr (tail) ---\n${tail}` : base, { provider });
    this.name = 'CliExitError';
    this.exitCode = detail.exitCode;
    this.signal = detail.signal;
    this.stderrTail = detail.stderrTail;
  }
}

export class StallError extends CoderError {
  readonly stallTimeoutMs: number;
  constructor(provider: string, stallTimeoutMs: number) {
    super('stalled', `${provider} printed nothing for ${stallTimeoutMs} ms; the process group was killed.`, { provider });
    this.name = 'StallError';
    this.stallTimeoutMs = stallTimeoutMs;
  }
}

export class FeatureNotSupportedError extends CoderError {
  readonly option: string;
  readonly instead: string;
  constructor(provider: string, option: string, instead: string) {
    super('feature_not_supported', `${provider} does not support the option "${option}". ${instead}`, { provider });
    this.name = 'FeatureNotSupportedError';
    this.option = option;
    this.instead = instead;
  }
}

/** This operating system is not one where the CLIs it starts can be stopped (README, "Platforms"). */
export class PlatformNotSupportedError extends CoderError {
  readonly platform: string;
  readonly supported: readonly string[];
  constructor(platform: string, supported: readonly string[]) {
    super(
      'platform_not_supported',
      `coderline does not run CLIs on ${platform}: it stops a CLI by its process group and the processes below it, which it can do only on ${supported.join(' and ')} (Linux, macOS). On Windows, run it inside WSL.`,
    );
    this.name = 'PlatformNotSupportedError';
    this.platform = platform;
    this.supported = supported;
  }
}

/** The CLI supports the option, but not in the installed version: the error names both versions. */
export class FeatureNotInVersionError extends FeatureNotSupportedError {
  readonly version: string;
  readonly since: string;
  constructor(provider: string, option: string, version: string, since: string) {
    super(provider, option, `${provider} ${version} lacks it: it needs ${provider} ${since} or newer. Upgrade the CLI.`);
    this.name = 'FeatureNotInVersionError';
    this.version = version;
    this.since = since;
  }
}

export class InvalidOptionsError extends CoderError {
  readonly issues: string[];
  constructor(issues: string[], provider?: string) {
    super('invalid_options', `Invalid options:\n  - ${issues.join('\n  - ')}`, provider === undefined ? {} : { provider });
    this.name = 'InvalidOptionsError';
    this.issues = issues;
  }
}

export class OutputValidationError extends CoderError {
  /** What the model produced (parsed JSON, or the text when it was not JSON). */
  readonly received: unknown;
  readonly issues: string[];
  constructor(provider: string, received: unknown, issues: string[]) {
    super('invalid_output', `${provider}: the answer does not match the output schema: ${issues.join('; ')}`, { provider });
    this.name = 'OutputValidationError';
    this.received = received;
    this.issues = issues;
  }
}

/** A live session's process is gone (it exited, was killed, or the session was closed). */
export class LiveSessionClosedError extends CoderError {
  constructor(provider: string, why: string) {
    super('exit', `${provider} live session is closed: ${why}`, { provider });
    this.name = 'LiveSessionClosedError';
  }
}

export function isCoderError(value: unknown): value is CoderError {
  return value instanceof CoderError;
}
