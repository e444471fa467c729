// What the review asks the agent for (a zod schema), and what it makes of the answer: a Markdown
// summary for the job page and GitHub Actions annotations on the changed lines.
import { z } from 'zod';

export const severities = ['error', 'warning', 'info'] as const;
export type Severity = (typeof severities)[number];

export const reviewSchema = z.object({
  summary: z.string().describe('Two or three sentences on the change as a whole'),
  findings: z.array(
    z.object({
      file: z.string().describe('Path of the file, relative to the repository root, as in the diff'),
      line: z.number().int().min(1).describe('Line number in the new version of the file'),
      severity: z.enum(severities).describe('error: must be fixed before merging; warning: should be fixed; info: a remark'),
      message: z.string().describe('What is wrong and how to fix it'),
    }),
  ),
});

export type Review = z.output<typeof reviewSchema>;
export type Finding = Review['findings'][number];

const rank: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/** Findings at or above the severity that fails the job. */
export function blockingFindings(review: Review, failOn: Severity): Finding[] {
  return review.findings.filter((finding) => rank[finding.severity] >= rank[failOn]);
}

// Workflow commands need `%`, CR and LF escaped in the message, and `:` and `,` too in properties.
const escapeData = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

const command: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** One `::error file=…,line=…::message` line per finding, which GitHub shows on the diff. */
export function annotations(review: Review): string[] {
  return review.findings.map((finding) =>
    `::${command[finding.severity]} file=${escapeProperty(finding.file)},line=${finding.line},title=${escapeProperty(`AI review: ${finding.severity}`)}::${escapeData(finding.message)}`,
  );
}

const cell = (text: string) => text.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');

export function markdownSummary(review: Review, cli: string, failOn: Severity): string {
  const blocking = blockingFindings(review, failOn).length;
  const lines = [`## Code review by ${cli}`, '', review.summary.trim(), ''];
  if (review.findings.length === 0) {
    lines.push('No findings.');
  } else {
    const ordered = [...review.findings].sort((a, b) => rank[b.severity] - rank[a.severity] || a.file.localeCompare(b.file) || a.line - b.line);
    lines.push('| Severity | File | Line | Finding |', '| --- | --- | --- | --- |');
    for (const finding of ordered) lines.push(`| ${finding.severity} | \`${cell(finding.file)}\` | ${finding.line} | ${cell(finding.message)} |`);
  }
  lines.push('', blocking === 0 ? `**Passed**: nothing at or above \`${failOn}\`.` : `**Failed**: ${blocking} finding${blocking === 1 ? '' : 's'} at or above \`${failOn}\`.`);
  return `${lines.join('\n')}\n`;
}
