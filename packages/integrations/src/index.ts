// Isomorphic root: Slack, GitHub and Jira use fetch; email loads nodemailer only when it sends.
export { createEmailTool, type EmailToolOptions } from './email.js';
export { createSlackTool, type SlackToolOptions } from './slack.js';
export { createGitHubTools, type GitHubToolsOptions } from './github.js';
export { createJiraTools, toAdf, fromAdf, type JiraToolsOptions, type AdfNode } from './jira.js';
export { IntegrationError, INTEGRATION_ERROR_CODES, type FetchLike, type RetryPolicy } from './rest.js';
