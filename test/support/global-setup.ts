// Runs once before the suite: prepares what the real-CLI tests need (see each setup's comment).
export default async function setup(): Promise<void> {}
