/**
 * The reports module's public surface (issue 13, "Safety"): filing a report (REST for chats, calls and
 * friends; `fileReport` for the random module's rooms), the admin queue and its decisions, and the
 * restrictions they lead to (`randomTalkRestriction` for the matchmaker).
 */
export { fileReport, reportUser, type FileReportInput } from './file';
export { randomTalkRestriction } from './restrictions';
export { reportRoutes, REPORT_ATTEMPT_RATE } from './routes';
export { reportAdminRoutes, REPORT_DECISION_RATE } from './admin-routes';
