// The host's decision on each call that reaches the tool bridge, whoever makes it: the CLI, or any
// process of the same user that read the bridge's URL and secret (the agent's own shell can). Order:
// permissionPolicy.deny refuses (and the tool is not listed), a tool that allowedTools /
// permissionPolicy.allow names runs without asking (what allow means on the CLIs that ask), else
// canUseTool decides when set. Every call is reported in the run's events, marked when the CLI's
// own records did not show it (docs/tools.md).
import type { TranslatedEvent } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import { askPermission, DEFAULT_PERMISSION_TIMEOUT_MS, type CanUseTool, type PermissionRequest } from '../../permission.js';
import { toolBridgeServerName } from '../../schema/tool-names.js';

/** One tools/call that reached the bridge: tool `tool` of server `server` (`coderline` for custom tools). */
export interface BridgedCall {
  server: string;
  tool: string;
  input: Record<string, unknown>;
}

export type GateVerdict = { behavior: 'allow'; input: Record<string, unknown> } | { behavior: 'deny'; message: string };

export interface BridgeGate {
  /** False for a tool permissionPolicy.deny names: the bridge does not list it. */
  lists(server: string, tool: string): boolean;
  /** Decides a call and reports it in the events (once the CLI's records had their chance to show it). */
  decide(call: BridgedCall, signal: AbortSignal): Promise<GateVerdict>;
  /** True while canUseTool is being asked about a call (the CLI waits for the host: not a stall). */
  asking(): boolean;
  /** Sees the run's events: a CLI's tool_use record is how a call is known to come through the CLI. */
  observe(event: TranslatedEvent): void;
  /**
   * True, once, when the CLI's records showed tool use `id` (waiting the grace for a record on its way):
   * the permission prompt tool answers one question about each of those, not ones the agent's shell
   * makes up (a made-up id, or a real one read from the transcript after the CLI asked about it).
   */
  claimToolUse(id: string): Promise<boolean>;
  /** Resolves once every call so far is reported. */
  settled(): Promise<void>;
  /**
   * The CLI's records so far are all in (it exited, or its turn ended): the calls still waiting for
   * one are reported now, before this returns, as not in them.
   */
  flush(): void;
  /** The CLI has exited: flush, and report every later call at once (no record of it can come now). */
  end(): void;
}

/**
 * How long a call waits for the CLI's record of it before it is reported as not in them. The CLI
 * prints its record before it calls; both reach the host on different pipes, a moment apart.
 */
const RECORD_GRACE_MS = 2_000;

/** A tool name as a comparable key: what pi and Copilot make of `mcp__<server>__<tool>` / `<server>-<tool>` compares equal. */
const key = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_');

/** The names a CLI's records may give this call: the user's name of a custom tool, `mcp__<server>__<tool>`, `mcp_<server>_<tool>`, `<server>-<tool>`. */
function recordNames({ server, tool }: Pick<BridgedCall, 'server' | 'tool'>): string[] {
  const names = [`mcp__${server}__${tool}`, `mcp_${server}_${tool}`, `${server}_${tool}`];
  return (server === toolBridgeServerName ? [tool, ...names] : names).map(key);
}

/**
 * Whether a rule of allowedTools / permissionPolicy names the call, in the forms users write for the
 * CLIs: `mcp__<server>__<tool>`, `mcp__<server>` (Claude, pi), `<server>(<tool>)`, `<server>`
 * (Copilot), and a custom tool's bare name.
 */
export function ruleNames(rule: string, { server, tool }: Pick<BridgedCall, 'server' | 'tool'>): boolean {
  if ([`mcp__${server}__${tool}`, `mcp__${server}`, `${server}(${tool})`, server].includes(rule)) return true;
  return server === toolBridgeServerName && rule === tool;
}

/** The name the request and the events give a call: the user's for a custom tool, `mcp__<server>__<tool>` otherwise. */
export function gatedToolName({ server, tool }: Pick<BridgedCall, 'server' | 'tool'>): string {
  return server === toolBridgeServerName ? tool : `mcp__${server}__${tool}`;
}

/** Tells which bridge calls a CLI's records showed: each tool_use record accounts for one call. */
class RecordWitness {
  private readonly unclaimed = new Map<string, number>();
  private readonly waiting: Array<{ names: string[]; done(seen: boolean): void; timer: NodeJS.Timeout }> = [];
  /** No record can come any more (the CLI exited). */
  ended = false;

  observe(name: string): void {
    const named = key(name);
    const waiter = this.waiting.find((candidate) => candidate.names.includes(named));
    if (waiter) this.drop(waiter, true);
    else this.unclaimed.set(named, (this.unclaimed.get(named) ?? 0) + 1);
  }

  /** `done(true)` when a record of one of `names` came (or comes within the grace) that no other call claimed. */
  claim(names: string[], done: (seen: boolean) => void): void {
    const found = names.find((name) => (this.unclaimed.get(name) ?? 0) > 0);
    if (found !== undefined) {
      this.unclaimed.set(found, this.unclaimed.get(found)! - 1);
      done(true);
      return;
    }
    if (this.ended) return done(false);
    const waiter = { names, done, timer: setTimeout(() => this.drop(waiter, false), RECORD_GRACE_MS).unref() };
    this.waiting.push(waiter);
  }

  /** Every call still waiting is one the records did not show. */
  flush(): void {
    for (const waiter of [...this.waiting]) this.drop(waiter, false);
  }

  private drop(waiter: (typeof this.waiting)[number], seen: boolean): void {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    clearTimeout(waiter.timer);
    waiter.done(seen);
  }
}

/** The tool use ids the CLI's records showed and no question claimed yet, and the questions waiting for one. */
class ToolUseIds {
  private readonly seen = new Set<string>();
  private readonly waiting = new Map<string, Array<(seen: boolean) => void>>();
  ended = false;

  observe(id: string): void {
    const first = this.waiting.get(id)?.shift();
    if (first) first(true);
    else this.seen.add(id);
  }

  claim(id: string): Promise<boolean> {
    if (this.seen.delete(id)) return Promise.resolve(true);
    if (this.ended) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), RECORD_GRACE_MS).unref();
      const done = (seen: boolean) => {
        clearTimeout(timer);
        const list = this.waiting.get(id) ?? [];
        if (list.includes(done)) list.splice(list.indexOf(done), 1);
        resolve(seen);
      };
      this.waiting.set(id, [...(this.waiting.get(id) ?? []), done]);
    });
  }

  /** No record can come any more. */
  flush(): void {
    for (const list of this.waiting.values()) for (const done of list.splice(0)) done(false);
  }
}

/**
 * The gate of a run's bridge. `canUseTool` is read at each call (a live turn may bring its own);
 * `emit` puts the `permission` events and the call reports in the run's stream.
 */
export function bridgeGate(opts: ResolvedOpts, emit: (event: TranslatedEvent) => void, canUseTool: () => CanUseTool | undefined = () => opts.canUseTool): BridgeGate {
  const allow = [...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])];
  const deny = opts.permissionPolicy?.deny ?? [];
  const witness = new RecordWitness();
  const toolUses = new ToolUseIds();
  let asking = 0;
  let pending = 0;
  const whenAllReported: Array<() => void> = [];
  const denied = (call: Pick<BridgedCall, 'server' | 'tool'>) => deny.some((rule) => ruleNames(rule, call));

  const report = (call: BridgedCall, verdict: GateVerdict, decidedBy: 'permissionPolicy' | 'canUseTool' | 'none') => {
    pending += 1;
    witness.claim(recordNames(call), (inCliRecords) => {
      const name = gatedToolName(call);
      const why = verdict.behavior === 'deny' ? `denied (${verdict.message})` : 'allowed';
      emit({
        type: 'progress',
        kind: 'status',
        subtype: 'tool_bridge.call',
        message: `tool bridge: ${name} ${why}${inCliRecords ? '' : "; the CLI's records did not show this call (a caller other than the CLI?)"}`,
        raw: { server: call.server, tool: call.tool, arguments: call.input },
        extra: { server: call.server, tool: call.tool, decision: verdict.behavior, decidedBy, inCliRecords },
      });
      pending -= 1;
      if (pending === 0) for (const resolve of whenAllReported.splice(0)) resolve();
    });
  };

  return {
    lists: (server, tool) => !denied({ server, tool }),
    async decide(call, signal) {
      let verdict: GateVerdict;
      let decidedBy: 'permissionPolicy' | 'canUseTool' | 'none' = 'none';
      const callback = canUseTool();
      if (denied(call)) {
        verdict = { behavior: 'deny', message: `${gatedToolName(call)} is denied by permissionPolicy.deny` };
        decidedBy = 'permissionPolicy';
      } else if (allow.some((rule) => ruleNames(rule, call))) {
        verdict = { behavior: 'allow', input: call.input };
        decidedBy = 'permissionPolicy';
      } else if (callback) {
        const name = gatedToolName(call);
        const request: PermissionRequest = { toolName: name, input: call.input, tool: { kind: 'mcp', name, server: call.server }, mcpServer: call.server, mcpTool: call.tool };
        const timeoutMs = opts.permissionTimeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS;
        asking += 1;
        const decision = await askPermission(callback, request, { timeoutMs, signal, emit, raw: { server: call.server, tool: call.tool, arguments: call.input } }).finally(() => (asking -= 1));
        verdict = decision.behavior === 'allow'
          ? { behavior: 'allow', input: decision.updatedInput ?? call.input }
          : { behavior: 'deny', message: decision.message ?? 'The host denied this tool use.' };
        decidedBy = 'canUseTool';
      } else {
        verdict = { behavior: 'allow', input: call.input };
      }
      report(call, verdict, decidedBy);
      return verdict;
    },
    asking: () => asking > 0,
    observe(event) {
      if (event.type !== 'tool_use') return;
      toolUses.observe(event.id);
      // The CLI's own spelling, where the stream's name is the user's or a kind (ACP: the title).
      const spelled = event.extra?.cliToolName ?? event.extra?.title;
      witness.observe(typeof spelled === 'string' ? spelled : event.name);
    },
    claimToolUse: (id) => toolUses.claim(id),
    settled: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => void whenAllReported.push(resolve))),
    flush: () => witness.flush(),
    end() {
      witness.ended = true;
      witness.flush();
      toolUses.ended = true;
      toolUses.flush();
    },
  };
}
