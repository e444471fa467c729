// Where OpenCode finds credentials and config: what `coderline doctor` names and `inheritEnv:
// 'minimal'` keeps. Its providers read their own vendors' variables (the AI SDK defaults).
import type { AuthSources, EnvironmentSpec } from '../../core/contract/adapter.js';

export const opencodeAuth: AuthSources = {
  variables: ['OPENCODE_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY', 'GROQ_API_KEY', 'XAI_API_KEY', 'MISTRAL_API_KEY', 'DEEPSEEK_API_KEY', 'GITHUB_TOKEN', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_PROFILE'],
  storedLogin: '`opencode auth login` in $XDG_DATA_HOME/opencode/auth.json (~/.local/share/opencode)',
};

export const opencodeEnvironment: EnvironmentSpec = {
  // Set by OpenCode for the commands it runs: a nested opencode would take them for its own.
  denied: ['OPENCODE', 'OPENCODE_PID', 'OPENCODE_TERMINAL'],
  minimal: ['OPENCODE_CONFIG', 'OPENCODE_CONFIG_DIR', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_PERMISSION', 'OPENCODE_DISABLE_*', 'OPENCODE_DB', 'OPENCODE_AUTH_CONTENT', 'OPENCODE_SERVER_PASSWORD', 'OPENCODE_SERVER_USERNAME'],
};
