// Claude's permission question and answer: the same fields whether it asks the host over the pipes
// (`can_use_tool` control request) or an MCP tool named by --permission-prompt-tool (its arguments).
// The answer is `{behavior: 'allow', updatedInput}` or `{behavior: 'deny', message}`.
import type { PermissionCodec } from '../../core/contract/adapter.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { withAskedToolFacts } from '../../core/translate/tool-facts.js';
import { claudeToolCatalog } from './tool-facts.js';

export const claudePermission: PermissionCodec = withAskedToolFacts(claudeToolCatalog, {
  request(body) {
    if (!isJsonObject(body)) return undefined;
    const toolName = stringOf(body.tool_name);
    if (toolName === undefined) return undefined;
    const toolUseId = stringOf(body.tool_use_id);
    const description = stringOf(body.description);
    return {
      toolName,
      input: isJsonObject(body.input) ? body.input : {},
      ...(toolUseId ? { toolUseId } : {}),
      ...(description ? { description } : {}),
    };
  },
  // Claude wants the input back on an allow (the original when unchanged) and a message on a deny.
  answer: (decision, request) =>
    decision.behavior === 'allow'
      ? { behavior: 'allow', updatedInput: decision.updatedInput ?? request.input }
      : { behavior: 'deny', message: decision.message ?? 'The host denied this tool use.' },
});
