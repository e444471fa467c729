// Posts the review on the pull request through the GitHub REST API: one review whose body is the
// summary, with an inline comment per finding on a line the diff shows (findings elsewhere go in
// the body). A re-run updates that review and replaces its comments instead of adding a second one:
// both carry a marker the script looks for.
import type { Finding, Review } from './report.js';

export const REVIEW_MARKER = '<!-- coderline-ci-review -->';

/** Where to post: the repository (`owner/name`), the pull request, the commit reviewed, the API root. */
export interface PullRequestTarget {
  apiUrl: string;
  repository: string;
  pullNumber: number;
  commitId: string;
  token: string;
}

/** Lines of the new version of each file that the diff shows (added or context): where GitHub takes comments. */
export function commentableLines(diff: string): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>();
  let file: Set<number> | undefined;
  let next = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).replace(/^b\//, '');
      file = path === '/dev/null' ? undefined : new Set();
      if (file) lines.set(path, file);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      next = Number(hunk[1]);
      continue;
    }
    if (!file || line.startsWith('--- ') || line.startsWith('\\')) continue;
    if (line.startsWith('+') || line.startsWith(' ')) file.add(next++);
  }
  return lines;
}

const commentBody = (finding: Finding) => `**${finding.severity}**: ${finding.message}\n\n${REVIEW_MARKER}`;

interface ReviewComment {
  path: string;
  line: number;
  side: 'RIGHT';
  body: string;
}

/** The inline comments, and the findings that no line of the diff can carry. */
export function splitFindings(review: Review, diff: string): { comments: ReviewComment[]; elsewhere: Finding[] } {
  const lines = commentableLines(diff);
  const comments: ReviewComment[] = [];
  const elsewhere: Finding[] = [];
  for (const finding of review.findings) {
    if (lines.get(finding.file)?.has(finding.line)) comments.push({ path: finding.file, line: finding.line, side: 'RIGHT', body: commentBody(finding) });
    else elsewhere.push(finding);
  }
  return { comments, elsewhere };
}

function reviewBody(summary: string, elsewhere: readonly Finding[]): string {
  const outside = elsewhere.map((finding) => `- **${finding.severity}** \`${finding.file}:${finding.line}\`: ${finding.message.replace(/\s*\n\s*/g, ' ')}`);
  return [summary.trim(), ...(outside.length ? ['', 'Findings outside the diff:', ...outside] : []), '', REVIEW_MARKER].join('\n');
}

async function call(target: PullRequestTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${target.apiUrl.replace(/\/$/, '')}/repos/${target.repository}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${target.token}`,
      'x-github-api-version': '2022-11-28',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`GitHub answered ${method} ${path} with ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response.status === 204 ? undefined : response.json();
}

interface Posted {
  id: number;
  body?: string | null;
}

/** Posts the review, or updates the one an earlier run posted; returns the review's id. */
export async function postReview(target: PullRequestTarget, review: Review, summary: string, diff: string): Promise<number> {
  const { comments, elsewhere } = splitFindings(review, diff);
  const body = reviewBody(summary, elsewhere);
  const pull = `/pulls/${target.pullNumber}`;
  const reviews = (await call(target, 'GET', `${pull}/reviews?per_page=100`)) as Posted[];
  const earlier = reviews.find((posted) => posted.body?.includes(REVIEW_MARKER));
  if (!earlier) {
    const created = (await call(target, 'POST', `${pull}/reviews`, { commit_id: target.commitId, body, event: 'COMMENT', comments })) as Posted;
    return created.id;
  }
  await call(target, 'PUT', `${pull}/reviews/${earlier.id}`, { body });
  const old = ((await call(target, 'GET', `${pull}/comments?per_page=100`)) as Posted[]).filter((comment) => comment.body?.includes(REVIEW_MARKER));
  for (const comment of old) await call(target, 'DELETE', `/pulls/comments/${comment.id}`);
  for (const comment of comments) await call(target, 'POST', `${pull}/comments`, { ...comment, commit_id: target.commitId });
  return earlier.id;
}
