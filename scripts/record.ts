// `npm run record [cli ...]` re-records fixtures/<cli>/<version>/ from the real binaries against the
// fake model servers. Each CLI's scenarios live in scripts/record/<cli>.ts.
const all = ['claude', 'codex', 'copilot', 'pi'] as const;
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : [...all];

for (const cli of wanted) {
  if (!(all as readonly string[]).includes(cli)) {
    console.error(`unknown CLI "${cli}"; choose from ${all.join(', ')}`);
    process.exit(2);
  }
  const module = (await import(`./record/${cli}.ts`)) as { record(): Promise<void> };
  console.error(`recording ${cli} …`);
  await module.record();
}
